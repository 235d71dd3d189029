// Starvation Lab: virtual-thread carrier starvation under load, seen through probes.
//
// Probes hit /probe/virtual, /probe/worker, /probe/event-loop and /q/health/live at a constant
// arrival rate from the start (phase:baseline) and through the load (phase:load, or the plan's
// phase name); the load hammers /work/{mode}. Only /probe/virtual shares the carriers with the
// work, so only it starves when the work holds its carrier. "Starved" is the plan's one rule
// (plan.json 'starved'), applied by the report; each probe answer names the event loop that
// served it, and the report breaks the starved probe down by event loop.
//
// Targets (one of):
//   PINNED_URL + UNPINNED_URL  two deployments side by side (Kubernetes: http://lab-pinned:8080 and
//                              http://lab-unpinned:8080); the same load on both at once
//   BASE_URL                   one service (default http://localhost:8080); the plan's default-JVM
//                              phases one after another, each its own load scenario
//
// Knobs (__ENV, default in brackets; "plan" means k6/plan.json, shared with the Java runner):
//   PINNED_MODE [pinned]       work mode on the pinned target (the default image runs JDK 21)
//   UNPINNED_MODE [unpinned]   work mode on the unpinned target
//   MS [plan: 100]             ?ms= of each work request, 0-30000
//   DOWNSTREAM [plan: sleep]   ?downstream=, db or sleep
//   LOCK [plan: private]       ?lock=, private or shared
//   LOAD_VUS [plan: 64]        concurrent work requests per target (closed model)
//   LOAD_RATE [unset]          work requests per second per target instead (open model)
//   LOAD_MAX_VUS [LOAD_VUS]    VU ceiling for LOAD_RATE
//   LOAD_SECONDS [plan: 6]     length of each load window
//   BASELINE_SECONDS [plan: 4] probes alone before the first load
//   DRAIN_SECONDS [plan: 2]    gap between two load windows (BASE_URL layout)
//   PHASES [all default-JVM]   comma-separated plan phases to run (BASE_URL layout)
//   QUICK [false]              true: the plan's quick settings (shorter, fewer phases)
//   PROBE_RATE [plan: 10]      requests per second per probe and target
//   EVENT_LOOPS [8]            the most event loops the report breaks down, and the least
//                              number of probe VUs (Quarkus serves HTTP on one event loop per
//                              CPU, at least 2; /lab/info says how many: eventLoops)
//   PROBE_VUS [41]             VUs, each with its own keep-alive connection, each probe scenario
//                              starts with: at least EVENT_LOOPS, sharing no factor with the
//                              number of probe endpoints (default: a second of probes, made so)
//   PROBE_MAX_VUS [200]        VU ceiling per probe scenario (starved probes hold VUs)
//   PROBE_TIMEOUT_MS [plan: 30000]  probe request timeout
//   WORK_TIMEOUT_MS [60000]    work request timeout
//   PROBE_P99_MS [200]         latency bound of the probes that must not starve (every probe
//                              but the rule's, unless the work shares its threads); not the rule
//   STARVING_MODES [PINNED_MODE, or cpu with BASE_URL]  modes whose load is expected to starve
//                              /probe/virtual by the plan's rule (with two targets: on the
//                              pinned one); modes that never hold a carrier (unpinned, reentrant,
//                              platform) are expected not to; the rest are recorded and judged
//                              in report.md against /lab/info
//   REPORT_DIR [.]             where handleSummary writes summary.json and report.md
//
//   k6 run -e BASE_URL=http://localhost:8080 k6/starvation.js

import exec from 'k6/execution';
import { sleep } from 'k6';
import { buildLayout, windowAt } from './lib-config.js';
import { inspectTarget, sendProbe } from './lib-probes.js';
import { summaryFiles } from './lib-report.js';
import { summaryTrendStats, thresholdsFor } from './lib-thresholds.js';
import { sendWork } from './lib-work.js';

const plan = JSON.parse(open('./plan.json'));
const layout = buildLayout(__ENV, plan);

