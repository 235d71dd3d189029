// The thresholds that state the expected outcome, and the sub-metric names the report reads.
// k6 puts a tag-filtered sub-metric in the end-of-test summary only when a threshold names it, so
// every sub-metric the report needs is named here, through the same key builders the report uses.

import { eventLoopTags, expectationOf } from './lib-config.js';

/** Custom metrics (defined in lib-probes.js and lib-work.js). */
export const PROBE_ERRORS = 'probe_errors';
export const PROBE_WAIT = 'probe_wait';
export const WORK_COMPLETED = 'work_completed';
export const WORK_OVERLOADED = 'work_overloaded';
export const WORK_ERRORS = 'work_errors';

/** The waits whose share of probes the report gives: over 1 s and over 3 s. */
export const SLOW_PROBE_SECONDS = [1, 3];

/** Trend stats in the summary: the report reads p(10), med (p50), p(90), p(99), max and count. */
export const SUMMARY_TREND_STATS = ['min', 'p(10)', 'med', 'avg', 'p(90)', 'p(95)', 'p(99)', 'max', 'count'];

/**
 * The summary's trend stat for the rule's percentile: k6 names the median 'med'.
 *
 * @param {import('./lib-config.js').StarvationRule} rule
 */
export function ruleStat(rule) {
  return rule.percentile === 50 ? 'med' : `p(${rule.percentile})`;
}

/**
 * SUMMARY_TREND_STATS, and the rule's stat if it is not among them.
 *
 * @param {import('./lib-config.js').StarvationRule} rule
 */
export function summaryTrendStats(rule) {
  const stat = ruleStat(rule);
  return SUMMARY_TREND_STATS.includes(stat) ? SUMMARY_TREND_STATS : [...SUMMARY_TREND_STATS, stat];
}

/**
 * The Rate metric of probes that waited longer than `seconds`.
 *
 * @param {number} seconds
 */
export function probeOverMetric(seconds) {
  return `probe_over_${seconds}s`;
}

/**
 * @param {string} target
 * @param {string} window
 * @param {string} probe
 */
export function probeLatencyKey(target, window, probe) {
  return `http_req_duration{probe:${probe},target:${target},phase:${window}}`;
}

/**
 * The share of probes over `seconds`, per target, window and probe, or per event loop too.
 *
 * @param {number} seconds
 * @param {string} target
 * @param {string} window
 * @param {string} probe
 * @param {string} [eventLoop]
 */
export function probeOverKey(seconds, target, window, probe, eventLoop) {
  return `${probeOverMetric(seconds)}{${probeTags(target, window, probe, eventLoop)}}`;
}

/**
 * The wait of the probes one event loop served (probe_wait carries the event_loop tag).
 *
 * @param {string} target
 * @param {string} window
 * @param {string} probe
 * @param {string} eventLoop
 */
export function probeWaitKey(target, window, probe, eventLoop) {
  return `${PROBE_WAIT}{${probeTags(target, window, probe, eventLoop)}}`;
}

/**
 * @param {string} target
 * @param {string} window
 * @param {string} probe
 * @param {string} [eventLoop]
 */
function probeTags(target, window, probe, eventLoop) {
  return `probe:${probe},target:${target},phase:${window}${eventLoop === undefined ? '' : `,event_loop:${eventLoop}`}`;
}

/**
 * @param {string} target
 * @param {string} window
 */
export function probeErrorsKey(target, window) {
  return `${PROBE_ERRORS}{target:${target},phase:${window}}`;
}

/**
 * @param {string} target
 * @param {string} window
 */
export function workLatencyKey(target, window) {
  return `http_req_duration{kind:work,target:${target},phase:${window}}`;
}

/**
 * @param {string} metric one of WORK_COMPLETED, WORK_OVERLOADED, WORK_ERRORS
 * @param {string} target
 * @param {string} window
 */
export function workKey(metric, target, window) {
  return `${metric}{target:${target},phase:${window}}`;
}

