// The run's layout, what every k6 stage (init, VUs, handleSummary) builds the same from __ENV and
// plan.json, and the lab's two: two targets side by side, or one target phase after phase. Your own
// service's is lib-own-service.js. Pure functions, no k6 imports.

import { choice, int, layoutKnobs, list, loadKnobs, rateOf, refuse, url } from './lib-knobs.js';
import { predictForEveryJvm } from './lib-predictions.js';
import { readRules } from './lib-rules.js';

/** Work modes of the contract. */
export const MODES = ['unpinned', 'pinned', 'reentrant', 'native', 'cpu', 'platform'];

/** What every target answers at once: the probe names are the `probe` tag values. */
export const HEALTH_PATHS = ['/q/health/live', '/q/health/ready', '/q/health/started'];

/** Knobs of your own service's layout (own-service.js), which the lab's layouts have no use for. */
export const OWN_KNOBS = ['LOAD_URL', 'LOAD_MODULE', 'LOAD_METHOD', 'LOAD_BODY', 'LOAD_CONTENT_TYPE', 'WATCH', 'WATCH_STARVED', 'EXPECT_STARVED'];

/**
 * @typedef {import('./lib-knobs.js').Plan} Plan
 * @typedef {import('./lib-knobs.js').PlanPhase} PlanPhase
 * @typedef {{ name: string, url: string }} Target
 * @typedef {{ name: string, start: number, end: number }} Window
 * @typedef {{ method: string, url: string, body: string | null, contentType: string | null, module: string | null,
 *             label: string }} YourRequest
 *   your own request: a method, URL and body (LOAD_URL), or the request() of a module of yours (LOAD_MODULE);
 *   label: how the report names it
 * @typedef {'starves' | 'free' | 'depends'} Expectation
 * @typedef {{ scenario: string, target: string, url: string, phase: string, mode: string,
 *             downstream: string, lock: string, ms: number, vus: number, maxVus: number,
 *             rate: number, start: number, seconds: number, drainSeconds: number, expected: Expectation,
 *             request?: YourRequest }} Load
 *   drainSeconds: the gap after its window, by whose end unfinished requests stop; expected: what the
 *   thresholds expect of the starved rule's probe under it, as far as it is known before setup() reads
 *   /lab/info; request: your own service's load (mode 'request'); the lab's /work/{mode} otherwise
 * @typedef {{ scenario: string, target: string, url: string, probe: string, path: string, rate: number,
 *             request?: YourRequest }} ProbeRoute
 *   request: the load's own request sent as a probe (WATCH_STARVED=load); a GET of url otherwise
 * @typedef {{ kind: 'two-targets' | 'one-target' | 'own-service', targets: Target[], loads: Load[],
 *             windows: Window[], probes: ProbeRoute[], rules: import('./lib-rules.js').Rules }} Layout
 *   what the run sends and judges; how k6 runs it is lib-knobs.js runKnobs
 */

/**
 * Reads the lab's layout: PINNED_URL and UNPINNED_URL (two deployments side by side), or BASE_URL
 * (one service, the plan's default-JVM phases one after another). Throws with the knob's name on a
 * bad value.
 *
 * @param {Record<string, string>} env
 * @param {Plan} plan
 * @returns {Layout}
 */