/** @type {Record<string, import('./lib-config.js').ProbeRoute[]>} each target's probe routes, taken in turn */
const probeRoutes = {};
/** @type {Record<string, import('k6/options').Scenario>} */
const scenarios = {};
for (const route of layout.probes) {
  probeRoutes[route.scenario] = (probeRoutes[route.scenario] || []).concat([route]);
}
for (const [name, routes] of Object.entries(probeRoutes)) {
  // Every VU keeps one keep-alive connection; all PROBE_VUS are idle at the start, so they open
  // their connections one after another, and the service deals them out over its event loops.
  scenarios[name] = {
    executor: 'constant-arrival-rate',
    exec: 'probe',
    rate: layout.probeRate * routes.length,
    timeUnit: '1s',
    duration: `${layout.totalSeconds}s`,
    preAllocatedVUs: layout.probeVus,
    maxVUs: layout.probeMaxVus,
    tags: { kind: 'probe', target: routes[0].target },
  };
}

/** @type {Record<string, import('./lib-config.js').Load>} */
const loads = {};
for (const load of layout.loads) {
  loads[load.scenario] = load;
  const common = {
    exec: 'load',
    startTime: `${load.start}s`,
    // Iterations still running when the window ends get the drain gap, then stop: none spills
    // into the next phase.
    gracefulStop: `${layout.drainSeconds}s`,
    tags: { kind: 'work', target: load.target, phase: load.phase },
  };
  scenarios[load.scenario] = load.rate > 0
    ? Object.assign({ executor: /** @type {const} */ ('constant-arrival-rate'), rate: load.rate, timeUnit: '1s',
      duration: `${load.seconds}s`, preAllocatedVUs: load.vus, maxVUs: load.maxVus }, common)
    : Object.assign({ executor: /** @type {const} */ ('constant-vus'), vus: load.vus, duration: `${load.seconds}s` }, common);
}

/** @type {import('k6/options').Options} */
export const options = {
  scenarios,
  thresholds: thresholdsFor(layout),
  summaryTrendStats: summaryTrendStats(layout.rule),
  // Keep-alive for the load, as k6's defaults; each probe asks for a new connection itself
  // (Connection: close, lib-probes.js), so the probes sample every event loop in turn.
  noConnectionReuse: false,
  noVUConnectionReuse: false,
  setupTimeout: '60s',
};

/**
 * Fails fast unless every target is ready; records each target's /lab/info for the report.
 */
export function setup() {
  /** @type {Record<string, { url: string, facts: Record<string, unknown> }>} */
  const targets = {};
  for (const target of layout.targets) {
    const seen = inspectTarget(target);
    if (!seen.ok) {
      exec.test.abort(`${seen.reason}. Start the service, or point ${layout.kind === 'two-targets'
        ? 'PINNED_URL and UNPINNED_URL' : 'BASE_URL'} at it, then rerun.`);
      throw new Error(seen.reason);
    }
    targets[target.name] = { url: target.url, facts: seen.facts };
    const eventLoops = seen.facts.eventLoops;
    if (typeof eventLoops === 'number' && eventLoops > layout.eventLoops) {
      console.warn(`${target.name}: the service has ${eventLoops} event loops, the run samples and breaks down `
        + `${layout.eventLoops} (EVENT_LOOPS): set EVENT_LOOPS=${eventLoops}.`);
    }
    for (const load of layout.loads.filter((l) => l.target === target.name)) {
      if (load.mode === 'pinned' && layout.starvingModes.includes('pinned') && seen.facts.synchronizedPins === false) {
        console.warn(`${target.name}: synchronized does not pin on Java ${seen.facts.javaVersion} `
          + '(synchronizedPins=false): /work/pinned will not starve it. Run that JVM with -XX:LockingMode=1, '
          + 'or set STARVING_MODES without pinned.');
      }
    }
  }
  return { targets };
}

/**
 * One probe request, to the target's endpoints in turn; the phase tag follows the run's clock.
 */
export function probe() {
  const routes = probeRoutes[exec.scenario.name];
  const route = routes[exec.scenario.iterationInTest % routes.length];
  const phase = windowAt(layout, (Date.now() - exec.scenario.startTime) / 1000);
  sendProbe(route, phase, layout.probeTimeoutMs, layout.eventLoops);
}

/**
 * One unit of work. native on a JVM without FFM answers 501: its window idles instead.
 *
 * @param {{ targets: Record<string, { url: string, facts: Record<string, unknown> }> }} data
 */
export function load(data) {
  const work = loads[exec.scenario.name];
  const facts = data && data.targets[work.target] ? data.targets[work.target].facts : null;
  if (work.mode === 'native' && facts && facts.nativePinAvailable === false) {
    sleep(1);
    return;
  }
  sendWork(work, layout.workTimeoutMs);
}

/**
 * @param {any} data
 */
export function handleSummary(data) {
  return summaryFiles(data, layout);
}
