// The end-of-test report: summary.json (k6's data plus the verdicts), report.md and a plain-text
// stdout summary, from the handleSummary data. No remote imports: runner pods may have no egress.

import { NEVER_STARVING } from './lib-config.js';
import {
  WORK_COMPLETED, WORK_ERRORS, WORK_OVERLOADED,
  probeErrorsKey, probeLatencyKey, workKey, workLatencyKey,
} from './lib-thresholds.js';

/**
 * @typedef {Record<string, number>} Values
 * @typedef {{ type?: string, contains?: string, values: Values,
 *             thresholds?: Record<string, { ok: boolean }> }} SummaryMetric
 * @typedef {{ p50: number | undefined, p99: number | undefined, max: number | undefined,
 *             count: number | undefined }} Latency
 * @typedef {{ target: string, phase: string, mode: string, expected: string, observed: string,
 *             outcome: string, reason: string, virtualP99: number | undefined,
 *             baselineP99: number | undefined }} Verdict
 * @typedef {{ rate: number, total: number }} Share
 * @typedef {{ target: string, phase: string, probe: string, latency: Latency | undefined }} ProbeRow
 * @typedef {{ target: string, phase: string, mode: string, request: string, load: string,
 *             completed: number | undefined, perSecond: number | undefined, latency: Latency | undefined,
 *             overloaded: Share | undefined, workErrors: Share | undefined }} WorkRow
 * @typedef {{ target: string, phase: string, probeErrors: Share | undefined, overloaded: Share | undefined,
 *             workErrors: Share | undefined }} ErrorRow
 * @typedef {{ metric: string, expression: string, ok: boolean }} ThresholdResult
 * @typedef {{ layout: string, boundMs: number, targets: import('./lib-config.js').Target[],
 *             facts: Record<string, Record<string, unknown> | null>, verdicts: Verdict[], probes: ProbeRow[],
 *             work: WorkRow[], errors: ErrorRow[], thresholds: ThresholdResult[],
 *             droppedIterations: number | undefined, notes: string[], runSeconds: number | undefined }} Model
 */

/**
 * The files handleSummary returns: REPORT_DIR/summary.json, REPORT_DIR/report.md and stdout.
 *
 * @param {any} data the handleSummary argument
 * @param {import('./lib-config.js').Layout} layout
 * @returns {Record<string, string>}
 */
export function summaryFiles(data, layout) {
  const report = buildReport(data, layout);
  const dir = layout.reportDir === '.' ? '' : `${layout.reportDir.replace(/\/+$/, '')}/`;
  const files = { json: `${dir}summary.json`, markdown: `${dir}report.md` };
  return {
    [files.json]: JSON.stringify(Object.assign({}, data, { starvationLab: report.model }), null, 2),
    [files.markdown]: report.markdown,
    stdout: `${report.text}\n  files: ${files.json}, ${files.markdown}\n\n`,
  };
}

/**
 * @param {any} data
 * @param {import('./lib-config.js').Layout} layout
 * @returns {{ model: Model, markdown: string, text: string }}
 */
