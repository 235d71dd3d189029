// The intervals a cluster would scrape, evaluate and draw the lab's signals at: the manifests'
// own (ServiceMonitor endpoint, rule group, dashboard panel) over kube-prometheus-stack's defaults
// with the values the README installs it with, judged against the plan's phases: an interval that
// could hide a starvation as long as the shortest phase is a violation.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellCommands, splitTopLevel, words } from './readme.mjs';
import { describe, KUBERNETES, REPO } from './render.mjs';

/**
 * What kube-prometheus-stack does with its interval values. No chart is downloaded here: these are
 * its documented defaults (charts/kube-prometheus-stack/values.yaml: prometheus.prometheusSpec's
 * scrapeInterval and evaluationInterval are "", which leaves the prometheus-operator's 30s;
 * grafana.sidecar.datasources.defaultDatasourceScrapeInterval is unset) and the data source it
 * writes (templates/grafana/configmaps-datasources.yaml: jsonData.timeInterval is
 * defaultDatasourceScrapeInterval | default prometheusSpec.scrapeInterval | default "30s").
 */
export const KUBE_PROMETHEUS_STACK = {
  name: 'prometheus-community/kube-prometheus-stack',
  /** @type {Record<string, string>} the values this check knows, and their defaults */
  values: {
    'prometheus.prometheusSpec.scrapeInterval': '',
    'prometheus.prometheusSpec.evaluationInterval': '',
    'grafana.sidecar.datasources.defaultDatasourceScrapeInterval': '',
    // the selectors the README names for an install under another release name
    'prometheus.prometheusSpec.serviceMonitorSelectorNilUsesHelmValues': 'true',
    'prometheus.prometheusSpec.ruleSelectorNilUsesHelmValues': 'true',
  },
  operatorDefault: '30s',
};

/**
 * A Prometheus duration in seconds ("1s", "30s", "2m", "1m30s", "500ms").
 *
 * @param {string} text
 * @returns {number}
 */
export function seconds(text) {
  const match = /^((\d+)h)?((\d+)m(?!s))?((\d+)s)?((\d+)ms)?$/.exec(String(text).trim());
  if (!match || text === '') return Number.NaN;
  return Number(match[2] ?? 0) * 3600 + Number(match[4] ?? 0) * 60 + Number(match[6] ?? 0) + Number(match[8] ?? 0) / 1000;
}

/**
 * The stack's global intervals and its Grafana data source's, from its defaults and `values`.
 *
 * @param {Record<string, string>} values --set values of the install
 */
export function stackIntervals(values) {
  const value = (/** @type {string} */ key) => values[key] ?? KUBE_PROMETHEUS_STACK.values[key] ?? '';
  const scrape = value('prometheus.prometheusSpec.scrapeInterval') || KUBE_PROMETHEUS_STACK.operatorDefault;
  const evaluation = value('prometheus.prometheusSpec.evaluationInterval') || KUBE_PROMETHEUS_STACK.operatorDefault;
  // the template's `default`s: an empty value falls through, as "" is empty to Helm
  const dataSource = value('grafana.sidecar.datasources.defaultDatasourceScrapeInterval')
    || value('prometheus.prometheusSpec.scrapeInterval') || '30s';
  return { scrape, evaluation, dataSource };
}

/** The plan's shortest phase (its load), in seconds: the shortest starvation the lab measures. */
export function shortestPhase(plan = JSON.parse(readFileSync(join(REPO, 'k6', 'plan.json'), 'utf8'))) {
  const phase = plan.phases.reduce((/** @type {any} */ a, /** @type {any} */ b) => (b.seconds < a.seconds ? b : a));
  return { name: String(phase.name), seconds: Number(phase.seconds) };
}

/**
 * Range selectors of a PromQL expression, in seconds ("[15s]" is 15; subqueries' ranges too).
 *
 * @param {string} expr
 */
function ranges(expr) {
  return [...String(expr).matchAll(/\[([0-9a-z]+)(?::[0-9a-z]*)?\]/g)].map((m) => seconds(m[1])).filter((s) => !Number.isNaN(s));
}

/**
 * Every interval the cluster would use for the lab's signals, and where it comes from.
 *
 * @param {any[]} objects the rendered base
 * @param {Record<string, string>} values the stack's --set values
 */
