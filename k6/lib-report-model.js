// The end-of-test report's model, from the handleSummary data: a verdict per load window (the
// plan's rules against the JVM's prediction), the probe distributions, how evenly the probes came
// through the event loops, work, errors and thresholds. The renderers (lib-report-markdown.js,
// lib-report-text.js) only format it; summary.json carries it as `starvationLab`.

import { OTHER_EVENT_LOOP, eventLoopTags } from './lib-probe-schedule.js';
import { COLLAPSE_BELOW, predict, sharesThreadsWith } from './lib-predictions.js';
import {
  describeEventLoopCoverage, describeStarved, describeUntouched, eventLoopCoverage, isStarved, isUntouched, starvedFromMs, statOf,
} from './lib-rules.js';
import {
  SLOW_PROBE_SECONDS, WORK_COMPLETED, WORK_ERRORS, WORK_OVERLOADED,
  droppedKey, probeErrorsKey, probeLatencyKey, probeOverKey, probeWaitKey, workKey, workLatencyKey,
} from './lib-thresholds.js';

/**
 * @typedef {Record<string, number>} Values
 * @typedef {{ type?: string, contains?: string, values: Values,
 *             thresholds?: Record<string, { ok: boolean }> }} SummaryMetric
 * @typedef {{ p10: number | undefined, p50: number | undefined, p90: number | undefined, p99: number | undefined,
 *             max: number | undefined, count: number | undefined }} Latency
 * @typedef {{ probe: string, ms: number | undefined, untouched: boolean | null }} UntouchedProbe
 *   untouched: null where the work shares the probe's threads (recorded, not judged) or it has no data
 * @typedef {{ sent: number, planned: number, dropped: number, complete: boolean }} Sampling
 *   sent: probes sent in the window (answered or not); planned: the probes' rates x the window;
 *   dropped: the probes of the target k6 could not start in the whole run (it counts them per
 *   scenario, not per window); complete: none dropped. A probe k6 starts late (k6 short of CPU) is
 *   sent, in the window its start falls in.
 * @typedef {{ target: string, window: string, probe: string, eventLoops: number | undefined,
 *             answers: Record<string, number>, total: number, leastAnswers: number | undefined,
 *             short: string[], judged: number, even: boolean | null }} Coverage
 *   even: every event loop of the target answered at least leastAnswers; null when not judged
 *   (the answers name no event loop, or /lab/info gives no count)
 * @typedef {{ target: string, phase: string, mode: string, downstream: string, request: string, expected: string, why: string,
 *             observed: string, agrees: boolean | null, outcome: string, statistic: string,
 *             loadedMs: number | undefined, baselineMs: number | undefined, starvedFromMs: number,
 *             perSecond: number | undefined, modelPerSecond: number | undefined,
 *             untouched: UntouchedProbe[], sampling: Sampling, eventLoops: Coverage[] }} Verdict
 *   request: the load (/work/{mode}, or your own request); expected: the prediction (lib-predictions.js)
 *   from the target's /lab/info, unknown for your own request or without /lab/info; observed: starves,
 *   collapses or free by the rules, skipped (not sent: the JVM cannot run it) or no data; agrees:
 *   null when there is no prediction to compare
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
 * @typedef {{ layout: string,
 *             rules: { starved: import('./lib-rules.js').StarvationRule & { text: string },
 *                      untouched: import('./lib-rules.js').UntouchedRule & { text: string },
 *                      eventLoops: { leastShare: number, text: string } },
 *             targets: import('./lib-layout.js').Target[], watched: string[],
 *             facts: Record<string, Record<string, unknown> | null>, verdicts: Verdict[], probes: ProbeRow[],
 *             coverage: Coverage[], eventLoops: EventLoopRow[], eventLoopSpread: EventLoopSpread[],
 *             work: WorkRow[], errors: ErrorRow[], thresholds: ThresholdResult[],
 *             droppedIterations: Record<string, number | undefined>, notes: string[], runSeconds: number | undefined }} Model
 */

/** Thresholds that record a value for the report rather than judge the run. */
export const RECORDED = /^(max|rate|count)>=0$/;

