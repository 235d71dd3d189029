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
// Targets (one of); your own service is own-service.js's:
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
//   BASELINE_SECONDS [plan: 2] probes alone before the first load
//   DRAIN_SECONDS [plan: 1]    gap between two load windows (BASE_URL layout)
//   PHASES [all default-JVM]   comma-separated plan phases to run (BASE_URL layout)
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
//   CPUS [unset]               the processors each target's JVM must see (/lab/info availableProcessors),
//                              checked before any load: the pods' CPU limit in Kubernetes
//
//   k6 run -e BASE_URL=http://localhost:8080 k6/starvation.js

import exec from 'k6/execution';
import { sleep } from 'k6';
import { runKnobs } from './lib-knobs.js';
import { buildLayout } from './lib-layout.js';
import { predict } from './lib-predictions.js';
import { inspectTarget, warmUp } from './lib-probes.js';
import { runOf } from './lib-run.js';

const plan = JSON.parse(open('./plan.json'));
const layout = buildLayout(__ENV, plan);
const run = runOf(layout, runKnobs(__ENV, plan), null);

/** @type {import('k6/options').Options} */
export const options = run.options;
export const probe = run.probe;
export const handleSummary = run.handleSummary;

/**
 * Fails fast unless every target is ready; records each target's /lab/info for the report, and
 * warms each target up before the baseline.
 */
export function setup() {
  /** @type {import('./lib-run.js').SetupData['targets']} */
  const targets = {};
  for (const target of layout.targets) {
    const facts = /** @type {Record<string, unknown>} */ (run.ready(inspectTarget(target), target,
      layout.kind === 'two-targets' ? 'PINNED_URL and UNPINNED_URL' : 'BASE_URL'));
    targets[target.name] = { url: target.url, facts };
    const loads = layout.loads.filter((l) => l.target === target.name);
    for (const load of loads.filter((l) => l.expected === 'starves')) {
      const prediction = predict(load.mode, load.downstream, facts);
      if (prediction.outcome === 'free') {
        console.warn(`${target.name}: /work/${load.mode} will not starve Java ${facts.javaVersion}: ${prediction.why}. `
          + `Run a JVM it starves, or set STARVING_MODES without ${load.mode}.`);
      }
    }
    const runnable = loads.filter((l) => predict(l.mode, l.downstream, facts).outcome !== '501');
    warmUp(target, layout.probes.filter((p) => p.target === target.name).map((p) => p.path),
      [...new Set(runnable.map((l) => `/work/${l.mode}?ms=1&downstream=${l.downstream}&lock=${l.lock}`))]);
  }
  return { targets };
}

/**
 * One unit of work. A mode the JVM cannot run (native without FFM answers 501) idles instead.
 *
 * @param {import('./lib-run.js').SetupData} data
 */
export function load(data) {
  const work = run.loads[exec.scenario.name];
  const facts = data && data.targets[work.target] ? data.targets[work.target].facts : null;
  if (facts && predict(work.mode, work.downstream, facts).outcome === '501') {
    sleep(1);
    return;
  }
  run.work(work);
}

