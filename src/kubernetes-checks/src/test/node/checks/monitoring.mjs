// The monitoring objects as a cluster reads them: the intervals it would scrape, evaluate and draw the
// lab's signals at (the manifests' own over kube-prometheus-stack's defaults and the install's values),
// judged against the plan's phases; and the Grafana dashboard's layout and variables.

import { describe, PLAN } from './render.mjs';

/**
 * kube-prometheus-stack as the README pins it. No chart is downloaded here: these are its values.yaml
 * defaults (prometheus.prometheusSpec's scrapeInterval and evaluationInterval are "", which leaves the
 * prometheus-operator's 30s; grafana.sidecar.datasources.defaultDatasourceScrapeInterval is unset) and
 * the data source it writes (templates/grafana/configmaps-datasources.yaml: jsonData.timeInterval is
 * defaultDatasourceScrapeInterval | default prometheusSpec.scrapeInterval | default "30s").
 */
export const KUBE_PROMETHEUS_STACK = {
  name: 'prometheus-community/kube-prometheus-stack',
  version: '79.7.1',
  /** @type {Record<string, string>} the values this check knows, and their defaults */
  values: {
    'prometheus.prometheusSpec.scrapeInterval': '',
    'prometheus.prometheusSpec.evaluationInterval': '',
    'grafana.sidecar.datasources.defaultDatasourceScrapeInterval': '',
    // the selectors the README names for an install under another release name
    'prometheus.prometheusSpec.serviceMonitorSelectorNilUsesHelmValues': 'true',
    'prometheus.prometheusSpec.ruleSelectorNilUsesHelmValues': 'true',
    // the control-plane components it scrapes (kubernetes/kind-monitoring.yaml)
    'kubeControllerManager.enabled': 'true',
    'kubeScheduler.enabled': 'true',
    'kubeEtcd.enabled': 'true',
    'kubeProxy.enabled': 'true',
  },
};

/** A Prometheus or Grafana duration in seconds ("1s", "2m", "1m30s", "500ms"). @param {string} text */
export function seconds(text) {
  const match = /^((\d+)h)?((\d+)m(?!s))?((\d+)s)?((\d+)ms)?$/.exec(String(text ?? '').trim());
  return !match || !text ? Number.NaN : Number(match[2] ?? 0) * 3600 + Number(match[4] ?? 0) * 60 + Number(match[6] ?? 0) + Number(match[8] ?? 0) / 1000;
}

/** The stack's global intervals and its Grafana data source's, from its defaults and `values`. @param {Record<string, string>} values */
export function stackIntervals(values) {
  const value = (/** @type {string} */ key) => values[key] ?? KUBE_PROMETHEUS_STACK.values[key] ?? '';
  return {
    scrape: value('prometheus.prometheusSpec.scrapeInterval') || '30s',
    evaluation: value('prometheus.prometheusSpec.evaluationInterval') || '30s',
    // the template's `default`s: "" is empty to Helm and falls through
    dataSource: value('grafana.sidecar.datasources.defaultDatasourceScrapeInterval') || value('prometheus.prometheusSpec.scrapeInterval') || '30s',
  };
}

/** The plan's shortest phase (its load): the shortest starvation the lab measures. */
export function shortestPhase(plan = PLAN) {
  const phase = plan.phases.reduce((/** @type {any} */ a, /** @type {any} */ b) => (b.seconds < a.seconds ? b : a));
  return { name: String(phase.name), seconds: Number(phase.seconds) };
}

/**
 * The least step and $__rate_interval Grafana runs a dashboard query with. The panel's interval (Min
 * interval) or else the data source's timeInterval bounds $__interval from below
 * (public/app/features/query/state/PanelQueryRunner.ts: lowerIntervalLimit = minInterval ? minInterval :
 * ds.interval). Grafana's Prometheus backend (pkg/promlib/models/query.go) then takes the step from the
 * query's own interval, else that $__interval (calculatePrometheusInterval, gtime.GetIntervalFrom), and
 * $__rate_interval = max($__interval + scrape, 4 x scrape) where scrape is the query's own interval,
 * else the data source's timeInterval, else 15s (interpolateVariables, calculateRateInterval): a
 * panel's interval alone does not make it.
 *
 * @param {string} dataSource the data source's timeInterval
 */
export function grafanaQuery(panel, target, dataSource) {
  const interval = seconds(panel.interval || dataSource);
  const scrape = seconds(target.interval || dataSource || '15s');
  return { step: target.interval ? seconds(target.interval) : interval, rateInterval: Math.max(interval + scrape, 4 * scrape) };
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
    // the rule's range selectors, subqueries' too
    rules: (g.rules ?? []).map((/** @type {any} */ r) => ({ name: r.alert ?? r.record,
      ranges: [...String(r.expr).matchAll(/\[([0-9a-z]+)(?::[0-9a-z]*)?\]/g)].map((m) => seconds(m[1])).filter((s) => !Number.isNaN(s)) })),
  })));
  const queries = dashboards(objects).flatMap(({ file, dashboard }) => (dashboard.panels ?? []).flatMap((/** @type {any} */ panel) => (panel.targets ?? [])
    .map((/** @type {any} */ target) => ({ where: `${file} panel "${panel.title}" ${target.refId}`, rate: /\$\{?__rate_interval/.test(target.expr ?? ''),
      from: target.interval ? 'the query' : `the data source's ${stack.dataSource} (kube-prometheus-stack)`,
      ...grafanaQuery(panel, target, stack.dataSource) }))));
  return { stack, scrapes, groups, queries };
}

/**
 * Intervals under which a starvation as long as the plan's shortest phase could go unseen by a scrape,
 * by an alert rule's evaluations, or be averaged away on the dashboard.
 *
 * @param {any[]} objects the rendered base
 * @param {Record<string, string>} values the stack's --set values
 */
