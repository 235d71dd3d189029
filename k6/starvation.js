// Starvation Lab: virtual-thread carrier starvation under load, seen through probes.
//
// Probes hit /probe/virtual, /probe/worker, /probe/event-loop and /q/health/live at a constant
// arrival rate from the start (phase:baseline) and through the load (phase:load, or the plan's
// phase name); the load hammers /work/{mode}. Only /probe/virtual shares the carriers with the
// work, so only it starves when the work holds its carrier.
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
//   PROBE_MAX_VUS [50]         VU ceiling per probe scenario (starved probes hold VUs)
//   PROBE_TIMEOUT_MS [plan: 30000]  probe request timeout
//   WORK_TIMEOUT_MS [60000]    work request timeout
//   PROBE_P99_MS [200]         the bound: a probe holds while its p99 stays under it
//   STARVING_MODES [PINNED_MODE, or cpu with BASE_URL]  modes whose load is expected to push
//                              /probe/virtual's p99 past the bound (with two targets: on the
//                              pinned one); modes that never hold a carrier (unpinned, reentrant,
//                              platform) are expected to stay under it; the rest are recorded
//                              and judged in report.md against /lab/info
//   REPORT_DIR [.]             where handleSummary writes summary.json and report.md
//
//   k6 run -e BASE_URL=http://localhost:8080 k6/starvation.js

import exec from 'k6/execution';
import { sleep } from 'k6';
import { buildLayout, windowAt } from './lib-config.js';
import { inspectTarget, sendProbe } from './lib-probes.js';
import { summaryFiles } from './lib-report.js';
import { SUMMARY_TREND_STATS, thresholdsFor } from './lib-thresholds.js';
import { sendWork } from './lib-work.js';

const plan = JSON.parse(open('./plan.json'));
const layout = buildLayout(__ENV, plan);

/** @type {Record<string, import('./lib-config.js').ProbeRoute>} */
const probeRoutes = {};
/** @type {Record<string, import('k6/options').Scenario>} */
const scenarios = {};
for (const route of layout.probes) {
  probeRoutes[route.scenario] = route;
  scenarios[route.scenario] = {
    executor: 'constant-arrival-rate',
    exec: 'probe',
    rate: layout.probeRate,
    timeUnit: '1s',
    duration: `${layout.totalSeconds}s`,
    preAllocatedVUs: Math.min(layout.probeRate, layout.probeMaxVus),
    maxVUs: layout.probeMaxVus,
    tags: { kind: 'probe', target: route.target, probe: route.probe },
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
  summaryTrendStats: SUMMARY_TREND_STATS,
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
 * One probe request; the phase tag follows the run's clock.
 */
export function probe() {
  const route = probeRoutes[exec.scenario.name];
  const phase = windowAt(layout, (Date.now() - exec.scenario.startTime) / 1000);
  sendProbe(route, phase, layout.probeTimeoutMs);
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
