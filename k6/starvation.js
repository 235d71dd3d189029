// Starvation Lab: virtual-thread carrier starvation under load, seen through probes.
//
// Probes hit /probe/virtual, /probe/worker, /probe/event-loop and /q/health/live at a constant
// arrival rate from the start (phase:baseline) and through the load (phase:load, or the plan's
// phase name); the load hammers /work/{mode}. Only /probe/virtual shares the carriers with the
// work, so only it starves when the work holds its carrier. "Starved" is the plan's one rule
// (plan.json 'starved'), and so is "untouched" for the others ('untouched'), applied by the
// thresholds and the report against what the JVM's facts predict (lib-predictions.js). Each probe
// answer names the event loop that served it: the report counts every probe's answers per event
// loop, and breaks the starved probe's wait down by event loop.
//
// Targets (one of):
//   PINNED_URL + UNPINNED_URL  two deployments side by side (Kubernetes: http://lab-pinned:8080 and
//                              http://lab-unpinned:8080); the same load on both at once
//   BASE_URL                   one service (default http://localhost:8080); the plan's default-JVM
//                              phases one after another, each its own load scenario
//   LOAD_URL or LOAD_MODULE    your own service: one load window of your request after the baseline,
//                              the endpoints WATCH names as the probes (k6/README.md, "Your own service")
//
// Your own service (LOAD_URL or LOAD_MODULE):
//   LOAD_URL [unset]           the load's request URL, http(s)://host:port/path?query; BASE_URL is
//                              its origin unless set
//   LOAD_METHOD [GET]          its method: GET, POST, PUT, PATCH or DELETE
//   LOAD_BODY [unset]          its body
//   LOAD_CONTENT_TYPE [application/json]  the body's Content-Type
//   LOAD_MODULE [unset]        instead of LOAD_URL: a module of yours (absolute, or relative to this
//                              script) exporting request(params), which sends your request with params
//                              and returns k6's response; BASE_URL names the service
//   WATCH [health=/q/health/live]  the endpoints to watch, name=URL comma-separated (a URL may be a
//                              path on BASE_URL); each answers 2xx to a GET when the run starts
//   WATCH_STARVED [load]       the name in WATCH of an endpoint on virtual threads that the plan's
//                              starved rule judges, or load (the load's own request, as a probe);
//                              the untouched rule judges every other
//   EXPECT_STARVED [unset]     true or false: what the thresholds expect of WATCH_STARVED's endpoint
//                              under the load; unset: recorded, judged in the report only
//   /lab/info is read where the service has one (its facts and event loops, for the report); no
//   prediction of your request is judged, and without /lab/info the report says the facts are unknown.
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
//   BASELINE_SECONDS [plan: 2] probes alone before the first load
//   DRAIN_SECONDS [plan: 1]    gap between two load windows (BASE_URL layout)
//   PHASES [all default-JVM]   comma-separated plan phases to run (BASE_URL layout)
//   LOAD_SECONDS, LOAD_VUS, LOAD_RATE, LOAD_MAX_VUS, BASELINE_SECONDS, DRAIN_SECONDS, QUICK, the probe
//   and timeout knobs apply to your own service's one load window too (its defaults: the plan's
//   first default-JVM phase)
//   QUICK [false]              true: the plan's quick settings (shorter, fewer phases)
//   PROBE_RATE [plan]          requests per second of every probe, per target, instead of the
//                              plan's rates (ratePerSecond, ratePerSecondByProbe)
//   PROBE_TIMEOUT_MS [plan: 30000]  probe request timeout; the probe VUs are sized from it
//   EVENT_LOOPS [8]            event loops the report breaks the probes down by, one by one
//                              (answers from later ones count as 'other'); /lab/info says how
//                              many the service has (eventLoops)
//   WORK_TIMEOUT_MS [60000]    work request timeout
//   STARVING_MODES [PINNED_MODE with two targets]  modes whose load the thresholds expect to starve
//                              /probe/virtual on this deployment (with two targets: on the pinned
//                              one), beyond what starves on every JVM (lib-predictions.js)
//   REPORT_DIR [.]             the existing directory handleSummary writes summary.json and report.md to
//
//   k6 run -e BASE_URL=http://localhost:8080 k6/starvation.js

