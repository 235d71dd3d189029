// Which metrics the alert rules and the dashboard read, and whether a Prometheus scrape of the
// service has them. PromQL is parsed with Prometheus's own grammar (@prometheus-io/lezer-promql).

import { parser } from '@prometheus-io/lezer-promql';
import { dashboards } from './monitoring.mjs';
import { describe } from './render.mjs';

/** Metrics a scrape may lack, and why. Keep it minimal: every other name must be in the scrape. */
export const MAY_BE_ABSENT = /** @type {Record<string, string>} */ ({
  // Micrometer's virtual-thread binder registers the scheduler gauges on JDK 24+ only
  jvm_threads_virtual_live_threads: 'registered on JDK 24+ only',
  jvm_threads_virtual_parallelism: 'registered on JDK 24+ only',
  jvm_threads_virtual_pool_size_threads: 'registered on JDK 24+ only',
  lab_pinning_events_total: 'one series per JFR pinning reason, created by the first pinned episode',
});
/** Labels Prometheus attaches to every target of the ServiceMonitor, not the service. */
const TARGET_LABELS = new Set(['namespace', 'service', 'pod', 'container', 'endpoint', 'job', 'instance']);

/** Sample names of a Prometheus text exposition, each with the label names its samples carry. @param {string} text */
export function parseScrape(text) {
  const samples = new Map();
  for (const [, name, labels] of text.matchAll(/^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s/gm)) {
    const known = samples.get(name) ?? samples.set(name, new Set()).get(name);
    for (const pair of (labels ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="(?:[^"\\]|\\.)*"/g)) known?.add(pair[1]);
  }
  return samples;
}

/**
 * The PromQL of every alerting or recording rule, dashboard query and dashboard query variable
 * (label_values(selector, label) and query_result(expr) are Grafana's wrappers around it), Grafana's
 * interval variables as a duration; other variables sit inside label values.
 *
 * @param {any[]} objects rendered manifests
 */
export function expressionsOf(objects) {
  const promql = (/** @type {string} */ expr) => expr.replace(/\$\{?__(rate_interval|interval|range)(_ms|_s)?\}?/g, '1m');
  const rules = objects.filter((o) => o.kind === 'PrometheusRule').flatMap((o) => (o.spec?.groups ?? []).flatMap((/** @type {any} */ g) => (g.rules ?? [])
    .map((/** @type {any} */ r) => ({ source: `${describe(o)} ${r.alert ? `alert ${r.alert}` : `record ${r.record}`}`, expr: String(r.expr) }))));
  const boards = objects.filter((o) => o.kind === 'ConfigMap').flatMap((o) => dashboards([o]).flatMap(({ file, dashboard }) => {
    const source = `${describe(o)} ${file}`;
    const panels = (/** @type {any[]} */ list) => list.flatMap((p) => [...(p.targets ?? []).filter((/** @type {any} */ t) => String(t.expr ?? '').trim())
      .map((/** @type {any} */ t) => ({ source: `${source} panel "${p.title}" ${t.refId ?? ''}`.trim(), expr: promql(t.expr) })), ...panels(p.panels ?? [])]);
    const variables = (dashboard.templating?.list ?? []).filter((/** @type {any} */ v) => v.type === 'query').flatMap((/** @type {any} */ v) => {
      const query = String((typeof v.query === 'string' ? v.query : v.query?.query) ?? '');
      const wrapped = /^\s*(?:label_values\((.*),\s*[a-zA-Z_][a-zA-Z0-9_]*\s*\)|query_result\((.*)\))\s*$/s.exec(query);
      const expr = wrapped ? (wrapped[1] ?? wrapped[2]) : query;
      return expr && !/^\s*label_(names|values)\(\s*[a-zA-Z_]*\s*\)\s*$/.test(expr) ? [{ source: `${source} variable $${v.name}`, expr: promql(expr) }] : [];
    });
    return [...panels(dashboard.panels ?? []), ...variables];
  }));
  return [...rules, ...boards];
}

/**
 * The metric names, their label matchers and the grouping labels of one expression.
 */
