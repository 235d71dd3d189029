// The sentences and figures both renderers of the report use (report.md and stdout), so that they
// say the same thing in the same words.

import { endpointOf } from './lib-rules.js';
import { SLOW_PROBE_SECONDS } from './lib-thresholds.js';

/**
 * One window's verdict: what the starved rule saw against the prediction, then the untouched
 * probes, then whether the probes were complete and even.
 *
 * @param {import('./lib-report-model.js').Verdict} verdict
 * @param {import('./lib-report-model.js').Model} model
 */
export function verdictSentence(verdict, model) {
  const where = model.layout === 'two-targets' ? verdict.target : `${verdict.target} / ${verdict.phase}`;
  const why = verdict.why.charAt(0).toUpperCase() + verdict.why.slice(1);
  if (verdict.observed === 'skipped' || verdict.observed === 'no data') {
    return `${where}: ${verdict.outcome} under ${verdict.request}. ${why}.`;
  }
  const rule = model.rules.starved;
  const relation = verdict.observed === 'free' ? '<' : '≥';
  const from = verdict.baselineMs === undefined
    ? `no baseline, so the floor alone: ${rule.minimumMillis} ms`
    : `${rule.baselineFactor}x its baseline ${ms(verdict.baselineMs)} ms, at least ${rule.minimumMillis} ms`;
  const holds = ['starves', 'collapses'].includes(verdict.observed) || ['starves', 'collapses'].includes(verdict.expected);
  const throughput = verdict.perSecond === undefined ? '' : `; ${verdict.perSecond.toFixed(1)}/s`
    + (verdict.modelPerSecond === undefined || !holds ? '' : ` (carrier model ${verdict.modelPerSecond.toFixed(1)}/s)`);
  return `${where}: ${verdict.outcome} under ${verdict.request}${verdict.downstream ? ` (${verdict.downstream})` : ''}: `
    + `${endpointOf(rule)} ${verdict.statistic} `
    + `${ms(verdict.loadedMs)} ms ${relation} ${ms(verdict.starvedFromMs)} ms (${from})${throughput}. ${why}. `
    + `${untouchedSentence(verdict, model)} ${samplingSentence(verdict)}`;
}

/**
 * @param {import('./lib-report-model.js').Verdict} verdict
 * @param {import('./lib-report-model.js').Model} model
 */
function untouchedSentence(verdict, model) {
  const p = `p${model.rules.untouched.percentile}`;
  const touched = verdict.untouched.filter((u) => u.untouched === false);
  const figures = verdict.untouched.map((u) => `${u.probe} ${ms(u.ms)}${u.untouched === null ? ' (recorded: the work shares its threads)' : ''}`);
  return touched.length > 0
    ? `TOUCHED: ${touched.map((u) => `${u.probe} ${p} ${ms(u.ms)} ms`).join(', ')} ≥ ${model.rules.untouched.maximumMillis} ms (${p}: ${figures.join(', ')} ms).`
    : `Untouched (${p}): ${figures.join(', ')} ms.`;
}

/**
 * @param {import('./lib-report-model.js').Verdict} verdict
 */
function samplingSentence(verdict) {
  const s = verdict.sampling;
  const sent = s.complete ? `Probes: ${s.sent} sent in the window of ${Math.round(s.planned)} planned, none dropped`
    : `Probes INCOMPLETE: ${s.sent} sent in the window of ${Math.round(s.planned)} planned, and k6 dropped ${s.dropped} of this `
      + 'target\'s probes in the run (every probe VU busy): the latencies are a lower bound';
  const uneven = verdict.eventLoops.filter((c) => c.even === false);
  const judged = verdict.eventLoops.filter((c) => c.even !== null);
  if (uneven.length > 0) {
    return `${sent}; event loops UNEVEN: ${uneven.map((c) => `${c.probe} reached event loop${c.short.length > 1 ? 's' : ''} ${c.short.join(', ')} `
      + `fewer than ${c.leastAnswers === undefined ? 'n/a' : c.leastAnswers.toFixed(1)} times of ${c.total}`).join('; ')}.`;
  }
  return judged.length === 0 ? `${sent}; the answers name no event loop.`
    : `${sent}; every event loop reached evenly by ${judged.map((c) => c.probe).join(', ')}.`;
}

/**
 * How many event loops a window's probes reached, and the fastest and slowest of them.
 *
 * @param {import('./lib-report-model.js').EventLoopSpread} s
 */
export function spreadSentence(s) {
  return `${s.target} / ${s.phase}: ${s.sampled.length}${s.eventLoops === undefined ? '' : ` of ${s.eventLoops}`} event loops sampled`
    + (s.fastest && s.slowest ? `; p50 from ${ms(s.fastest.latency.p50)} ms (event loop ${s.fastest.eventLoop}) `
      + `to ${ms(s.slowest.latency.p50)} ms (event loop ${s.slowest.eventLoop})` : '');
}

/**
 * A distribution's cells: p10, p50, p90, p99, max, the shares over 1 s and 3 s, the count.
 *
 * @param {import('./lib-report-model.js').Latency | undefined} l
 * @param {import('./lib-report-model.js').Over} shares
 */
export function distribution(l, shares) {
  return [ms(l && l.p10), ms(l && l.p50), ms(l && l.p90), ms(l && l.p99), ms(l && l.max),
    ...SLOW_PROBE_SECONDS.map((s) => percent(shares[s])), l && l.count !== undefined ? String(l.count) : 'n/a'];
}

/** @param {number | undefined} value */
export function ms(value) {
  if (value === undefined || value === null || Number.isNaN(value)) {
    return 'n/a';
  }
  return value < 10 ? value.toFixed(1) : String(Math.round(value));
}

/** @param {number | undefined} share */
function percent(share) {
  return share === undefined ? 'n/a' : `${(share * 100).toFixed(1)}%`;
}

/** @param {import('./lib-report-model.js').Share | undefined} value */
export function pct(value) {
  if (!value) {
    return 'n/a';
  }
  return value.total === 0 ? '0 requests' : `${(value.rate * 100).toFixed(1)}% of ${value.total}`;
}

/** @param {unknown} value */
export function fact(value) {
  if (value === undefined || value === null) {
    return 'n/a';
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
