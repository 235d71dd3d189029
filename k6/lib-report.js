// The end-of-test report: summary.json (k6's data plus the verdicts), report.md and a plain-text
// stdout summary, from the handleSummary data. No remote imports: runner pods may have no egress.

import { NEVER_STARVING, OTHER_EVENT_LOOP, eventLoopTags } from './lib-config.js';
import {
  SLOW_PROBE_SECONDS, WORK_COMPLETED, WORK_ERRORS, WORK_OVERLOADED,
  probeErrorsKey, probeLatencyKey, probeOverKey, probeWaitKey, ruleStat, workKey, workLatencyKey,
} from './lib-thresholds.js';

/**
 * @typedef {Record<string, number>} Values
 * @typedef {{ type?: string, contains?: string, values: Values,
 *             thresholds?: Record<string, { ok: boolean }> }} SummaryMetric
 * @typedef {{ p10: number | undefined, p50: number | undefined, p90: number | undefined, p99: number | undefined,
 *             max: number | undefined, count: number | undefined }} Latency
 * @typedef {{ target: string, phase: string, mode: string, expected: string, observed: string,
 *             outcome: string, reason: string, statistic: string, loadedMs: number | undefined,
 *             baselineMs: number | undefined, starvedFromMs: number | undefined }} Verdict
 * @typedef {{ rate: number, total: number }} Share
 * @typedef {Record<string, number | undefined>} Over shares of probes over each of SLOW_PROBE_SECONDS, by seconds
 * @typedef {{ target: string, phase: string, probe: string, latency: Latency | undefined, over: Over }} ProbeRow
 * @typedef {{ target: string, phase: string, probe: string, eventLoop: string, latency: Latency, over: Over }} EventLoopRow
 * @typedef {{ target: string, phase: string, sampled: string[], eventLoops: number | undefined, past: number,
 *             fastest: EventLoopRow | undefined, slowest: EventLoopRow | undefined }} EventLoopSpread
 *   sampled: the numbered event loops that served probes; eventLoops: the service's, from /lab/info;
 *   past: probes from loops past EVENT_LOOPS
 * @typedef {{ target: string, phase: string, mode: string, request: string, load: string,
 *             completed: number | undefined, perSecond: number | undefined, latency: Latency | undefined,
 *             overloaded: Share | undefined, workErrors: Share | undefined }} WorkRow
 * @typedef {{ target: string, phase: string, probeErrors: Share | undefined, overloaded: Share | undefined,
 *             workErrors: Share | undefined }} ErrorRow
 * @typedef {{ metric: string, expression: string, ok: boolean }} ThresholdResult
 * @typedef {{ layout: string, rule: import('./lib-config.js').StarvationRule & { text: string },
 *             latencyBoundMs: number, targets: import('./lib-config.js').Target[],
 *             facts: Record<string, Record<string, unknown> | null>, verdicts: Verdict[], probes: ProbeRow[],
 *             eventLoops: EventLoopRow[], eventLoopSpread: EventLoopSpread[],
 *             work: WorkRow[], errors: ErrorRow[], thresholds: ThresholdResult[],
 *             droppedIterations: number | undefined, notes: string[], runSeconds: number | undefined }} Model
 */

