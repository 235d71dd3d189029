// The thresholds that state the expected outcome, and the sub-metric names the report reads.
// k6 puts a tag-filtered sub-metric in the end-of-test summary only when a threshold names it, so
// every sub-metric the report needs is named here, through the same key builders the report uses.

import { eventLoopTags } from './lib-probe-schedule.js';
import { predictForEveryJvm, sharesThreadsWith } from './lib-predictions.js';
import { statOf } from './lib-rules.js';

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
 * SUMMARY_TREND_STATS, and the rules' stats if they are not among them.
 *
 * @param {import('./lib-rules.js').Rules} rules
 */
export function summaryTrendStats(rules) {
  const extra = [statOf(rules.starved.percentile), statOf(rules.untouched.percentile)].filter((s) => !SUMMARY_TREND_STATS.includes(s));
  return [...SUMMARY_TREND_STATS, ...new Set(extra)];
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
 * Every probe sent counts here, answered or not: its total is the probes sent in the window.
 *
 * @param {string} target
 * @param {string} window
 * @param {string} probe
 */
export function probeErrorsKey(target, window, probe) {
  return `${PROBE_ERRORS}{${probeTags(target, window, probe)}}`;
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
 * The iterations a target's probe scenario could not start.
 *
 * @param {string} target
 */
export function droppedKey(target) {
  return `dropped_iterations{scenario:probe-${target}}`;
}

/**
 * The thresholds. Each threshold reads as the expected outcome, so ✓ means "as expected":
 *   med>=F / med<F  the starved rule's probe (virtual) starves / holds, F the rule's minimumMillis,
 *             on the rule's percentile (med for 50). A threshold cannot see the baseline, so it
 *             states the rule's floor only; the report applies the whole rule (F and
 *             baselineFactor × the baseline), and its verdict is the one that counts.
 *   p(99)<B   the untouched rule, whole: its probes stay under its bound B, unless the work shares
 *             their threads (sharesThreadsWith)
 *   rate<0.01 probes and work answered within the contract
 *   max>=0 / rate>=0 / count>=0
 *             recorded for the report only: the outcome depends on the JVM (judged in report.md
 *             against /lab/info), or the value is informative (503s under overload, the probe
 *             distribution: shares over 1 s and 3 s, per event loop, dropped probes)
 * None aborts the run: the breach is the result, reported at the end.
 *
 * @param {Pick<import('./lib-layout.js').Layout, 'targets' | 'loads' | 'probes' | 'rules'>} layout
 * @param {number} eventLoops the event loops the run breaks the probes down by (EVENT_LOOPS)
 * @returns {Record<string, import('k6/options').Threshold[]>}
 */
export function thresholdsFor({ targets, loads, probes, rules }, eventLoops) {
  const { starved, untouched } = rules;
  const starves = expect(`${statOf(starved.percentile)}>=${starved.minimumMillis}`);
  const holds = expect(`${statOf(starved.percentile)}<${starved.minimumMillis}`);
  const stays = expect(`${statOf(untouched.percentile)}<${untouched.maximumMillis}`);
  const recorded = expect('max>=0');
  /** @type {Record<string, import('k6/options').Threshold[]>} */
  const thresholds = {};

  /**
   * One window's thresholds for one target's probes; `load` is undefined in the baseline.
   *
   * @param {string} target
   * @param {string} window
   * @param {import('./lib-layout.js').Load} [load]
   */
  const probeWindow = (target, window, load) => {
    const expected = load ? load.expected : 'free';
    for (const route of probes.filter((p) => p.target === target)) {
      const key = probeLatencyKey(target, window, route.probe);
      let answersInTime = expect('rate<0.01');
      if (route.probe === starved.probe) {
        thresholds[key] = [expected === 'starves' ? starves : expected === 'free' ? holds : recorded];
        // a starving probe may meet its deadline (503)
        answersInTime = expected === 'free' ? answersInTime : expect('rate>=0');
      } else if (untouched.probes.includes(route.probe) && !(load && sharesThreadsWith(load.mode, route.probe))) {
        thresholds[key] = [stays];
      } else {
        thresholds[key] = [recorded];
      }
      thresholds[probeErrorsKey(target, window, route.probe)] = [answersInTime];
      for (const seconds of SLOW_PROBE_SECONDS) {
        thresholds[probeOverKey(seconds, target, window, route.probe)] = [expect('rate>=0')];
      }
      // Every probe's answers per event loop (the even sampling is judged on them); the rule's
      // probe's distribution per event loop too.
      for (const eventLoop of eventLoopTags(eventLoops)) {
        thresholds[probeWaitKey(target, window, route.probe, eventLoop)] = [recorded];
        if (route.probe === starved.probe && load) {
          for (const seconds of SLOW_PROBE_SECONDS) {
            thresholds[probeOverKey(seconds, target, window, route.probe, eventLoop)] = [expect('rate>=0')];
          }
        }
      }
    }
  };

  for (const target of targets) {
    probeWindow(target.name, 'baseline');
    thresholds[droppedKey(target.name)] = [expect('count>=0')];
  }
  for (const load of loads) {
    probeWindow(load.target, load.phase, load);
    // Work that may not run (native without FFM idles) or may collapse can complete nothing; your
    // own service's load reaches it.
    const certain = Boolean(load.request) || ['starves', 'free'].includes(predictForEveryJvm(load.mode, load.downstream));
    thresholds[workKey(WORK_COMPLETED, load.target, load.phase)] = [expect(certain ? 'count>0' : 'count>=0')];
    thresholds[workKey(WORK_OVERLOADED, load.target, load.phase)] = [expect('rate>=0')];
    thresholds[workKey(WORK_ERRORS, load.target, load.phase)] = [expect('rate<0.01')];
    thresholds[workLatencyKey(load.target, load.phase)] = [recorded];
  }
  return thresholds;
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