function analyse(expr) {
  const result = { selectors: /** @type {{ name: string, labels: string[] }[]} */ ([]), groupings: /** @type {{ labels: string[], names: string[] }[]} */ ([]),
    errors: /** @type {string[]} */ ([]) };
  const text = (/** @type {any} */ node) => expr.slice(node.from, node.to);
  const unquote = (/** @type {string} */ s) => s.replace(/^["'`]|["'`]$/g, '');
  parser.parse(expr).iterate({
    enter(ref) {
      if (ref.type.isError) result.errors.push(`cannot parse at ${ref.from}: "${expr.slice(Math.max(0, ref.from - 20), ref.to + 20).replace(/\s+/g, ' ')}"`);
      if (ref.name === 'VectorSelector') {
        let name = ref.node.getChild('Identifier') ? text(ref.node.getChild('Identifier')) : '';
        const labels = [];
        for (let child = ref.node.getChild('LabelMatchers')?.firstChild; child; child = child.nextSibling) {
          if (child.name === 'QuotedLabelName') name = unquote(text(child));
          if (child.name !== 'UnquotedLabelMatcher' && child.name !== 'QuotedLabelMatcher') continue;
          const label = child.firstChild ? unquote(text(child.firstChild)) : '';
          const value = child.getChild('StringLiteral');
          if (label !== '__name__') labels.push(label);
          else if (value && child.getChild('MatchOp')?.firstChild?.name === 'EqlSingle') name = unquote(text(value));
        }
        if (name) result.selectors.push({ name, labels });
      }
      const grouping = ref.name === 'AggregateExpr' ? ref.node.getChild('AggregateModifier')?.getChild('GroupingLabels') : null;
      const body = grouping ? ref.node.getChild('FunctionCallBody') : null;
      if (grouping && body) {
        const names = [];
        const cursor = body.cursor();
        do {
          if (cursor.name === 'VectorSelector' && cursor.node.getChild('Identifier')) names.push(text(cursor.node.getChild('Identifier')));
        } while (cursor.next() && cursor.from < body.to);
        result.groupings.push({ labels: grouping.getChildren('LabelName').map(text), names });
      }
    },
  });
  return result;
}

/** The metric names an expression reads. @param {string} expr */
export const metricsOf = (expr) => analyse(expr).selectors.map((s) => s.name);

/**
 * Aggregations that merge scraped instances: every rule's, and every dashboard query's over the
 * carrier-wait meter (what any service exports), must keep `job` and `instance`, the labels every
 * scrape has, so two instances of one job stay two alerts and two lines.
 */
export function checkPerInstance(expressions) {
  return expressions.filter(({ source, expr }) => / (alert|record) /.test(source) || /\bvirtual_threads_carrier_/.test(expr))
    .flatMap(({ source, expr }) => analyse(expr).groupings.filter((g) => !['job', 'instance'].every((l) => g.labels.includes(l)))
      .map((g) => `${source}: by (${g.labels.join(', ')}) merges the instances of a job (keep job and instance)`));
}

/** What the expressions read that the scrape lacks; absentAllowed: the MAY_BE_ABSENT names read and absent. */
export function checkMetricNames(expressions, scrape) {
  const unknown = new Map();
  const problems = [];
  const absentAllowed = new Set();
  for (const { source, expr } of expressions) {
    const { selectors, groupings, errors } = analyse(expr);
    problems.push(...errors.map((error) => `${source}: ${error}`));
    for (const { name, labels } of selectors) {
      const known = scrape.get(name);
      if (!known && Object.hasOwn(MAY_BE_ABSENT, name)) absentAllowed.add(name);
      else if (!known) (unknown.get(name) ?? unknown.set(name, new Set()).get(name))?.add(source);
      for (const label of known ? labels.filter((l) => !known.has(l) && !TARGET_LABELS.has(l)) : []) {
        problems.push(`${source}: ${name} has no label "${label}" in the scrape`);
      }
    }
    for (const grouping of groupings) {
      const present = grouping.names.filter((n) => scrape.has(n));
      for (const label of present.length ? grouping.labels.filter((l) => !TARGET_LABELS.has(l) && !present.some((n) => scrape.get(n)?.has(l))) : []) {
        problems.push(`${source}: grouping label "${label}" is on none of ${present.join(', ')}`);
      }
    }
  }
  const unknowns = [...unknown].map(([name, sources]) => `unknown metric ${name} (used by ${[...sources].join('; ')})`);
  return { problems: [...unknowns, ...problems], absentAllowed };
}
