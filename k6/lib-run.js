// The k6 run a layout makes, the same for the lab's (starvation.js) and your own service's
// (own-service.js): its options, setup()'s stop or go, the scenarios' requests and handleSummary.

import exec from 'k6/execution';
import { arrivalRateOf, probeScheduleOf, probeVusFor, routeAt, windowAt } from './lib-probe-schedule.js';
import { sendProbe } from './lib-probes.js';
import { renderMarkdown } from './lib-report-markdown.js';
import { buildModel } from './lib-report-model.js';
import { renderText } from './lib-report-text.js';
import { summaryTrendStats, thresholdsFor } from './lib-thresholds.js';
import { sendWork } from './lib-work.js';

/**
 * @typedef {{ targets: Record<string, { url: string, facts: Record<string, unknown> | null }> }} SetupData
 *   each target's /lab/info facts (null: it has none)
 * @typedef {{ ok: true, facts: Record<string, unknown> | null } | { ok: false, reason: string }} Seen
 *   what setup() saw of a target (lib-probes.js inspectTarget, inspectService)
 */

/**
 * k6's options for a layout, each load scenario's load, the scenarios' requests, setup()'s check of a
 * target and handleSummary.
 *
 * @param {import('./lib-layout.js').Layout} layout
 * @param {import('./lib-knobs.js').RunKnobs} knobs
 * @param {import('./lib-work.js').RequestFunction | null} yours LOAD_MODULE's request(), for the load's own request as a probe
 */
export function runOf(layout, knobs, yours) {
  const { eventLoops, probeTimeoutMs } = knobs;
  const totalSeconds = layout.windows[layout.windows.length - 1].end;
  /** @type {Record<string, ReturnType<typeof probeScheduleOf>>} */
  const schedules = {};
  /** @type {Record<string, import('k6/options').Scenario>} */
  const scenarios = {};
  for (const target of layout.targets) {
    const routes = layout.probes.filter((p) => p.target === target.name);
    schedules[routes[0].scenario] = probeScheduleOf(routes);
    // Every VU a probe may hold until it times out is there from the start (probeVusFor): k6 drops
    // an iteration when no VU is idle, and a VU it starts mid-run comes too late for it.
    const vus = probeVusFor(routes, probeTimeoutMs);
    scenarios[routes[0].scenario] = Object.assign({
      executor: /** @type {const} */ ('constant-arrival-rate'),
      exec: 'probe',
      duration: `${totalSeconds}s`,
      preAllocatedVUs: vus,
      maxVUs: vus,
      tags: { kind: 'probe', target: target.name },
    }, arrivalRateOf(routes));
  }

  /** @type {Record<string, import('./lib-layout.js').Load>} */
  const loads = {};
  for (const load of layout.loads) {
    loads[load.scenario] = load;
    const common = {
      exec: 'load',
      startTime: `${load.start}s`,
      // Iterations still running when the window ends get the drain gap, then stop: none spills
      // into the next phase.
      gracefulStop: `${load.drainSeconds}s`,
      tags: { kind: 'work', target: load.target, phase: load.phase },
    };
    scenarios[load.scenario] = load.rate > 0
      ? Object.assign({ executor: /** @type {const} */ ('constant-arrival-rate'), rate: load.rate, timeUnit: '1s',
        duration: `${load.seconds}s`, preAllocatedVUs: load.vus, maxVUs: load.maxVus }, common)
      : Object.assign({ executor: /** @type {const} */ ('constant-vus'), vus: load.vus, duration: `${load.seconds}s` }, common);
  }

  /** @type {import('k6/options').Options} */
  const options = {
    scenarios,
    // Only the init context k6 reads the options from (VU 0) builds the thresholds: a VU that probes
    // does not need them, and 2,000 VUs each building them take seconds to start.
    thresholds: __VU === 0 ? thresholdsFor(layout, eventLoops) : {},
    summaryTrendStats: summaryTrendStats(layout.rules),
    // Keep-alive for the load, as k6's defaults; each probe asks for a new connection itself
    // (Connection: close, lib-probes.js).
    noConnectionReuse: false,
    noVUConnectionReuse: false,
    setupTimeout: '60s',
  };
  return {
    options,
    loads,
    /**
     * One probe request, to the endpoint the schedule gives this iteration for the target's event
     * loops; the phase tag follows the run's clock.
     *
     * @param {SetupData} data
     */
    probe(data) {
      const schedule = schedules[exec.scenario.name];
      const facts = data && data.targets[schedule.routes[0].target] ? data.targets[schedule.routes[0].target].facts : null;
      const served = facts ? facts.eventLoops : undefined;
      const route = routeAt(schedule, exec.scenario.iterationInTest, typeof served === 'number' && served > 0 ? served : eventLoops);
      sendProbe(route, windowAt(layout.windows, (Date.now() - exec.scenario.startTime) / 1000), probeTimeoutMs, eventLoops, yours);
    },
    /** One request of a load. @param {import('./lib-layout.js').Load} load */
    work: (load) => sendWork(load, knobs.workTimeoutMs, yours),
    /**
     * In setup(): stops the run unless the target is ready, naming the knobs that point at it, and unless its JVM
     * sees CPUS processors (the carriers follow them, unless a flag sets their number); warns when
     * the service has more event loops than the run breaks down. Returns the target's facts.
     *
     * @param {Seen} seen
     * @param {import('./lib-layout.js').Target} target
     * @param {string} names the knobs that point at the target
     */
    ready(seen, target, names) {
      if (!seen.ok) {
        exec.test.abort(`${seen.reason}. Start the service, or point ${names} at it, then rerun.`);
        throw new Error(seen.reason);
      }
      const cpus = seen.facts ? seen.facts.availableProcessors : undefined;
      if (knobs.cpus !== null && typeof cpus === 'number' && cpus !== knobs.cpus) {
        const facts = /** @type {Record<string, unknown>} */ (seen.facts);
        const quota = typeof facts.cpuQuotaMicros === 'number' ? `a CPU quota of ${facts.cpuQuotaMicros}/${facts.cpuPeriodMicros} µs` : 'no CPU quota';
        const reason = `${target.name} target ${target.url}: its JVM sees ${cpus} processors (${quota}, ${facts.carrierParallelism} carriers), `
          + `not CPUS=${knobs.cpus}, the pod's CPU limit: where it sees no quota, the kubelet does not enforce CPU limits (cpuCFSQuota off), `
          + 'and the run would not measure the carriers it is about';
        exec.test.abort(`${reason}. Run on nodes that enforce the limit, or set CPUS to what the JVM sees.`);
        throw new Error(reason);
      }
      const served = seen.facts ? seen.facts.eventLoops : undefined;
      if (typeof served === 'number' && served > eventLoops) {
        console.warn(`${target.name}: the service has ${served} event loops, the run samples and breaks down `
          + `${eventLoops} (EVENT_LOOPS): set EVENT_LOOPS=${served}.`);
      }
      return seen.facts;
    },
    /**
     * REPORT_DIR/summary.json (k6's data plus the report's model), REPORT_DIR/report.md and stdout.
     *
     * @param {any} data
     */
    handleSummary(data) {
      const model = buildModel(data, layout, eventLoops);
      const dir = knobs.reportDir === '.' ? '' : `${knobs.reportDir.replace(/\/+$/, '')}/`;
      return {
        [`${dir}summary.json`]: JSON.stringify(Object.assign({}, data, { starvationLab: model }), null, 2),
        [`${dir}report.md`]: renderMarkdown(model),
        stdout: `${renderText(model)}\n  files: ${dir}summary.json, ${dir}report.md\n\n`,
      };
    },
  };
}