export function buildReport(data, layout) {
  const summary = readSummary(data);
  const metrics = summary.metrics;
  const bound = layout.boundMs;
  /** @type {Record<string, Record<string, unknown> | null>} */
  const facts = {};
  const setupTargets = summary.setup && summary.setup.targets ? summary.setup.targets : {};
  for (const target of layout.targets) {
    facts[target.name] = setupTargets[target.name] ? setupTargets[target.name].facts : null;
  }

  /** @type {Verdict[]} */
  const verdicts = layout.loads.map((load) => judge(metrics, load, facts[load.target], bound));

  /** @type {ProbeRow[]} */
  const probeRows = [];
  for (const target of layout.targets) {
    const windows = ['baseline', ...layout.loads.filter((l) => l.target === target.name).map((l) => l.phase)];
    for (const window of windows) {
      for (const route of layout.probes.filter((p) => p.target === target.name)) {
        probeRows.push({ target: target.name, phase: window, probe: route.path,
          latency: latency(metrics, probeLatencyKey(target.name, window, route.probe)) });
      }
    }
  }

  /** @type {ErrorRow[]} */
  const errorRows = [];
  for (const target of layout.targets) {
    errorRows.push({ target: target.name, phase: 'baseline', probeErrors: rate(metrics, probeErrorsKey(target.name, 'baseline')),
      overloaded: undefined, workErrors: undefined });
  }
  /** @type {WorkRow[]} */
  const workRows = [];
  for (const load of layout.loads) {
    const completed = count(metrics, workKey(WORK_COMPLETED, load.target, load.phase));
    const overloaded = rate(metrics, workKey(WORK_OVERLOADED, load.target, load.phase));
    const workErrors = rate(metrics, workKey(WORK_ERRORS, load.target, load.phase));
    errorRows.push({ target: load.target, phase: load.phase, probeErrors: rate(metrics, probeErrorsKey(load.target, load.phase)),
      overloaded, workErrors });
    workRows.push({ target: load.target, phase: load.phase, mode: load.mode,
      request: `/work/${load.mode}?ms=${load.ms}&downstream=${load.downstream}&lock=${load.lock}`,
      load: load.rate > 0 ? `${load.rate}/s` : `${load.vus} VUs`,
      completed, perSecond: completed === undefined ? undefined : completed / load.seconds,
      latency: latency(metrics, workLatencyKey(load.target, load.phase)), overloaded, workErrors });
  }
  errorRows.sort((a, b) => order(layout, a.target) - order(layout, b.target));

  const thresholds = thresholdResults(summary.metrics);
  const dropped = count(metrics, 'dropped_iterations');
  const notes = summary.notes.slice();
  if (dropped !== undefined && dropped > 0) {
    notes.push(`k6 dropped ${dropped} iterations: every probe VU was busy (raise PROBE_MAX_VUS); `
      + 'the probe latencies are a lower bound.');
  }
  if (probeRows.every((row) => row.latency === undefined)) {
    notes.push('No probe sub-metrics in the summary: k6 creates them only for thresholds '
      + '(was it run with --no-thresholds?).');
  }

  /** @type {Model} */
  const model = { layout: layout.kind, boundMs: bound, targets: layout.targets, facts, verdicts, probes: probeRows,
    work: workRows, errors: errorRows, thresholds, droppedIterations: dropped, notes,
    runSeconds: summary.runMs === undefined ? undefined : summary.runMs / 1000 };
  return { model, markdown: markdown(layout, model), text: text(layout, model) };
}

/**
 * k6's expected outcome for a mode on a JVM, from its /lab/info facts.
 *
 * @param {string} mode
 * @param {Record<string, unknown> | null} info
 * @returns {{ expected: 'starve' | 'hold' | 'unavailable' | 'unknown', reason: string }}
 */
export function expectedOutcome(mode, info) {
  if (mode === 'platform') {
    return { expected: 'hold', reason: 'platform threads: the carriers are not involved' };
  }
  if (NEVER_STARVING.includes(mode)) {
    return { expected: 'hold', reason: 'the wait unmounts the virtual thread' };
  }
  if (mode === 'cpu') {
    return { expected: 'starve', reason: 'computation holds its carrier on every JDK (no preemption)' };
  }
  if (!info) {
    return { expected: 'unknown', reason: 'no /lab/info facts for this target' };
  }
  if (mode === 'native') {
    return info.nativePinAvailable === true
      ? { expected: 'starve', reason: 'the wait inside an FFM upcall pins its carrier (JDK 22+)' }
      : { expected: 'unavailable', reason: 'native needs FFM (JDK 22+): this JVM answers 501' };
  }
  if (info.synchronizedPins === true) {
    return { expected: 'starve', reason: 'synchronized pins on this JVM (synchronizedPins=true)' };
  }
  if (info.synchronizedPins === false) {
    return { expected: 'hold', reason: 'synchronized does not pin on this JVM (synchronizedPins=false)' };
  }
  return { expected: 'unknown', reason: '/lab/info does not say whether synchronized pins' };
}

/**
 * @param {Record<string, SummaryMetric>} metrics
 * @param {import('./lib-config.js').Load} load
 * @param {Record<string, unknown> | null} info
 * @param {number} bound
 * @returns {Verdict}
 */
