// Which metrics the alert rules and the dashboard read, and whether a Prometheus scrape of the
// service has them. PromQL is parsed with Prometheus's own grammar (@prometheus-io/lezer-promql).

import { parser } from '@prometheus-io/lezer-promql';
import { describe } from './render.mjs';

/**
 * Metrics a scrape may lack, and why. Keep it minimal: every other name must be in the scrape.
 * @type {Record<string, string>}
 */
export const MAY_BE_ABSENT = {
  // Micrometer's virtual-thread binder registers the scheduler gauges on JDK 24+ only.
  jvm_threads_virtual_live_threads: 'registered on JDK 24+ only',
  jvm_threads_virtual_parallelism: 'registered on JDK 24+ only',
  jvm_threads_virtual_pool_size_threads: 'registered on JDK 24+ only',
  // One series per JFR pinning reason, created by the first pinned episode.
  lab_pinning_events_total: 'created by the first pinned episode',
};

/** Labels Prometheus attaches to every target of the ServiceMonitor, not the service. */
export const TARGET_LABELS = new Set(['namespace', 'service', 'pod', 'container', 'endpoint', 'job', 'instance']);

/**
 * @typedef {{ source: string, expr: string }} Expression
 * @typedef {{ name: string, labels: string[] }} Selector
 * @typedef {{ labels: string[], names: string[] }} Grouping
 */

/**
 * Sample names of a Prometheus text exposition, each with the label names its samples carry.
 *
 * @param {string} text
 * @returns {Map<string, Set<string>>}
 */
export function parseScrape(text) {
  /** @type {Map<string, Set<string>>} */
  const samples = new Map();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s/.exec(line);
    if (!match) continue;
    const labels = samples.get(match[1]) ?? new Set();
    for (const pair of (match[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="(?:[^"\\]|\\.)*"/g)) {
      labels.add(pair[1]);
    }
    samples.set(match[1], labels);
  }
  return samples;
}

/**
 * The PromQL of every alerting or recording rule and of every dashboard query in the objects.
 *
 * @param {any[]} objects rendered manifests
 * @returns {Expression[]}
 */
export function expressionsOf(objects) {
  /** @type {Expression[]} */
  const found = [];
  for (const object of objects) {
    if (object.kind === 'PrometheusRule') {
      for (const group of object.spec?.groups ?? []) {
        for (const rule of group.rules ?? []) {
          found.push({ source: `${describe(object)} ${rule.alert ? `alert ${rule.alert}` : `record ${rule.record}`}`, expr: String(rule.expr) });
        }
      }
    }
    if (object.kind === 'ConfigMap' && object.metadata?.labels?.grafana_dashboard) {
      for (const [file, json] of Object.entries(object.data ?? {})) {
        found.push(...dashboardExpressions(JSON.parse(String(json)), `${describe(object)} ${file}`));
      }
    }
  }
  return found;
}

/**
 * @param {any} dashboard Grafana dashboard JSON
 * @param {string} source
 * @returns {Expression[]}
 */
export function dashboardExpressions(dashboard, source) {
  /** @type {Expression[]} */
  const found = [];
  const visit = (/** @type {any[]} */ panels) => {
    for (const panel of panels ?? []) {
      for (const target of panel.targets ?? []) {
        if (typeof target.expr === 'string' && target.expr.trim() !== '') {
          found.push({ source: `${source} panel "${panel.title}" ${target.refId ?? ''}`.trim(), expr: grafanaToPromQL(target.expr) });
        }
      }
      visit(panel.panels);
    }
  };
  visit(dashboard.panels);
  for (const variable of dashboard.templating?.list ?? []) {
    if (variable.type !== 'query') continue;
    const query = typeof variable.query === 'string' ? variable.query : variable.query?.query;
    // label_values(selector, label) and query_result(expr) are Grafana's wrappers around PromQL.
    const wrapped = /^\s*(?:label_values\((.*),\s*[a-zA-Z_][a-zA-Z0-9_]*\s*\)|query_result\((.*)\))\s*$/s.exec(String(query ?? ''));
    const expr = wrapped ? (wrapped[1] ?? wrapped[2]) : query;
    if (expr && !/^\s*label_(names|values)\(\s*[a-zA-Z_]*\s*\)\s*$/.test(expr)) {
      found.push({ source: `${source} variable $${variable.name}`, expr: grafanaToPromQL(String(expr)) });
    }
  }
  return found;
}

/**
 * Grafana's interval variables become a duration; other variables sit inside label values.
 *
 * @param {string} expr
 */
