// The thresholds that state the expected outcome, and the sub-metric names the report reads.
// k6 puts a tag-filtered sub-metric in the end-of-test summary only when a threshold names it, so
// every sub-metric the report needs is named here, through the same key builders the report uses.

import { expectationOf } from './lib-config.js';

/** Custom metrics (defined in lib-probes.js and lib-work.js). */
export const PROBE_ERRORS = 'probe_errors';
export const WORK_COMPLETED = 'work_completed';
export const WORK_OVERLOADED = 'work_overloaded';
export const WORK_ERRORS = 'work_errors';

/** Trend stats in the summary: the report reads med (p50), p(99) and max. */
export const SUMMARY_TREND_STATS = ['min', 'med', 'avg', 'p(90)', 'p(95)', 'p(99)', 'max', 'count'];

/**
 * @param {string} target
 * @param {string} window
 * @param {string} probe
 */
export function probeLatencyKey(target, window, probe) {
  return `http_req_duration{probe:${probe},target:${target},phase:${window}}`;
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
 *   p(99)<B   the probe holds (baseline, never-starving modes, every probe but the virtual one)
 *   p(99)>=B  the virtual probe starves: the demonstration (modes in STARVING_MODES)
 *   max>=0 / rate>=0 / count>=0
 *             recorded for the report only: the outcome depends on the JVM (judged in report.md
 *             against /lab/info), or the value is informative (503s under overload)
 * None aborts the run: the breach is the result, reported at the end.
 *
 * @param {import('./lib-config.js').Layout} layout
 * @returns {Record<string, import('k6/options').Threshold[]>}
 */
export function thresholdsFor(layout) {
  const bound = layout.boundMs;
  const holds = expect(`p(99)<${bound}`);
  const starves = expect(`p(99)>=${bound}`);
  /** @type {Record<string, import('k6/options').Threshold[]>} */
  const thresholds = {};

  for (const target of layout.targets) {
    for (const route of layout.probes.filter((p) => p.target === target.name)) {
      thresholds[probeLatencyKey(target.name, 'baseline', route.probe)] = [holds];
    }
    thresholds[probeErrorsKey(target.name, 'baseline')] = [expect('rate<0.01')];
  }

  for (const load of layout.loads) {
    const expected = expectationOf(layout, load);
    for (const route of layout.probes.filter((p) => p.target === load.target)) {
      const key = probeLatencyKey(load.target, load.phase, route.probe);
      if (route.probe === 'virtual') {
        thresholds[key] = [expected === 'starve' ? starves : expected === 'hold' ? holds : expect('max>=0')];
      } else if (sharesThreadsWithWork(load.mode, route.probe)) {
        // cpu burns the cores every thread runs on; platform work shares the worker pool.
        thresholds[key] = [expect('max>=0')];
      } else {
        thresholds[key] = [holds];
      }
    }
    thresholds[probeErrorsKey(load.target, load.phase)] = [expected === 'starve' ? expect('rate>=0') : expect('rate<0.01')];
    // native answers 501 without FFM (JDK 21): its load is skipped there, so it may complete nothing.
    thresholds[workKey(WORK_COMPLETED, load.target, load.phase)] = [load.mode === 'native' ? expect('count>=0') : expect('count>0')];
    thresholds[workKey(WORK_OVERLOADED, load.target, load.phase)] = [expect('rate>=0')];
    thresholds[workKey(WORK_ERRORS, load.target, load.phase)] = [expect('rate<0.01')];
    thresholds[workLatencyKey(load.target, load.phase)] = [expect('max>=0')];
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