export function buildLayout(env, plan) {
  refuse(env, OWN_KNOBS, 'is a knob of your own service\'s layout: run k6/own-service.js');
  const targets = targetsOf(env);
  const twoTargets = targets.length === 2;
  const knobs = layoutKnobs(env, plan);
  const phases = twoTargets ? twoTargetPhases(env, knobs.phases) : oneTargetPhases(env, knobs);

  /** @type {Omit<Load, 'expected'>[]} */
  const loads = [];
  /** @type {Window[]} */
  const windows = [{ name: 'baseline', start: 0, end: knobs.baselineSeconds }];
  let start = knobs.baselineSeconds;
  for (const phase of phases) {
    const size = loadKnobs(env, phase);
    const windowName = twoTargets ? 'load' : phase.name;
    for (const target of targets) {
      const mode = twoTargets ? choice(env, target.name === 'pinned' ? 'PINNED_MODE' : 'UNPINNED_MODE',
        target.name === 'pinned' ? 'pinned' : 'unpinned', MODES) : phase.mode;
      loads.push(Object.assign({
        scenario: twoTargets ? `load-${target.name}` : `load-${phase.name}`,
        target: target.name,
        url: target.url,
        phase: windowName,
        mode,
        downstream: choice(env, 'DOWNSTREAM', phase.downstream, ['db', 'sleep']),
        lock: choice(env, 'LOCK', phase.lock, ['private', 'shared']),
        ms: int(env, 'MS', phase.ms, 0, 30000),
        start,
      }, size, { drainSeconds: knobs.drainSeconds }));
    }
    windows.push({ name: windowName, start, end: start + size.seconds });
    start += size.seconds + knobs.drainSeconds;
  }

  // One probe scenario per target sends every endpoint at its own rate (probeScheduleOf).
  /** @type {ProbeRoute[]} */
  const probes = [];
  for (const target of targets) {
    for (const [probe, path] of Object.entries(plan.probes.endpoints)) {
      probes.push({ scenario: `probe-${target.name}`, target: target.name, url: target.url + path, probe, path,
        rate: rateOf(plan, knobs.probeRate, probe) });
    }
  }

  // The pinned deployment is there to starve: its mode is expected to, unless no JVM starves under it.
  const starvingModes = list(env, 'STARVING_MODES', loads.filter((l) => l.target === 'pinned' && predictForEveryJvm(l.mode, l.downstream) !== 'free')
    .map((l) => l.mode).join(','));
  for (const mode of starvingModes) {
    if (!MODES.includes(mode)) {
      throw new Error(`STARVING_MODES: unknown mode '${mode}' (modes: ${MODES.join(', ')})`);
    }
  }

  return {
    kind: twoTargets ? 'two-targets' : 'one-target',
    targets,
    loads: loads.map((load) => Object.assign(load,
      { expected: expectationOf(load, starvingModes.includes(load.mode) && (!twoTargets || load.target === 'pinned')) })),
    windows,
    probes,
    rules: readRules(plan),
  };
}

/** The targets: PINNED_URL and UNPINNED_URL, or BASE_URL. @param {Record<string, string>} env @returns {Target[]} */
export function targetsOf(env) {
  if (Boolean(env.PINNED_URL) !== Boolean(env.UNPINNED_URL)) {
    throw new Error('set both PINNED_URL and UNPINNED_URL (two deployments), or neither and BASE_URL (one service)');
  }
  return env.PINNED_URL
    ? [{ name: 'pinned', url: url(env, 'PINNED_URL') }, { name: 'unpinned', url: url(env, 'UNPINNED_URL') }]
    : [{ name: 'base', url: url(env, 'BASE_URL', 'http://localhost:8080') }];
}

/**
 * A lab load's expectation: 'starves' where STARVING_MODES names its mode (with two targets, on the
 * pinned one: the unpinned deployment is the control) or on every JVM, 'free' on every JVM, or 'depends'.
 *
 * @param {{ mode: string, downstream: string }} load
 * @param {boolean} named whether STARVING_MODES names it here
 * @returns {Expectation}
 */
function expectationOf(load, named) {
  const everywhere = predictForEveryJvm(load.mode, load.downstream);
  return named || everywhere === 'starves' || everywhere === 'collapses' ? 'starves' : everywhere === 'free' ? 'free' : 'depends';
}

/**
 * Both targets get the same load; its defaults come from the plan's phase named after PINNED_MODE.
 *
 * @param {Record<string, string>} env
 * @param {PlanPhase[]} phases
 * @returns {PlanPhase[]}
 */
function twoTargetPhases(env, phases) {
  const mode = choice(env, 'PINNED_MODE', 'pinned', MODES);
  return [phases.find((p) => p.name === mode) || phases[0]];
}

/**
 * PHASES picks among the default-JVM phases (in a quick run, among the quick ones).
 *
 * @param {Record<string, string>} env
 * @param {ReturnType<typeof layoutKnobs>} knobs
 * @returns {PlanPhase[]}
 */
function oneTargetPhases(env, knobs) {
  const wanted = list(env, 'PHASES', '');
  for (const name of wanted) {
    if (!knobs.defaults.some((p) => p.name === name)) {
      throw new Error(`PHASES: '${name}' is not a phase of plan.json that runs on the default JVM `
        + `(k6 cannot restart the server); phases: ${knobs.defaults.map((p) => p.name).join(', ')}`);
    }
  }
  return knobs.phases.filter((p) => wanted.length === 0 || wanted.includes(p.name));
}