/**
 * @param {any} data the handleSummary argument
 * @param {Pick<import('./lib-layout.js').Layout, 'kind' | 'targets' | 'loads' | 'probes' | 'rules'>} layout
 * @param {number} eventLoops the event loops the run breaks the probes down by (EVENT_LOOPS)
 * @returns {Model}
 */
export function buildModel(data, { kind, targets, loads, probes, rules }, eventLoops) {
  const summary = readSummary(data);
  const metrics = summary.metrics;
  const routesOf = (/** @type {string} */ target) => probes.filter((p) => p.target === target);
  /** @type {Record<string, Record<string, unknown> | null>} */
  const facts = {};
  const setupTargets = summary.setup && summary.setup.targets ? summary.setup.targets : {};
  for (const target of targets) {
    facts[target.name] = setupTargets[target.name] ? setupTargets[target.name].facts : null;
  }

  /** @type {Coverage[]} */
  const coverage = [];
  /** @type {ProbeRow[]} */
  const probeRows = [];
  const breakdown = { leastShare: rules.leastEventLoopShare, eventLoops };
  for (const target of targets) {
    const info = facts[target.name];
    const served = info ? info.eventLoops : undefined;
    for (const window of ['baseline', ...loads.filter((l) => l.target === target.name).map((l) => l.phase)]) {
      for (const route of routesOf(target.name)) {
        probeRows.push({ target: target.name, phase: window, probe: route.path,
          latency: latency(metrics, probeLatencyKey(target.name, window, route.probe)),
          over: over(metrics, target.name, window, route.probe) });
        coverage.push(coverageOf(metrics, breakdown, route, window, typeof served === 'number' ? served : undefined));
      }
    }
  }

  const verdicts = loads.map((load) => Object.assign(judge(metrics, rules, load, facts[load.target]), {
    sampling: samplingOf(metrics, routesOf(load.target), load),
    eventLoops: coverage.filter((c) => c.target === load.target && c.window === load.phase),
  }));
  const { rows: eventLoopRows, spread } = eventLoopBreakdown(metrics, probes.find((p) => p.probe === rules.starved.probe), loads, facts, eventLoops);

  /** @type {ErrorRow[]} */
  const errorRows = [];
  for (const target of targets) {
    errorRows.push({ target: target.name, phase: 'baseline', probeErrors: probeErrors(metrics, routesOf(target.name), 'baseline'),
      overloaded: undefined, workErrors: undefined });
  }
  /** @type {WorkRow[]} */
  const workRows = [];
  for (const load of loads) {
    const completed = count(metrics, workKey(WORK_COMPLETED, load.target, load.phase));
    const overloaded = rate(metrics, workKey(WORK_OVERLOADED, load.target, load.phase));
    const workErrors = rate(metrics, workKey(WORK_ERRORS, load.target, load.phase));
    errorRows.push({ target: load.target, phase: load.phase, probeErrors: probeErrors(metrics, routesOf(load.target), load.phase),
      overloaded, workErrors });
    workRows.push({ target: load.target, phase: load.phase, mode: load.mode,
      request: load.request ? load.request.label : `/work/${load.mode}?ms=${load.ms}&downstream=${load.downstream}&lock=${load.lock}`,
      load: load.rate > 0 ? `${load.rate}/s` : `${load.vus} VUs`,
      completed, perSecond: completed === undefined ? undefined : completed / load.seconds,
      latency: latency(metrics, workLatencyKey(load.target, load.phase)), overloaded, workErrors });
  }
  const names = targets.map((t) => t.name);
  errorRows.sort((a, b) => names.indexOf(a.target) - names.indexOf(b.target));

  /** @type {Record<string, number | undefined>} */
  const dropped = {};
  for (const target of targets) {
    dropped[target.name] = count(metrics, droppedKey(target.name));
  }
  const notes = summary.notes.concat(notesOf(probeRows, eventLoopRows, spread, dropped, eventLoops));
  if (kind === 'own-service' && targets.some((t) => facts[t.name] === null)) {
    notes.push('The service has no /lab/info: its facts (Java, carriers, event loops) are unknown, no prediction is judged '
      + 'and there is no carrier model; the verdict is what the rules saw.');
  }

  return {
    layout: kind,
    rules: {
      starved: Object.assign({ text: describeStarved(rules.starved) }, rules.starved),
      untouched: Object.assign({ text: describeUntouched(rules.untouched) }, rules.untouched),
      eventLoops: { leastShare: rules.leastEventLoopShare, text: describeEventLoopCoverage(rules.leastEventLoopShare) },
    },
    targets,
    watched: routesOf(targets[0].name).map((p) => `${p.probe} (${p.path})`),
    facts, verdicts, probes: probeRows, coverage,
    eventLoops: eventLoopRows, eventLoopSpread: spread,
    work: workRows, errors: errorRows, thresholds: thresholdResults(metrics), droppedIterations: dropped, notes,
    runSeconds: summary.runMs === undefined ? undefined : summary.runMs / 1000,
  };
}