function judge(metrics, load, info, bound) {
  const { expected, reason } = expectedOutcome(load.mode, info);
  const during = latency(metrics, probeLatencyKey(load.target, load.phase, 'virtual'));
  const before = latency(metrics, probeLatencyKey(load.target, 'baseline', 'virtual'));
  const completed = count(metrics, workKey(WORK_COMPLETED, load.target, load.phase));
  let observed;
  if (expected === 'unavailable' && !completed) {
    observed = 'skipped';
  } else if (!during || !during.count || during.p99 === undefined) {
    observed = 'no data';
  } else {
    observed = during.p99 >= bound ? 'starved' : 'held';
  }
  let outcome;
  if (observed === 'skipped') {
    outcome = 'SKIPPED';
  } else if (observed === 'no data') {
    outcome = 'NO DATA';
  } else if (expected === 'unknown' || expected === 'unavailable') {
    outcome = observed.toUpperCase();
  } else if ((expected === 'starve') === (observed === 'starved')) {
    outcome = `${observed.toUpperCase()}, as expected`;
  } else {
    outcome = observed === 'starved' ? 'STARVED, not expected' : 'HELD, starvation expected';
  }
  return { target: load.target, phase: load.phase, mode: load.mode, expected, observed, outcome, reason,
    virtualP99: during ? during.p99 : undefined, baselineP99: before ? before.p99 : undefined };
}

/**
 * Accepts k6's handleSummary data (data.metrics[name].values) and, as a fallback, the opt-in
 * machine-readable shape (--new-machine-readable-summary), which has no p(99) and no setup data.
 *
 * @param {any} data
 * @returns {{ metrics: Record<string, SummaryMetric>, setup: any, runMs: number | undefined, notes: string[] }}
 */
function readSummary(data) {
  if (data && data.metrics && typeof data.metrics === 'object' && !Array.isArray(data.metrics)) {
    return { metrics: data.metrics, setup: data.setup_data, notes: [],
      runMs: data.state ? data.state.testRunDurationMs : undefined };
  }
  /** @type {Record<string, SummaryMetric>} */
  const metrics = {};
  const list = data && data.results && Array.isArray(data.results.metrics) ? data.results.metrics : [];
  for (const metric of list) {
    const values = Object.assign({}, metric.values);
    if (metric.type === 'rate') {
      values.passes = values.matches;
      values.fails = values.total - values.matches;
    }
    metrics[metric.name] = { type: metric.type, contains: metric.contains, values };
  }
  return {
    metrics,
    setup: undefined,
    runMs: data && data.config && typeof data.config.duration === 'number' ? data.config.duration * 1000 : undefined,
    notes: ['This summary came in k6\'s machine-readable shape, which has no p(99), no thresholds and no setup '
      + 'data: run k6 with --new-machine-readable-summary=false for the full report.'],
  };
}

/**
 * @param {Record<string, SummaryMetric>} metrics
 * @param {string} key
 * @returns {Latency | undefined}
 */
function latency(metrics, key) {
  const metric = metrics[key];
  if (!metric) {
    return undefined;
  }
  const v = metric.values;
  return { p50: v.med !== undefined ? v.med : v['p(50)'], p99: v['p(99)'], max: v.max, count: v.count };
}

/**
 * @param {Record<string, SummaryMetric>} metrics
 * @param {string} key
 * @returns {Share | undefined}
 */
function rate(metrics, key) {
  const metric = metrics[key];
  return metric ? { rate: metric.values.rate, total: (metric.values.passes || 0) + (metric.values.fails || 0) } : undefined;
}

/**
 * @param {Record<string, SummaryMetric>} metrics
 * @param {string} key
 */
function count(metrics, key) {
  const metric = metrics[key];
  return metric ? metric.values.count : undefined;
}

/**
 * @param {Record<string, SummaryMetric>} metrics
 */
function thresholdResults(metrics) {
  /** @type {ThresholdResult[]} */
  const results = [];
  for (const name of Object.keys(metrics).sort()) {
    const thresholds = metrics[name].thresholds || {};
    for (const expression of Object.keys(thresholds)) {
      results.push({ metric: name, expression, ok: thresholds[expression].ok });
    }
  }
  return results;
}

/**
 * @param {import('./lib-config.js').Layout} layout
 * @param {string} target
 */
function order(layout, target) {
  return layout.targets.findIndex((t) => t.name === target);
}