import exec from 'k6/execution';
import { sleep } from 'k6';
import { arrivalRateOf, buildLayout, probeScheduleOf, routeAt, windowAt } from './lib-config.js';
import { predict } from './lib-predictions.js';
import { inspectService, inspectTarget, sendProbe, warmUp, warmUpService } from './lib-probes.js';
import { renderMarkdown } from './lib-report-markdown.js';
import { buildModel } from './lib-report-model.js';
import { renderText } from './lib-report-text.js';
import { summaryTrendStats, thresholdsFor } from './lib-thresholds.js';
import { sendWork } from './lib-work.js';

const plan = JSON.parse(open('./plan.json'));
const layout = buildLayout(__ENV, plan);
const yourRequest = layout.kind === 'own-service' && layout.loads[0].request ? requestOf(layout.loads[0].request.module) : null;

/**
 * LOAD_MODULE's request(), loaded in the init context (k6's require() takes a path known only at run
 * time; its import() does not load modules).
 *
 * @param {string | null} path
 * @returns {import('./lib-work.js').RequestFunction | null}
 */
function requestOf(path) {
  if (path === null) {
    return null;
  }
  const module = /** @type {Record<string, unknown>} */ (require(path));
  if (typeof module.request !== 'function') {
    throw new Error(`LOAD_MODULE ${path} exports no request(params) function`);
  }
  return /** @type {import('./lib-work.js').RequestFunction} */ (module.request);
}

/** @type {Record<string, ReturnType<typeof probeScheduleOf>>} each probe scenario's order */
const schedules = {};
/** @type {Record<string, import('k6/options').Scenario>} */
const scenarios = {};
for (const target of layout.targets) {
  const routes = layout.probes.filter((p) => p.target === target.name);
  schedules[routes[0].scenario] = probeScheduleOf(routes);
  // Every VU a probe may hold until it times out is there from the start (probeVusFor): k6 drops
  // an iteration when no VU is idle, and a VU it starts mid-run comes too late for it.
  scenarios[routes[0].scenario] = Object.assign({
    executor: /** @type {const} */ ('constant-arrival-rate'),
    exec: 'probe',
    duration: `${layout.totalSeconds}s`,
    preAllocatedVUs: layout.probeVus,
    maxVUs: layout.probeVus,
    tags: { kind: 'probe', target: target.name },
  }, arrivalRateOf(routes));
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
  // Only the init context k6 reads the options from (VU 0) builds the thresholds: a VU that probes
  // does not need them, and 2,000 VUs each building them take seconds to start.
  thresholds: __VU === 0 ? thresholdsFor(layout) : {},
  summaryTrendStats: summaryTrendStats(layout.rules),
  // Keep-alive for the load, as k6's defaults; each probe asks for a new connection itself
  // (Connection: close, lib-probes.js).
  noConnectionReuse: false,
  noVUConnectionReuse: false,
  setupTimeout: '60s',
};

/**
 * Fails fast unless every target is ready; records each target's /lab/info for the report, and
 * warms each target up before the baseline.
 */