/**
 * One load window judged: the starved rule on its probe (and, where the prediction is a collapse
 * or the load starved, throughput against the carrier model), the untouched rule on its probes,
 * against the prediction from the target's /lab/info.
 *
 * @param {Record<string, SummaryMetric>} metrics
 * @param {import('./lib-rules.js').Rules} rules
 * @param {import('./lib-layout.js').Load} load
 * @param {Record<string, unknown> | null} info
 * @returns {Omit<Verdict, 'sampling' | 'eventLoops'>}
 */
function judge(metrics, rules, load, info) {
  const rule = rules.starved;
  const prediction = predictionOf(load, info);
  const during = metrics[probeLatencyKey(load.target, load.phase, rule.probe)];
  const before = metrics[probeLatencyKey(load.target, 'baseline', rule.probe)];
  const stat = statOf(rule.percentile);
  const loadedMs = during && during.values.count ? during.values[stat] : undefined;
  // No baseline (BASELINE_SECONDS=0, or no answer): the floor alone decides.
  const baselineMs = before && before.values.count ? before.values[stat] : undefined;
  const completed = count(metrics, workKey(WORK_COMPLETED, load.target, load.phase));
  const perSecond = completed === undefined ? undefined : completed / load.seconds;
  const modelPerSecond = carrierModel(load, info);

  let observed;
  if (prediction.outcome === '501' && !completed) {
    observed = 'skipped';
  } else if (loadedMs === undefined) {
    observed = 'no data';
  } else if (!isStarved(rule, loadedMs, baselineMs === undefined ? 0 : baselineMs)) {
    observed = 'free';
  } else {
    observed = perSecond !== undefined && modelPerSecond !== undefined && perSecond < COLLAPSE_BELOW * modelPerSecond ? 'collapses' : 'starves';
  }
  const comparable = prediction.outcome !== 'unknown' && observed !== 'no data';
  const agrees = comparable ? observed === prediction.outcome || (observed === 'skipped' && prediction.outcome === '501') : null;

  const untouched = rules.untouched.probes.map((probe) => {
    const metric = metrics[probeLatencyKey(load.target, load.phase, probe)];
    const ms = metric && metric.values.count ? metric.values[statOf(rules.untouched.percentile)] : undefined;
    return { probe, ms, untouched: ms === undefined || sharesThreadsWith(load.mode, probe) ? null : isUntouched(rules.untouched, ms) };
  });

  return {
    target: load.target, phase: load.phase, mode: load.mode, downstream: load.downstream,
    request: load.request ? load.request.label : `/work/${load.mode}`,
    expected: prediction.outcome, why: prediction.why, observed, agrees, outcome: outcomeOf(observed, prediction.outcome, agrees),
    statistic: `p${rule.percentile}`, loadedMs, baselineMs, starvedFromMs: starvedFromMs(rule, baselineMs === undefined ? 0 : baselineMs),
    perSecond, modelPerSecond, untouched,
  };
}

/**
 * Whether a load window's probes were all sent: the target's probes sent in it against their rates, and those k6 dropped.
 *
 * @param {Record<string, SummaryMetric>} metrics @param {import('./lib-layout.js').ProbeRoute[]} routes the target's
 * @param {import('./lib-layout.js').Load} load @returns {Sampling}
 */
function samplingOf(metrics, routes, load) {
  const dropped = count(metrics, droppedKey(load.target)) || 0;
  const sent = routes.reduce((sum, p) => sum + (rate(metrics, probeErrorsKey(load.target, load.phase, p.probe)) || { total: 0 }).total, 0);
  const planned = routes.reduce((sum, p) => sum + p.rate * load.seconds, 0);
  return { sent, planned, dropped, complete: dropped === 0 };
}