export function effectiveIntervals(objects, values) {
  const stack = stackIntervals(values);
  const scrapes = objects.filter((o) => o.kind === 'ServiceMonitor').flatMap((o) => (o.spec?.endpoints ?? []).map((/** @type {any} */ e) => ({
    where: `${describe(o)} endpoint ${e.port}`,
    interval: e.interval ?? stack.scrape,
    from: e.interval ? 'the endpoint' : 'kube-prometheus-stack (prometheusSpec.scrapeInterval)',
  })));
  const groups = objects.filter((o) => o.kind === 'PrometheusRule').flatMap((o) => (o.spec?.groups ?? []).map((/** @type {any} */ g) => ({
    where: `${describe(o)} group ${g.name}`,
    interval: g.interval ?? stack.evaluation,
    from: g.interval ? 'the group' : 'kube-prometheus-stack (prometheusSpec.evaluationInterval)',
    rules: (g.rules ?? []).map((/** @type {any} */ r) => ({ name: r.alert ?? r.record, ranges: ranges(r.expr) })),
  })));
  const panels = [];
  for (const configMap of objects.filter((o) => o.kind === 'ConfigMap' && o.metadata?.labels?.grafana_dashboard)) {
    for (const [file, json] of Object.entries(configMap.data ?? {})) {
      for (const panel of JSON.parse(String(json)).panels ?? []) {
        if (panel.type === 'row') continue;
        const usesRateInterval = (panel.targets ?? []).some((/** @type {any} */ t) => /\$\{?__rate_interval/.test(t.expr ?? ''));
        if (!usesRateInterval) continue;
        // Grafana: $__rate_interval = max($__interval + step, 4 x step), step = the panel's min interval or the data source's
        const step = panel.interval || stack.dataSource;
        panels.push({
          where: `${file} panel "${panel.title}"`,
          step,
          from: panel.interval ? 'the panel' : 'the data source (kube-prometheus-stack)',
          rateInterval: 4 * seconds(step),
        });
      }
    }
  }
  return { stack, scrapes, groups, panels };
}

/**
 * The violations: intervals under which a starvation as long as the plan's shortest phase could go
 * unseen by a scrape, by an alert rule's evaluations, or be averaged away on the dashboard.
 *
 * @param {any[]} objects the rendered base
 * @param {Record<string, string>} values the stack's --set values
 * @param {{ name: string, seconds: number }} [phase]
 * @returns {string[]}
 */
export function checkIntervals(objects, values, phase = shortestPhase()) {
  const violations = [];
  const { scrapes, groups, panels } = effectiveIntervals(objects, values);
  const d = phase.seconds;
  const starvation = `a starvation of ${d} s (the plan's shortest phase, ${phase.name})`;
  if (scrapes.length === 0) violations.push('no ServiceMonitor endpoint scrapes the lab');
  const scrape = Math.max(...scrapes.map((s) => seconds(s.interval)));
  for (const s of scrapes) {
    if (seconds(s.interval) > d) violations.push(`${s.where}: scraped every ${s.interval} (${s.from}): ${starvation} can fall between two scrapes`);
  }
  for (const g of groups) {
    const e = seconds(g.interval);
    for (const rule of g.rules) {
      const shortest = rule.ranges.length ? Math.min(...rule.ranges) : 0;
      // a sample taken during the starvation stays in the window [w] for w seconds: some evaluation must come by then
      if (e > d + shortest) {
        violations.push(`${g.where} ${rule.name}: evaluated every ${g.interval} (${g.from}): ${starvation} leaves its shortest window `
          + `[${shortest}s] ${e - d - shortest} s before the next evaluation`);
      }
      if (shortest > 0 && shortest < 2 * scrape) {
        violations.push(`${g.where} ${rule.name}: a window of ${shortest} s holds fewer than two scrapes every ${scrape} s: rate() over it is empty`);
      }
    }
  }
  for (const p of panels) {
    if (p.rateInterval > d) {
      violations.push(`${p.where}: $__rate_interval is at least ${p.rateInterval} s (4 x the ${p.step} step of ${p.from}): `
        + `it averages ${starvation} away and lags it by as much`);
    }
    if (p.rateInterval < 2 * scrape) {
      violations.push(`${p.where}: $__rate_interval of ${p.rateInterval} s holds fewer than two scrapes every ${scrape} s: the panel stays empty`);
    }
  }
  return violations;
}

/**
 * The --set values of the README's `helm install ... prometheus-community/kube-prometheus-stack`.
 *
 * @param {string} [readme]
 * @returns {Record<string, string>}
 */
export function stackInstallValues(readme = join(KUBERNETES, 'README.md')) {
  const install = shellCommands(readme).map(({ command }) => words(command))
    .find((w) => w[0] === 'helm' && w[1] === 'install' && w[3] === KUBE_PROMETHEUS_STACK.name);
  if (!install) throw new Error(`${readme} installs no ${KUBE_PROMETHEUS_STACK.name}`);
  return setValues(install);
}

/**
 * --set key=value pairs of helm words.
 *
 * @param {string[]} w
 * @returns {Record<string, string>}
 */
export function setValues(w) {
  /** @type {Record<string, string>} */
  const values = {};
  w.forEach((word, i) => {
    if (word !== '--set') return;
    for (const pair of splitTopLevel(w[i + 1] ?? '', ',')) {
      const [key, ...value] = pair.split('=');
      values[key] = value.join('=');
    }
  });
  return values;
}