export function setup() {
  /** @type {Record<string, { url: string, facts: Record<string, unknown> | null }>} */
  const targets = {};
  for (const target of layout.targets) {
    const routes = layout.probes.filter((p) => p.target === target.name);
    const seen = layout.kind === 'own-service' ? inspectService(target, routes) : inspectTarget(target);
    if (!seen.ok) {
      exec.test.abort(`${seen.reason}. Start the service, or point ${{ 'two-targets': 'PINNED_URL and UNPINNED_URL',
        'one-target': 'BASE_URL', 'own-service': 'LOAD_URL (or BASE_URL) and WATCH' }[layout.kind]} at it, then rerun.`);
      throw new Error(seen.reason);
    }
    targets[target.name] = { url: target.url, facts: seen.facts };
    if (seen.facts === null) {
      console.log(`${target.name}: ${target.url}/lab/info gives no facts: the report says they are unknown and judges no prediction.`);
      warmUpService(target, routes, /** @type {import('./lib-config.js').YourRequest} */ (layout.loads[0].request), yourRequest);
      continue;
    }
    const eventLoops = seen.facts.eventLoops;
    if (typeof eventLoops === 'number' && eventLoops > layout.eventLoops) {
      console.warn(`${target.name}: the service has ${eventLoops} event loops, the run samples and breaks down `
        + `${layout.eventLoops} (EVENT_LOOPS): set EVENT_LOOPS=${eventLoops}.`);
    }
    for (const load of layout.loads.filter((l) => l.target === target.name && layout.starvingModes.includes(l.mode))) {
      const prediction = predict(load.mode, load.downstream, seen.facts);
      if (prediction.outcome === 'free') {
        console.warn(`${target.name}: /work/${load.mode} will not starve Java ${seen.facts.javaVersion}: ${prediction.why}. `
          + `Run a JVM it starves, or set STARVING_MODES without ${load.mode}.`);
      }
    }
    if (layout.kind === 'own-service') {
      warmUpService(target, routes, /** @type {import('./lib-config.js').YourRequest} */ (layout.loads[0].request), yourRequest);
      continue;
    }
    const runnable = layout.loads.filter((l) => l.target === target.name && predict(l.mode, l.downstream, seen.facts).outcome !== '501');
    warmUp(target, routes.map((p) => p.path),
      [...new Set(runnable.map((l) => `/work/${l.mode}?ms=1&downstream=${l.downstream}&lock=${l.lock}`))]);
  }
  return { targets };
}

/**
 * One probe request, to the endpoint the schedule gives this iteration for the target's event
 * loops; the phase tag follows the run's clock.
 *
 * @param {{ targets: Record<string, { url: string, facts: Record<string, unknown> | null }> }} data
 */
export function probe(data) {
  const schedule = schedules[exec.scenario.name];
  const target = schedule.routes[0].target;
  const facts = data && data.targets[target] ? data.targets[target].facts : null;
  const served = facts ? facts.eventLoops : undefined;
  const route = routeAt(schedule, exec.scenario.iterationInTest, typeof served === 'number' && served > 0 ? served : layout.eventLoops);
  const phase = windowAt(layout, (Date.now() - exec.scenario.startTime) / 1000);
  sendProbe(route, phase, layout.probeTimeoutMs, layout.eventLoops, yourRequest);
}

/**
 * One unit of work. A mode the JVM cannot run (native without FFM answers 501) idles instead.
 *
 * @param {{ targets: Record<string, { url: string, facts: Record<string, unknown> | null }> }} data
 */
export function load(data) {
  const work = loads[exec.scenario.name];
  const facts = data && data.targets[work.target] ? data.targets[work.target].facts : null;
  if (facts && !work.request && predict(work.mode, work.downstream, facts).outcome === '501') {
    sleep(1);
    return;
  }
  sendWork(work, layout.workTimeoutMs, yourRequest);
}

/**
 * REPORT_DIR/summary.json (k6's data plus the report's model), REPORT_DIR/report.md and stdout.
 *
 * @param {any} data
 */
export function handleSummary(data) {
  const model = buildModel(data, layout);
  const dir = layout.reportDir === '.' ? '' : `${layout.reportDir.replace(/\/+$/, '')}/`;
  return {
    [`${dir}summary.json`]: JSON.stringify(Object.assign({}, data, { starvationLab: model }), null, 2),
    [`${dir}report.md`]: renderMarkdown(model),
    stdout: `${renderText(model)}\n  files: ${dir}summary.json, ${dir}report.md\n\n`,
  };
}