/**
 * What the load was predicted to do: the lab's /work modes from the target's /lab/info; nothing for
 * your own request, or without /lab/info.
 *
 * @param {import('./lib-layout.js').Load} load
 * @param {Record<string, unknown> | null} info
 * @returns {import('./lib-predictions.js').Prediction}
 */
function predictionOf(load, info) {
  if (load.request) {
    return { outcome: 'unknown', why: info
      ? 'the lab predicts only its own /work modes: no prediction of your request is judged'
      : 'the service has no /lab/info: its facts are unknown, and no prediction is judged' };
  }
  return info ? predict(load.mode, load.downstream, info) : { outcome: 'unknown', why: 'no /lab/info facts for this target' };
}

/**
 * The carrier model of a load that holds its carriers: carriers (or fewer clients, or permits) x 1000 / ms.
 * None for your own request, whose time per request the suite does not know.
 *
 * @param {import('./lib-layout.js').Load} load
 * @param {Record<string, unknown> | null} info
 */
function carrierModel(load, info) {
  const carriers = info ? info.carrierParallelism : undefined;
  if (typeof carriers !== 'number' || load.request) {
    return undefined;
  }
  const permits = info && info.permits && typeof info.permits === 'object'
    ? /** @type {Record<string, unknown>} */ (info.permits)[load.downstream] : undefined;
  const slots = Math.min(carriers, load.rate > 0 ? Infinity : load.vus, load.mode !== 'cpu' && typeof permits === 'number' ? permits : Infinity);
  const perSlot = 1000 / Math.max(load.ms, 1);
  return Math.min(slots * perSlot, load.rate > 0 ? load.rate : Infinity);
}

/**
 * @param {string} observed
 * @param {string} expected
 * @param {boolean | null} agrees
 */
function outcomeOf(observed, expected, agrees) {
  if (observed === 'no data') {
    return 'NO DATA';
  }
  const seen = observed === 'skipped' ? 'SKIPPED (501)' : observed.toUpperCase();
  if (agrees === null) {
    return seen;
  }
  return agrees ? `${seen}, as predicted` : `${seen}, predicted ${expected}`;
}

/**
 * How one probe's answers in a window came through the event loops (probe_wait's count per event_loop tag).
 *
 * @param {Record<string, SummaryMetric>} metrics
 * @param {{ leastShare: number, eventLoops: number }} breakdown the plan's least share, and EVENT_LOOPS
 * @param {import('./lib-layout.js').ProbeRoute} route
 * @param {string} window
 * @param {number | undefined} served the service's event loops, from /lab/info
 * @returns {Coverage}
 */
function coverageOf(metrics, breakdown, route, window, served) {
  const { target, probe } = route;
  /** @type {Record<string, number>} */
  const answers = {};
  for (const tag of eventLoopTags(breakdown.eventLoops)) {
    const l = latency(metrics, probeWaitKey(target, window, probe, tag));
    answers[tag] = l && l.count ? l.count : 0;
  }
  const judged = eventLoopCoverage(breakdown.leastShare, answers, served, breakdown.eventLoops);
  return { target, window, probe, eventLoops: served, answers, total: Object.values(answers).reduce((sum, n) => sum + n, 0),
    leastAnswers: judged ? judged.leastAnswers : undefined, short: judged ? judged.short : [], judged: judged ? judged.judged : 0,
    even: judged ? judged.short.length === 0 : null };
}

/**
 * The rule's probe per event loop, in every load window: loops that served no probe have no row.
 *
 * @param {Record<string, SummaryMetric>} metrics
 * @param {import('./lib-layout.js').ProbeRoute | undefined} route the starved rule's probe
 * @param {import('./lib-layout.js').Load[]} loads
 * @param {Record<string, Record<string, unknown> | null>} facts
 * @param {number} eventLoops EVENT_LOOPS
 */