/** @param {number | undefined} value */
function ms(value) {
  if (value === undefined || value === null || Number.isNaN(value)) {
    return 'n/a';
  }
  return value < 10 ? value.toFixed(1) : String(Math.round(value));
}

/** @param {Share | undefined} value */
function pct(value) {
  if (!value) {
    return 'n/a';
  }
  return value.total === 0 ? '0 requests' : `${(value.rate * 100).toFixed(1)}% of ${value.total}`;
}

/** @param {unknown} value */
function fact(value) {
  if (value === undefined || value === null) {
    return 'n/a';
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * @param {Verdict} verdict
 * @param {import('./lib-config.js').Layout} layout
 * @param {number} bound
 */
function verdictSentence(verdict, layout, bound) {
  const where = layout.kind === 'two-targets' ? verdict.target : `${verdict.target} / ${verdict.phase}`;
  const why = verdict.reason.charAt(0).toUpperCase() + verdict.reason.slice(1);
  if (verdict.observed === 'skipped' || verdict.observed === 'no data') {
    return `${where}: ${verdict.outcome} under /work/${verdict.mode}. ${why}.`;
  }
  const relation = verdict.observed === 'starved' ? '≥' : '<';
  return `${where}: ${verdict.outcome} under /work/${verdict.mode}: /probe/virtual p99 ${ms(verdict.virtualP99)} ms `
    + `${relation} ${bound} ms (baseline ${ms(verdict.baselineP99)} ms). ${why}.`;
}

/**
 * @param {import('./lib-config.js').Layout} layout
 * @param {Model} model
 */
function markdown(layout, model) {
  const lines = [];
  const passed = model.thresholds.filter((t) => t.ok).length;
  lines.push('# Starvation Lab: k6 report', '');
  lines.push(layout.kind === 'two-targets'
    ? `Two targets side by side under the same load: ${model.targets.map((t) => `**${t.name}** ${t.url}`).join(', ')}.`
    : `One target, ${model.targets[0].url}: the plan's default-JVM phases one after another.`);
  lines.push(`Probe bound: p99 < ${model.boundMs} ms. Run time: ${model.runSeconds === undefined ? 'n/a' : `${model.runSeconds.toFixed(1)} s`}. `
    + `Thresholds: ${passed} of ${model.thresholds.length} as expected.`, '');

  lines.push('## Verdict', '');
  for (const verdict of model.verdicts) {
    lines.push(`- ${verdictSentence(verdict, layout, model.boundMs)}`);
  }
  for (const note of model.notes) {
    lines.push(`- Note: ${note}`);
  }
  lines.push('');

  lines.push('## The JVMs (/lab/info)', '');
  lines.push('| target | URL | Java | processors | carriers (parallelism / max pool) | LockingMode | synchronized pins | native pin | permits | pool max |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const target of model.targets) {
    const f = model.facts[target.name];
    lines.push(f
      ? `| ${target.name} | ${target.url} | ${fact(f.javaVersion)} (${fact(f.javaVendor)}) | ${fact(f.availableProcessors)} | `
        + `${fact(f.carrierParallelism)} / ${fact(f.carrierMaxPoolSize)} | ${fact(f.lockingMode)} | ${fact(f.synchronizedPins)} | `
        + `${fact(f.nativePinAvailable)} | ${fact(f.downstreamPermits)} ${fact(f.permits)} | ${fact(f.poolMaxSize)} |`
      : `| ${target.name} | ${target.url} | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a |`);
  }
  lines.push('');

  lines.push('## Probe latency (ms)', '');
  lines.push('| target | phase | probe | p50 | p99 | max | requests |');
  lines.push('|---|---|---|---:|---:|---:|---:|');
  for (const row of model.probes) {
    const l = row.latency;
    lines.push(`| ${row.target} | ${row.phase} | ${row.probe} | ${ms(l && l.p50)} | ${ms(l && l.p99)} | ${ms(l && l.max)} | ${l && l.count !== undefined ? l.count : 'n/a'} |`);
  }
  lines.push('');

  lines.push('## Work', '');
  lines.push('| target | phase | request | load | completed | per second | p50 ms | p99 ms | 503 (overloaded) | errors |');
  lines.push('|---|---|---|---|---:|---:|---:|---:|---:|---:|');
  for (const row of model.work) {
    const l = row.latency;
    lines.push(`| ${row.target} | ${row.phase} | \`${row.request}\` | ${row.load} | ${row.completed === undefined ? 'n/a' : row.completed} | `
      + `${row.perSecond === undefined ? 'n/a' : row.perSecond.toFixed(1)} | ${ms(l && l.p50)} | ${ms(l && l.p99)} | ${pct(row.overloaded)} | ${pct(row.workErrors)} |`);
  }
  lines.push('');

  lines.push('## Error rates', '');
  lines.push('| target | phase | probe errors | work 503 (overloaded) | work errors |');
  lines.push('|---|---|---:|---:|---:|');
  for (const row of model.errors) {
    lines.push(`| ${row.target} | ${row.phase} | ${pct(row.probeErrors)} | ${row.overloaded === undefined && row.phase === 'baseline' ? '-' : pct(row.overloaded)} | `
      + `${row.workErrors === undefined && row.phase === 'baseline' ? '-' : pct(row.workErrors)} |`);
  }
  lines.push('');

  lines.push('## Thresholds', '');
  lines.push('Each threshold states the expected outcome, so ✓ means "as expected": `p(99)<bound` a probe that holds, '
    + '`p(99)>=bound` the virtual probe starving (the demonstration), `max>=0`, `rate>=0` and `count>=0` values recorded for this report.', '');
  for (const t of model.thresholds) {
    lines.push(`- ${t.ok ? '✓' : '✗'} \`${t.metric}\`: \`${t.expression}\``);
  }
  lines.push('');
  return lines.join('\n');
}

/**
 * @param {import('./lib-config.js').Layout} layout
 * @param {Model} model
 */
function text(layout, model) {
  const lines = [];
  const failed = model.thresholds.filter((t) => !t.ok);
  lines.push('', `Starvation Lab: ${layout.kind === 'two-targets' ? 'two targets' : 'one target, phase after phase'}, `
    + `probe bound p99 < ${model.boundMs} ms`, '');
  for (const verdict of model.verdicts) {
    lines.push(`  ${verdictSentence(verdict, layout, model.boundMs)}`);
  }
  for (const note of model.notes) {
    lines.push(`  Note: ${note}`);
  }
  lines.push('');
  for (const target of model.targets) {
    const f = model.facts[target.name];
    lines.push(f
      ? `  ${pad(target.name, 9)} Java ${fact(f.javaVersion)}, ${fact(f.availableProcessors)} processors, `
        + `${fact(f.carrierParallelism)} carriers, synchronizedPins=${fact(f.synchronizedPins)}, nativePinAvailable=${fact(f.nativePinAvailable)}`
      : `  ${pad(target.name, 9)} no /lab/info facts`);
  }
  lines.push('', `  ${pad('probe latency (ms)', 44)}${pad('p50', 9)}${pad('p99', 9)}max`);
  for (const row of model.probes) {
    const l = row.latency;
    lines.push(`  ${pad(row.target, 9)}${pad(row.phase, 16)}${pad(row.probe, 19)}${pad(ms(l && l.p50), 9)}${pad(ms(l && l.p99), 9)}${ms(l && l.max)}`);
  }
  lines.push('', `  ${pad('work', 25)}${pad('completed', 11)}${pad('per s', 8)}${pad('p99 ms', 9)}${pad('503', 18)}errors`);
  for (const row of model.work) {
    lines.push(`  ${pad(row.target, 9)}${pad(row.phase, 16)}${pad(row.completed === undefined ? 'n/a' : String(row.completed), 11)}`
      + `${pad(row.perSecond === undefined ? 'n/a' : row.perSecond.toFixed(1), 8)}${pad(ms(row.latency && row.latency.p99), 9)}`
      + `${pad(pct(row.overloaded), 18)}${pct(row.workErrors)}`);
  }
  lines.push('', `  thresholds: ${model.thresholds.length - failed.length} as expected, ${failed.length} not`);
  for (const t of failed) {
    lines.push(`    ✗ ${t.metric}: ${t.expression}`);
  }
  return lines.join('\n');
}

/**
 * @param {string} value
 * @param {number} width
 */
function pad(value, width) {
  return value.length >= width ? `${value} ` : value + ' '.repeat(width - value.length);
}