/** Thresholds that record a value for the report rather than judge the run. */
const RECORDED = /^(max|rate|count)>=0$/;

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
  /** @type {Record<string, Record<string, unknown> | null>} */
  const facts = {};
  const setupTargets = summary.setup && summary.setup.targets ? summary.setup.targets : {};
  for (const target of layout.targets) {
    facts[target.name] = setupTargets[target.name] ? setupTargets[target.name].facts : null;
  }

  /** @type {Verdict[]} */
  const verdicts = layout.loads.map((load) => judge(metrics, load, facts[load.target], layout.rule));

  /** @type {ProbeRow[]} */
  const probeRows = [];
  for (const target of layout.targets) {
    const windows = ['baseline', ...layout.loads.filter((l) => l.target === target.name).map((l) => l.phase)];
    for (const window of windows) {
      for (const route of layout.probes.filter((p) => p.target === target.name)) {
        probeRows.push({ target: target.name, phase: window, probe: route.path,
          latency: latency(metrics, probeLatencyKey(target.name, window, route.probe)),
          over: over(metrics, target.name, window, route.probe) });
      }
    }
  }

  // The rule's probe per event loop, in every load window: loops that served no probe have no row.
  const ruleProbe = layout.probes.find((p) => p.probe === layout.rule.probe);
  const rulePath = ruleProbe ? ruleProbe.path : '';
  /** @type {EventLoopRow[]} */
  const eventLoopRows = [];
  /** @type {EventLoopSpread[]} */
  const spread = [];
  for (const load of ruleProbe ? layout.loads : []) {
    const rows = [];
    for (const eventLoop of eventLoopTags(layout)) {
      const l = latency(metrics, probeWaitKey(load.target, load.phase, layout.rule.probe, eventLoop));
      if (l && l.count) {
        rows.push({ target: load.target, phase: load.phase, probe: rulePath,
          eventLoop, latency: l, over: over(metrics, load.target, load.phase, layout.rule.probe, eventLoop) });
      }
    }
    eventLoopRows.push(...rows);
    const info = facts[load.target];
    const served = info ? info.eventLoops : undefined;
    const numbered = rows.filter((r) => r.eventLoop !== OTHER_EVENT_LOOP);
    const past = rows.find((r) => r.eventLoop === OTHER_EVENT_LOOP);
    const byP50 = numbered.filter((r) => r.latency.p50 !== undefined).sort((a, b) => Number(a.latency.p50) - Number(b.latency.p50));
    spread.push({ target: load.target, phase: load.phase, sampled: numbered.map((r) => r.eventLoop),
      eventLoops: typeof served === 'number' ? served : undefined, past: past ? Number(past.latency.count) : 0,
      fastest: byP50[0], slowest: byP50[byP50.length - 1] });
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
  } else if (eventLoopRows.length === 0 && layout.loads.length > 0) {
    notes.push('No probe answer named its event loop (eventLoop): the probes are not broken down by event loop.');
  }
  for (const s of spread.filter((s) => s.sampled.length + s.past > 0)) {
    if (s.eventLoops !== undefined && s.sampled.length < Math.min(s.eventLoops, layout.eventLoops)) {
      notes.push(`${s.target} / ${s.phase}: the probes reached ${s.sampled.length} of the ${s.eventLoops} event loops.`);
    }
    if (s.past > 0) {
      notes.push(`${s.target} / ${s.phase}: ${s.past} probes came through event loops past EVENT_LOOPS (${layout.eventLoops}), `
        + `counted as '${OTHER_EVENT_LOOP}': set EVENT_LOOPS to the service's event loops.`);
    }
  }

  /** @type {Model} */
  const model = { layout: layout.kind, rule: Object.assign({ text: describeRule(layout.rule) }, layout.rule),
    latencyBoundMs: layout.latencyBoundMs, targets: layout.targets, facts, verdicts, probes: probeRows,
    eventLoops: eventLoopRows, eventLoopSpread: spread,
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
 * The plan's rule: a probe whose percentile was `loadedMs` during a load, and `baselineMs` on the
 * same server idle, starved. The Java runner's StarvationRule judges the same way, and both are
 * tested on fixtures/starvation-rule-cases.json.
 *
 * @param {import('./lib-config.js').StarvationRule} rule
 * @param {number} loadedMs
 * @param {number} baselineMs
 */
export function isStarved(rule, loadedMs, baselineMs) {
  return loadedMs >= starvedFromMs(rule, baselineMs);
}

/**
 * The wait from which a load counts as starving, on a server whose idle probe took `baselineMs`.
 *
 * @param {import('./lib-config.js').StarvationRule} rule
 * @param {number} baselineMs
 */
export function starvedFromMs(rule, baselineMs) {
  return Math.max(rule.baselineFactor * Math.max(baselineMs, 0), rule.minimumMillis);
}

/**
 * The rule in words, as the Java runner's report states it.
 *
 * @param {import('./lib-config.js').StarvationRule} rule
 */
export function describeRule(rule) {
  return `starved when /probe/${rule.probe}'s ${percentileName(rule)} is at least ${rule.baselineFactor}x its baseline `
    + `on the same JVM and at least ${rule.minimumMillis} ms`;
}

/** @param {import('./lib-config.js').StarvationRule} rule */
function percentileName(rule) {
  return `p${rule.percentile}`;
}

/**
 * @param {Record<string, SummaryMetric>} metrics
 * @param {import('./lib-config.js').Load} load
 * @param {Record<string, unknown> | null} info
 * @param {import('./lib-config.js').StarvationRule} rule
 * @returns {Verdict}
 */
function judge(metrics, load, info, rule) {
  const { expected, reason } = expectedOutcome(load.mode, info);
  const during = metrics[probeLatencyKey(load.target, load.phase, rule.probe)];
  const before = metrics[probeLatencyKey(load.target, 'baseline', rule.probe)];
  const loadedMs = during && during.values.count ? during.values[ruleStat(rule)] : undefined;
  // No baseline (BASELINE_SECONDS=0, or no answer): the floor alone decides.
  const baselineMs = before && before.values.count ? before.values[ruleStat(rule)] : undefined;
  const completed = count(metrics, workKey(WORK_COMPLETED, load.target, load.phase));
  const starvedFrom = starvedFromMs(rule, baselineMs === undefined ? 0 : baselineMs);
  let observed;
  if (expected === 'unavailable' && !completed) {
    observed = 'skipped';
  } else if (loadedMs === undefined) {
    observed = 'no data';
  } else {
    observed = isStarved(rule, loadedMs, baselineMs === undefined ? 0 : baselineMs) ? 'starved' : 'held';
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
    statistic: percentileName(rule), loadedMs, baselineMs, starvedFromMs: starvedFrom };
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
  return { p10: v['p(10)'], p50: v.med !== undefined ? v.med : v['p(50)'], p90: v['p(90)'], p99: v['p(99)'], max: v.max,
    count: v.count };
}

/**
 * The shares of probes over each of SLOW_PROBE_SECONDS.
 *
 * @param {Record<string, SummaryMetric>} metrics
 * @param {string} target
 * @param {string} window
 * @param {string} probe
 * @param {string} [eventLoop]
 * @returns {Over}
 */
function over(metrics, target, window, probe, eventLoop) {
  /** @type {Over} */
  const shares = {};
  for (const seconds of SLOW_PROBE_SECONDS) {
    const metric = metrics[probeOverKey(seconds, target, window, probe, eventLoop)];
    shares[seconds] = metric && (metric.values.passes || 0) + (metric.values.fails || 0) > 0 ? metric.values.rate : undefined;
  }
  return shares;
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

/** @param {number | undefined} share */
function percent(share) {
  return share === undefined ? 'n/a' : `${(share * 100).toFixed(1)}%`;
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
 */
function verdictSentence(verdict, layout) {
  const where = layout.kind === 'two-targets' ? verdict.target : `${verdict.target} / ${verdict.phase}`;
  const why = verdict.reason.charAt(0).toUpperCase() + verdict.reason.slice(1);
  if (verdict.observed === 'skipped' || verdict.observed === 'no data') {
    return `${where}: ${verdict.outcome} under /work/${verdict.mode}. ${why}.`;
  }
  const rule = layout.rule;
  const relation = verdict.observed === 'starved' ? '≥' : '<';
  const from = verdict.baselineMs === undefined
    ? `no baseline, so the floor alone: ${rule.minimumMillis} ms`
    : `${rule.baselineFactor}x its baseline ${ms(verdict.baselineMs)} ms, at least ${rule.minimumMillis} ms`;
  return `${where}: ${verdict.outcome} under /work/${verdict.mode}: /probe/${rule.probe} ${verdict.statistic} ${ms(verdict.loadedMs)} ms `
    + `${relation} ${ms(verdict.starvedFromMs)} ms (${from}). ${why}.`;
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
  lines.push(`The rule (plan.json): ${model.rule.text}. Probes that must not starve: p99 < ${model.latencyBoundMs} ms. `
    + `Run time: ${model.runSeconds === undefined ? 'n/a' : `${model.runSeconds.toFixed(1)} s`}. `
    + `Thresholds: ${passed} of ${model.thresholds.length} as expected.`, '');

  lines.push('## Verdict', '');
  for (const verdict of model.verdicts) {
    lines.push(`- ${verdictSentence(verdict, layout)}`);
  }
  for (const note of model.notes) {
    lines.push(`- Note: ${note}`);
  }
  lines.push('');

  lines.push('## The JVMs (/lab/info)', '');
  lines.push('| target | URL | Java | processors | carriers (parallelism / max pool) | LockingMode | synchronized pins | native pin | permits | pool max | event loops |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const target of model.targets) {
    const f = model.facts[target.name];
    lines.push(f
      ? `| ${target.name} | ${target.url} | ${fact(f.javaVersion)} (${fact(f.javaVendor)}) | ${fact(f.availableProcessors)} | `
        + `${fact(f.carrierParallelism)} / ${fact(f.carrierMaxPoolSize)} | ${fact(f.lockingMode)} | ${fact(f.synchronizedPins)} | `
        + `${fact(f.nativePinAvailable)} | ${fact(f.downstreamPermits)} ${fact(f.permits)} | ${fact(f.poolMaxSize)} | ${fact(f.eventLoops)} |`
      : `| ${target.name} | ${target.url} | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a |`);
  }
  lines.push('');

  const overHeads = SLOW_PROBE_SECONDS.map((s) => `over ${s} s`);
  lines.push('## Probe wait (ms)', '');
  lines.push(`| target | phase | probe | p10 | p50 | p90 | p99 | max | ${overHeads.join(' | ')} | requests |`);
  lines.push(`|---|---|---|---:|---:|---:|---:|---:|${overHeads.map(() => '---:|').join('')}---:|`);
  for (const row of model.probes) {
    lines.push(`| ${row.target} | ${row.phase} | ${row.probe} | ${distribution(row.latency, row.over).join(' | ')} |`);
  }
  lines.push('');

  lines.push(`## /probe/${model.rule.probe} per event loop (ms)`, '');
  lines.push('Each probe VU keeps one connection, and the service serves a connection on one event loop: '
    + 'the rows show how the wait differs with the event loop a probe came through.', '');
  if (model.eventLoops.length === 0) {
    lines.push('No probe answer named its event loop.');
  } else {
    for (const s of model.eventLoopSpread) {
      lines.push(`- ${spreadSentence(s)}.`);
    }
    lines.push('', `| target | phase | event loop | p10 | p50 | p90 | p99 | max | ${overHeads.join(' | ')} | requests |`);
    lines.push(`|---|---|---|---:|---:|---:|---:|---:|${overHeads.map(() => '---:|').join('')}---:|`);
    for (const row of model.eventLoops) {
      lines.push(`| ${row.target} | ${row.phase} | ${row.eventLoop} | ${distribution(row.latency, row.over).join(' | ')} |`);
    }
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

  const judging = model.thresholds.filter((t) => !RECORDED.test(t.expression));
  const stat = ruleStat(model.rule);
  lines.push('## Thresholds', '');
  lines.push('Each threshold states the expected outcome, so ✓ means "as expected": '
    + `\`${stat}>=${model.rule.minimumMillis}\` and \`${stat}<${model.rule.minimumMillis}\` /probe/${model.rule.probe} starving `
    + 'or not by the rule\'s floor (a threshold cannot see the baseline: the verdict above applies the whole rule), '
    + `\`p(99)<${model.latencyBoundMs}\` a probe that must not starve staying under the latency bound. `
    + `${model.thresholds.length - judging.length} more (\`max>=0\`, \`rate>=0\`, \`count>=0\`) record values for this report.`, '');
  for (const t of judging) {
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
    + `${model.rule.text}`, '');
  for (const verdict of model.verdicts) {
    lines.push(`  ${verdictSentence(verdict, layout)}`);
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
  const columns = ['p10', 'p50', 'p90', 'p99', 'max', ...SLOW_PROBE_SECONDS.map((s) => `>${s}s`), 'n'];
  lines.push('', `  ${pad('probe wait (ms)', 44)}${columns.map((c) => pad(c, 8)).join('')}`);
  for (const row of model.probes) {
    lines.push(`  ${pad(row.target, 9)}${pad(row.phase, 16)}${pad(row.probe, 19)}${distribution(row.latency, row.over).map((c) => pad(c, 8)).join('')}`);
  }
  if (model.eventLoops.length > 0) {
    lines.push('', `  /probe/${model.rule.probe} per event loop (report.md has each one's distribution)`);
    for (const s of model.eventLoopSpread) {
      lines.push(`  ${spreadSentence(s)}`);
    }
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
 * How many event loops a window's probes reached, and the fastest and slowest of them.
 *
 * @param {EventLoopSpread} s
 */
function spreadSentence(s) {
  return `${s.target} / ${s.phase}: ${s.sampled.length}${s.eventLoops === undefined ? '' : ` of ${s.eventLoops}`} event loops sampled`
    + (s.fastest && s.slowest ? `; p50 from ${ms(s.fastest.latency.p50)} ms (event loop ${s.fastest.eventLoop}) `
      + `to ${ms(s.slowest.latency.p50)} ms (event loop ${s.slowest.eventLoop})` : '');
}

/**
 * A distribution's cells: p10, p50, p90, p99, max, the shares over 1 s and 3 s, the count.
 *
 * @param {Latency | undefined} l
 * @param {Over} shares
 */
function distribution(l, shares) {
  return [ms(l && l.p10), ms(l && l.p50), ms(l && l.p90), ms(l && l.p99), ms(l && l.max),
    ...SLOW_PROBE_SECONDS.map((s) => percent(shares[s])), l && l.count !== undefined ? String(l.count) : 'n/a'];
}

/**
 * @param {string} value
 * @param {number} width
 */
function pad(value, width) {
  return value.length >= width ? `${value} ` : value + ' '.repeat(width - value.length);
}