function eventLoopBreakdown(metrics, route, loads, facts, eventLoops) {
  /** @type {EventLoopRow[]} */
  const rows = [];
  /** @type {EventLoopSpread[]} */
  const spread = [];
  if (route === undefined) {
    return { rows, spread };
  }
  const { probe, path } = route;
  for (const load of loads) {
    const windowRows = [];
    for (const eventLoop of eventLoopTags(eventLoops)) {
      const l = latency(metrics, probeWaitKey(load.target, load.phase, probe, eventLoop));
      if (l && l.count) {
        windowRows.push({ target: load.target, phase: load.phase, probe: path,
          eventLoop, latency: l, over: over(metrics, load.target, load.phase, probe, eventLoop) });
      }
    }
    rows.push(...windowRows);
    const info = facts[load.target];
    const served = info ? info.eventLoops : undefined;
    const numbered = windowRows.filter((r) => r.eventLoop !== OTHER_EVENT_LOOP);
    const past = windowRows.find((r) => r.eventLoop === OTHER_EVENT_LOOP);
    const byP50 = numbered.filter((r) => r.latency.p50 !== undefined).sort((a, b) => Number(a.latency.p50) - Number(b.latency.p50));
    spread.push({ target: load.target, phase: load.phase, sampled: numbered.map((r) => r.eventLoop),
      eventLoops: typeof served === 'number' ? served : undefined, past: past ? Number(past.latency.count) : 0,
      fastest: byP50[0], slowest: byP50[byP50.length - 1] });
  }
  return { rows, spread };
}

/**
 * @param {ProbeRow[]} probeRows
 * @param {EventLoopRow[]} eventLoopRows
 * @param {EventLoopSpread[]} spread one per load window
 * @param {Record<string, number | undefined>} dropped
 * @param {number} eventLoops EVENT_LOOPS
 */
function notesOf(probeRows, eventLoopRows, spread, dropped, eventLoops) {
  const notes = [];
  for (const [target, n] of Object.entries(dropped)) {
    if (n !== undefined && n > 0) {
      notes.push(`k6 dropped ${n} probe iterations on ${target}: every probe VU was busy; `
        + 'k6 counts them per run, so every window of the target says so in its verdict.');
    }
  }
  if (probeRows.every((row) => row.latency === undefined)) {
    notes.push('No probe sub-metrics in the summary: k6 creates them only for thresholds '
      + '(was it run with --no-thresholds?).');
  } else if (eventLoopRows.length === 0 && spread.length > 0) {
    notes.push('No probe answer named its event loop (eventLoop): the probes are not broken down by event loop.');
  }
  for (const s of spread.filter((x) => x.past > 0)) {
    notes.push(`${s.target} / ${s.phase}: ${s.past} probes came through event loops past EVENT_LOOPS (${eventLoops}), `
      + `counted as '${OTHER_EVENT_LOOP}': set EVENT_LOOPS to the service's event loops.`);
  }
  return notes;
}

/**
 * k6's handleSummary data (data.metrics[name].values, k6's default summary): anything else (the
 * --new-machine-readable-summary shape) has none of what the report reads, and the report says so.
 *
 * @param {any} data
 * @returns {{ metrics: Record<string, SummaryMetric>, setup: any, runMs: number | undefined, notes: string[] }}
 */
function readSummary(data) {
  if (data && data.metrics && typeof data.metrics === 'object' && !Array.isArray(data.metrics)) {
    return { metrics: data.metrics, setup: data.setup_data, notes: [], runMs: data.state ? data.state.testRunDurationMs : undefined };
  }
  return { metrics: {}, setup: undefined, runMs: undefined,
    notes: ['The summary is not k6\'s default one (data.metrics): run k6 without --new-machine-readable-summary for the report.'] };
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
 * The window's probe errors over every probe of the target.
 *
 * @param {Record<string, SummaryMetric>} metrics
 * @param {import('./lib-layout.js').ProbeRoute[]} routes the target's
 * @param {string} window
 * @returns {Share | undefined}
 */
function probeErrors(metrics, routes, window) {
  const shares = routes.map((p) => rate(metrics, probeErrorsKey(p.target, window, p.probe)));
  if (shares.every((s) => s === undefined)) {
    return undefined;
  }
  const total = shares.reduce((sum, s) => sum + (s ? s.total : 0), 0);
  const failed = shares.reduce((sum, s) => sum + (s ? s.rate * s.total : 0), 0);
  return { rate: total === 0 ? 0 : failed / total, total };
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