/**
 * The threshold layout. Each threshold reads as the expected outcome, so ✓ means "as expected":
 *   med>=F / med<F  the rule's probe (virtual) starves / holds, F the rule's minimumMillis, on the
 *             rule's percentile (med for 50). A threshold cannot see the baseline, so it states
 *             the rule's floor only; the report applies the whole rule (F and baselineFactor × the
 *             baseline), and its verdict is the one that counts.
 *   p(99)<B   a latency bound, not the starvation rule: every other probe must stay under it
 *             (B = PROBE_P99_MS) unless the work shares its threads
 *   max>=0 / rate>=0 / count>=0
 *             recorded for the report only: the outcome depends on the JVM (judged in report.md
 *             against /lab/info), or the value is informative (503s under overload, the probe
 *             distribution: shares over 1 s and 3 s, per event loop)
 * None aborts the run: the breach is the result, reported at the end.
 *
 * @param {import('./lib-config.js').Layout} layout
 * @returns {Record<string, import('k6/options').Threshold[]>}
 */
export function thresholdsFor(layout) {
  const rule = layout.rule;
  const starves = expect(`${ruleStat(rule)}>=${rule.minimumMillis}`);
  const ruleHolds = expect(`${ruleStat(rule)}<${rule.minimumMillis}`);
  const withinBound = expect(`p(99)<${layout.latencyBoundMs}`);
  const recorded = expect('max>=0');
  /** @type {Record<string, import('k6/options').Threshold[]>} */
  const thresholds = {};
  /**
   * k6 puts the shares over 1 s and 3 s in the summary only when a threshold names them.
   *
   * @param {string} target
   * @param {string} window
   * @param {string} probe
   * @param {string} [eventLoop]
   */
  const recordShares = (target, window, probe, eventLoop) => {
    for (const seconds of SLOW_PROBE_SECONDS) {
      thresholds[probeOverKey(seconds, target, window, probe, eventLoop)] = [expect('rate>=0')];
    }
  };

  for (const target of layout.targets) {
    for (const route of layout.probes.filter((p) => p.target === target.name)) {
      thresholds[probeLatencyKey(target.name, 'baseline', route.probe)] = [route.probe === rule.probe ? ruleHolds : withinBound];
      recordShares(target.name, 'baseline', route.probe);
    }
    thresholds[probeErrorsKey(target.name, 'baseline')] = [expect('rate<0.01')];
  }

  for (const load of layout.loads) {
    const expected = expectationOf(layout, load);
    for (const route of layout.probes.filter((p) => p.target === load.target)) {
      const key = probeLatencyKey(load.target, load.phase, route.probe);
      if (route.probe === rule.probe) {
        thresholds[key] = [expected === 'starve' ? starves : expected === 'hold' ? ruleHolds : recorded];
        for (const eventLoop of eventLoopTags(layout)) {
          thresholds[probeWaitKey(load.target, load.phase, route.probe, eventLoop)] = [recorded];
          recordShares(load.target, load.phase, route.probe, eventLoop);
        }
      } else if (sharesThreadsWithWork(load.mode, route.probe)) {
        // cpu burns the cores every thread runs on; platform work shares the worker pool.
        thresholds[key] = [recorded];
      } else {
        thresholds[key] = [withinBound];
      }
      recordShares(load.target, load.phase, route.probe);
    }
    thresholds[probeErrorsKey(load.target, load.phase)] = [expected === 'starve' ? expect('rate>=0') : expect('rate<0.01')];
    // native answers 501 without FFM (JDK 21): its load is skipped there, so it may complete nothing.
    thresholds[workKey(WORK_COMPLETED, load.target, load.phase)] = [load.mode === 'native' ? expect('count>=0') : expect('count>0')];
    thresholds[workKey(WORK_OVERLOADED, load.target, load.phase)] = [expect('rate>=0')];
    thresholds[workKey(WORK_ERRORS, load.target, load.phase)] = [expect('rate<0.01')];
    thresholds[workLatencyKey(load.target, load.phase)] = [recorded];
  }
  // Probe iterations k6 could not start (every probe VU busy): the latencies are then a lower bound.
  thresholds.dropped_iterations = [expect('count>=0')];
  return thresholds;
}

/**
 * @param {string} mode
 * @param {string} probe
 */
function sharesThreadsWithWork(mode, probe) {
  return mode === 'cpu' || (mode === 'platform' && probe === 'worker');
}

/**
 * A threshold that never aborts: k6 evaluates it at the end and reports it.
 *
 * @param {string} expression
 * @returns {import('k6/options').Threshold}
 */
function expect(expression) {
  return { threshold: expression, abortOnFail: false };
}