function grafanaToPromQL(expr) {
  return expr.replace(/\$\{?__(rate_interval|interval|range)(_ms|_s)?\}?/g, '1m');
}

/**
 * The metric names, their label matchers and the grouping labels of one expression.
 *
 * @param {string} expr
 * @returns {{ selectors: Selector[], groupings: Grouping[], errors: string[] }}
 */
export function analyse(expr) {
  const tree = parser.parse(expr);
  /** @type {Selector[]} */
  const selectors = [];
  /** @type {Grouping[]} */
  const groupings = [];
  /** @type {string[]} */
  const errors = [];
  const text = (/** @type {any} */ node) => expr.slice(node.from, node.to);
  const unquote = (/** @type {string} */ s) => s.replace(/^["'`]|["'`]$/g, '');
  tree.iterate({
    enter(ref) {
      if (ref.type.isError) {
        errors.push(`cannot parse at ${ref.from}: "${expr.slice(Math.max(0, ref.from - 20), ref.to + 20).replace(/\s+/g, ' ')}"`);
      }
      if (ref.name === 'VectorSelector') {
        const node = ref.node;
        let name = node.getChild('Identifier') ? text(node.getChild('Identifier')) : '';
        const labels = [];
        const matchers = node.getChild('LabelMatchers');
        for (let child = matchers?.firstChild; child; child = child.nextSibling) {
          if (child.name === 'QuotedLabelName') {
            name = unquote(text(child));
          } else if (child.name === 'UnquotedLabelMatcher' || child.name === 'QuotedLabelMatcher') {
            const labelNode = child.firstChild;
            const label = labelNode ? unquote(text(labelNode)) : '';
            const value = child.getChild('StringLiteral');
            if (label === '__name__' && value && child.getChild('MatchOp')?.firstChild?.name === 'EqlSingle') {
              name = unquote(text(value));
            } else if (label !== '__name__') {
              labels.push(label);
            }
          }
        }
        if (name) {
          selectors.push({ name, labels });
        }
      }
      if (ref.name === 'AggregateExpr') {
        const node = ref.node;
        const grouping = node.getChild('AggregateModifier')?.getChild('GroupingLabels');
        if (grouping) {
          const labels = grouping.getChildren('LabelName').map(text);
          const names = [];
          const body = node.getChild('FunctionCallBody');
          const cursor = body?.cursor();
          if (cursor) {
            const end = body.to;
            do {
              if (cursor.name === 'VectorSelector') {
                const identifier = cursor.node.getChild('Identifier');
                if (identifier) names.push(text(identifier));
              }
            } while (cursor.next() && cursor.from < end);
          }
          groupings.push({ labels, names });
        }
      }
    },
  });
  return { selectors, groupings, errors };
}

/**
 * @param {Expression[]} expressions
 * @param {Map<string, Set<string>>} scrape
 * @returns {{ problems: string[], names: Set<string>, absentAllowed: Set<string> }}
 */
export function checkMetricNames(expressions, scrape) {
  /** @type {Map<string, Set<string>>} */
  const unknown = new Map();
  const problems = [];
  const names = new Set();
  const absentAllowed = new Set();
  for (const { source, expr } of expressions) {
    const { selectors, groupings, errors } = analyse(expr);
    for (const error of errors) problems.push(`${source}: ${error}`);
    for (const selector of selectors) {
      names.add(selector.name);
      const labels = scrape.get(selector.name);
      if (!labels) {
        if (Object.hasOwn(MAY_BE_ABSENT, selector.name)) {
          absentAllowed.add(selector.name);
        } else {
          if (!unknown.has(selector.name)) unknown.set(selector.name, new Set());
          unknown.get(selector.name)?.add(source);
        }
        continue;
      }
      for (const label of selector.labels) {
        if (!labels.has(label) && !TARGET_LABELS.has(label)) {
          problems.push(`${source}: ${selector.name} has no label "${label}" in the scrape`);
        }
      }
    }
    for (const grouping of groupings) {
      const present = grouping.names.filter((n) => scrape.has(n));
      if (present.length === 0) continue;
      for (const label of grouping.labels) {
        if (!TARGET_LABELS.has(label) && !present.some((n) => scrape.get(n)?.has(label))) {
          problems.push(`${source}: grouping label "${label}" is on none of ${present.join(', ')}`);
        }
      }
    }
  }
  for (const [name, sources] of unknown) {
    problems.unshift(`unknown metric ${name} (used by ${[...sources].join('; ')})`);
  }
  return { problems, names, absentAllowed };
}