export function checkIntervals(objects, values, phase = shortestPhase()) {
  const { scrapes, groups, queries } = effectiveIntervals(objects, values);
  const d = phase.seconds;
  const starvation = `a starvation of ${d} s (the plan's shortest phase, ${phase.name})`;
  const scrape = Math.max(...scrapes.map((s) => seconds(s.interval)));
  return [
    ...(scrapes.length ? [] : ['no ServiceMonitor endpoint scrapes the lab']),
    ...scrapes.filter((s) => seconds(s.interval) > d)
      .map((s) => `${s.where}: scraped every ${s.interval} (${s.from}): ${starvation} can fall between two scrapes`),
    ...groups.flatMap((g) => g.rules.flatMap((/** @type {any} */ rule) => {
      const e = seconds(g.interval);
      const shortest = rule.ranges.length ? Math.min(...rule.ranges) : 0;
      // a sample taken during the starvation stays in the window [w] for w seconds: some evaluation must come by then
      return [
        ...(e > d + shortest ? [`${g.where} ${rule.name}: evaluated every ${g.interval} (${g.from}): ${starvation} leaves its shortest window `
          + `[${shortest}s] ${e - d - shortest} s before the next evaluation`] : []),
        ...(shortest > 0 && shortest < 2 * scrape
          ? [`${g.where} ${rule.name}: a window of ${shortest} s holds fewer than two scrapes every ${scrape} s: rate() over it is empty`] : []),
      ];
    })),
    ...queries.flatMap((q) => [
      ...(q.step > d ? [`${q.where}: a step of at least ${q.step} s: it can step over ${starvation}`] : []),
      ...(q.rate && q.rateInterval > d ? [`${q.where}: $__rate_interval is at least ${q.rateInterval} s (its scrape term from ${q.from}): `
        + `it averages ${starvation} away and lags it by as much`] : []),
      ...(q.rate && q.rateInterval < 2 * scrape
        ? [`${q.where}: $__rate_interval of ${q.rateInterval} s holds fewer than two scrapes every ${scrape} s: the panel stays empty`] : []),
    ]),
  ];
}

/** The dashboards the Grafana sidecar loads: ConfigMaps labelled grafana_dashboard. @param {any[]} objects */
export function dashboards(objects) {
  return objects.filter((o) => o.kind === 'ConfigMap' && o.metadata?.labels?.grafana_dashboard)
    .flatMap((o) => Object.entries(o.data ?? {}).map(([file, json]) => ({ file, dashboard: JSON.parse(String(json)) })));
}

/**
 * Well-formed for the sidecar: unique ids, every panel on the 24-column grid without overlap, on the
 * $datasource and $namespace variables; and every **bold** name of the README is a panel.
 */
export function checkDashboard(dashboard, readme) {
  const panels = dashboard.panels ?? [];
  const ids = panels.map((/** @type {any} */ p) => p.id);
  const violations = new Set(ids).size === ids.length ? [] : ['panel ids are not unique'];
  const cells = new Map();
  for (const { gridPos: g, title } of panels) {
    if (!g || g.x < 0 || g.w <= 0 || g.x + g.w > 24) {
      violations.push(`panel "${title}" does not fit the 24-column grid`);
      continue;
    }
    const overlapped = new Set();
    for (let x = g.x; x < g.x + g.w; x++) {
      for (let y = g.y; y < g.y + g.h; y++) {
        if (cells.has(`${x},${y}`)) overlapped.add(cells.get(`${x},${y}`));
        cells.set(`${x},${y}`, title);
      }
    }
    violations.push(...[...overlapped].map((other) => `panel "${title}" overlaps "${other}"`));
  }
  const variables = (dashboard.templating?.list ?? []).map((/** @type {any} */ v) => v.name);
  violations.push(...['datasource', 'namespace'].filter((v) => !variables.includes(v)).map((v) => `no $${v} variable`));
  for (const panel of panels.filter((/** @type {any} */ p) => p.type !== 'row')) {
    if (panel.datasource?.uid !== '${datasource}') violations.push(`panel "${panel.title}" does not use \${datasource}`);
    if (!(panel.targets?.length > 0)) violations.push(`panel "${panel.title}" has no query`);
    for (const target of panel.targets ?? []) {
      if (target.datasource?.uid !== '${datasource}') violations.push(`panel "${panel.title}" ${target.refId} does not use \${datasource}`);
      if (!/namespace="\$namespace"/.test(target.expr ?? '')) violations.push(`panel "${panel.title}" ${target.refId} ignores $namespace`);
    }
  }
  const titles = panels.map((/** @type {any} */ p) => String(p.title));
  for (const [, bold] of readme.matchAll(/\*\*([^*]+)\*\*/g)) {
    const name = bold.replace(/\s+/g, ' ');
    if (name !== dashboard.title && !titles.some((title) => title.startsWith(name))) {
      violations.push(`the README names "${name}", which is no panel of the dashboard`);
    }
  }
  return violations;
}

/**
 * Where a rendered alert text shows a label that was empty: a space before punctuation ("on ."), an
 * empty pair of brackets, a slash with nothing after it ("pod/ "), two spaces ("-n  "), a space at
 * either end: what `{{ $labels.pod }}` leaves on a target without that label.
 *
 * @returns {string[]} each mark with its context
 */
export function emptyLabels(text) {
  return [...String(text).matchAll(/\s[.,;:)]|\(\s*\)|\/(?=\s|$)|\s{2}|^\s|\s$/g)]
    .map((m) => `"${text.slice(Math.max(0, m.index - 20), m.index + m[0].length + 20)}"`);
}
