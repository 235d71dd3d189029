// The run's layout, from __ENV and the shared experiment plan (plan.json). Pure functions: no k6
// imports, so the Node checks and every k6 stage (init, VUs, handleSummary) build the same layout.

import { predictForEveryJvm } from './lib-predictions.js';
import { readRules } from './lib-rules.js';

/** Work modes of the contract. */
export const MODES = ['unpinned', 'pinned', 'reentrant', 'native', 'cpu', 'platform'];
export const DOWNSTREAMS = ['db', 'sleep'];
export const LOCKS = ['private', 'shared'];
export const MAX_MS = 30000;

/** What every target answers at once: the probe names are the `probe` tag values. */
export const HEALTH_PATHS = ['/q/health/live', '/q/health/ready', '/q/health/started'];

/** The event_loop tag of a probe answer from an event loop past EVENT_LOOPS (or of no number). */
export const OTHER_EVENT_LOOP = 'other';

/** Your own service's layout: its target, its load window, and the name WATCH_STARVED gives the load's own request. */
export const OWN_TARGET = 'service';
export const OWN_WINDOW = 'load';
export const LOAD_PROBE = 'load';
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Knobs of the lab's /work endpoints and plan phases, which your own service's layout has no use for. */
const LAB_KNOBS = ['MS', 'DOWNSTREAM', 'LOCK', 'PHASES', 'STARVING_MODES', 'PINNED_MODE', 'UNPINNED_MODE'];
/** Knobs of your own service's layout, which the lab's layouts have no use for. */
const OWN_KNOBS = ['LOAD_METHOD', 'LOAD_BODY', 'LOAD_CONTENT_TYPE', 'WATCH', 'WATCH_STARVED', 'EXPECT_STARVED'];

/**
 * @typedef {{ name: string, jvm: string, mode: string, downstream: string, lock: string,
 *             ms: number, concurrency: number, seconds: number }} PlanPhase
 * @typedef {{ starved: import('./lib-rules.js').StarvationRule, untouched: import('./lib-rules.js').UntouchedRule,
 *             probes: { ratePerSecond: number, ratePerSecondByProbe?: Record<string, number>, timeoutMillis: number,
 *                       leastEventLoopShare: number, endpoints: Record<string, string> },
 *             baselineSeconds: number, drainSeconds: number,
 *             quick?: { durationScale: number, minimumSeconds: number, skipPhases: string[],
 *                       baselineSeconds?: number, drainSeconds?: number },
 *             phases: PlanPhase[] }} Plan
 * @typedef {{ name: string, url: string }} Target
 * @typedef {{ name: string, start: number, end: number }} Window
 * @typedef {{ method: string, url: string, body: string | null, contentType: string | null, module: string | null }} YourRequest
 *   your own request: a method, URL and body (LOAD_URL), or the request() of a module of yours (LOAD_MODULE)
 * @typedef {{ scenario: string, target: string, url: string, phase: string, mode: string,
 *             downstream: string, lock: string, ms: number, vus: number, maxVus: number,
 *             rate: number, start: number, seconds: number, request?: YourRequest }} Load
 *   request: your own service's load (mode 'request'); the lab's /work/{mode} otherwise
 * @typedef {{ scenario: string, target: string, url: string, probe: string, path: string, rate: number,
 *             request?: YourRequest }} ProbeRoute
 *   request: the load's own request sent as a probe (WATCH_STARVED=load); a GET of url otherwise
 * @typedef {{ kind: 'two-targets' | 'one-target' | 'own-service', targets: Target[], loads: Load[],
 *             windows: Window[], probes: ProbeRoute[], probeVus: number, eventLoops: number,
 *             probeTimeoutMs: number, workTimeoutMs: number, rules: import('./lib-rules.js').Rules,
 *             drainSeconds: number, totalSeconds: number, starvingModes: string[], expectStarved: boolean | null,
 *             reportDir: string }} Layout
 *   probeVus: the VUs of each target's probe scenario (probeVusFor); expectStarved: what the thresholds
 *   expect of your own service's load (EXPECT_STARVED), null: recorded only
 */

/**
 * Reads the layout: PINNED_URL and UNPINNED_URL (two deployments side by side), BASE_URL (one
 * service, the plan's default-JVM phases one after another), or LOAD_URL or LOAD_MODULE (your own
 * service: your load, the endpoints WATCH names). Throws with the knob's name on a bad value.
 *
 * @param {Record<string, string>} env
 * @param {Plan} plan
 * @returns {Layout}
 */
export function buildLayout(env, plan) {
  const pinnedUrl = env.PINNED_URL;
  const unpinnedUrl = env.UNPINNED_URL;
  if (Boolean(pinnedUrl) !== Boolean(unpinnedUrl)) {
    throw new Error('set both PINNED_URL and UNPINNED_URL (two deployments), or neither and BASE_URL (one service)');
  }
  const twoTargets = Boolean(pinnedUrl);
  const quick = bool(env, 'QUICK', false);
  const scale = (/** @type {number} */ seconds) => quick && plan.quick
    ? Math.max(plan.quick.minimumSeconds, Math.ceil(seconds * plan.quick.durationScale))
    : seconds;

  const quickPlan = quick && plan.quick ? plan.quick : null;
  const baselineSeconds = int(env, 'BASELINE_SECONDS', quickPlan && quickPlan.baselineSeconds !== undefined
    ? quickPlan.baselineSeconds : scale(plan.baselineSeconds), 0);
  const drainSeconds = int(env, 'DRAIN_SECONDS', quickPlan && quickPlan.drainSeconds !== undefined
    ? quickPlan.drainSeconds : plan.drainSeconds, 0);
  const probeRate = env.PROBE_RATE === undefined || env.PROBE_RATE === '' ? null : int(env, 'PROBE_RATE', 0, 1);

  if (given(env, 'LOAD_URL') || given(env, 'LOAD_MODULE')) {
    return ownServiceLayout(env, plan, { baselineSeconds, drainSeconds, scale, probeRate });
  }
  for (const knob of OWN_KNOBS.filter((k) => given(env, k))) {
    throw new Error(`${knob} is a knob of your own service's layout: set LOAD_URL (or LOAD_MODULE) too`);
  }

  /** @type {Target[]} */
  const targets = twoTargets
    ? [{ name: 'pinned', url: url(env, 'PINNED_URL') }, { name: 'unpinned', url: url(env, 'UNPINNED_URL') }]
    : [{ name: 'base', url: url(env, 'BASE_URL', 'http://localhost:8080') }];

  const phases = twoTargets ? twoTargetPhases(env, plan) : oneTargetPhases(env, plan, quick);
  /** @type {Load[]} */
  const loads = [];
  /** @type {Window[]} */
  const windows = [{ name: 'baseline', start: 0, end: baselineSeconds }];
  let start = baselineSeconds;
  for (const phase of phases) {
    const seconds = int(env, 'LOAD_SECONDS', scale(phase.seconds), 1);
    const vus = int(env, 'LOAD_VUS', phase.concurrency, 1);
    const windowName = twoTargets ? 'load' : phase.name;
    for (const target of targets) {
      const mode = twoTargets ? choice(env, target.name === 'pinned' ? 'PINNED_MODE' : 'UNPINNED_MODE',
        target.name === 'pinned' ? 'pinned' : 'unpinned', MODES) : phase.mode;
      loads.push({
        scenario: twoTargets ? `load-${target.name}` : `load-${phase.name}`,
        target: target.name,
        url: target.url,
        phase: windowName,
        mode,
        downstream: choice(env, 'DOWNSTREAM', phase.downstream, DOWNSTREAMS),
        lock: choice(env, 'LOCK', phase.lock, LOCKS),
        ms: int(env, 'MS', phase.ms, 0, MAX_MS),
        vus,
        maxVus: int(env, 'LOAD_MAX_VUS', vus, vus),
        rate: int(env, 'LOAD_RATE', 0, 0),
        start,
        seconds,
      });
    }
    windows.push({ name: windowName, start, end: start + seconds });
    start += seconds + drainSeconds;
  }
  const totalSeconds = windows[windows.length - 1].end;

  // One probe scenario per target sends every endpoint at its own rate (probeScheduleOf).
  /** @type {ProbeRoute[]} */
  const probes = [];
  for (const target of targets) {
    for (const [probe, path] of Object.entries(plan.probes.endpoints)) {
      const byProbe = plan.probes.ratePerSecondByProbe || {};
      const rate = probeRate !== null ? probeRate : byProbe[probe] !== undefined ? byProbe[probe] : plan.probes.ratePerSecond;
      probes.push({ scenario: `probe-${target.name}`, target: target.name, url: target.url + path, probe, path, rate });
    }
  }
  const probeTimeoutMs = int(env, 'PROBE_TIMEOUT_MS', plan.probes.timeoutMillis, 1);

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
    loads,
    windows,
    probes,
    probeVus: probeVusFor(probes.filter((p) => p.target === targets[0].name), probeTimeoutMs),
    eventLoops: int(env, 'EVENT_LOOPS', 8, 1),
    probeTimeoutMs,
    workTimeoutMs: int(env, 'WORK_TIMEOUT_MS', 60000, 1),
    rules: readRules(plan),
    drainSeconds,
    totalSeconds,
    starvingModes,
    expectStarved: null,
    reportDir: env.REPORT_DIR === undefined || env.REPORT_DIR === '' ? '.' : env.REPORT_DIR,
  };
}

/**
 * Your own service: one load window of your request (LOAD_URL with LOAD_METHOD and LOAD_BODY, or
 * LOAD_MODULE's request()) after the baseline, and the endpoints WATCH names as the probes. The
 * plan's starved rule judges the one WATCH_STARVED names (an endpoint on virtual threads, or 'load':
 * the load's own request), the untouched rule every other.
 *
 * @param {Record<string, string>} env
 * @param {Plan} plan
 * @param {{ baselineSeconds: number, drainSeconds: number, scale: (seconds: number) => number, probeRate: number | null }} timing
 * @returns {Layout}
 */
function ownServiceLayout(env, plan, timing) {
  if (given(env, 'PINNED_URL') || given(env, 'UNPINNED_URL')) {
    throw new Error('LOAD_URL and LOAD_MODULE load one service of yours: leave PINNED_URL and UNPINNED_URL unset');
  }
  if (given(env, 'LOAD_URL') && given(env, 'LOAD_MODULE')) {
    throw new Error('set LOAD_URL (a method, URL and body) or LOAD_MODULE (a module of yours exporting request()), not both');
  }
  for (const knob of LAB_KNOBS.filter((k) => given(env, k))) {
    throw new Error(`${knob} is a knob of the lab's /work endpoints and plan phases: with LOAD_URL or LOAD_MODULE the request `
      + 'is yours (put it in LOAD_URL or your module), and EXPECT_STARVED says what to expect');
  }
  const module = given(env, 'LOAD_MODULE') ? env.LOAD_MODULE : null;
  if (module !== null) {
    for (const knob of ['LOAD_METHOD', 'LOAD_BODY', 'LOAD_CONTENT_TYPE'].filter((k) => given(env, k))) {
      throw new Error(`${knob} shapes LOAD_URL's request: LOAD_MODULE's request() sends its own`);
    }
  }
  const loadUrl = module === null ? requestUrl('LOAD_URL', env.LOAD_URL) : null;
  const base = given(env, 'BASE_URL') || loadUrl === null ? url(env, 'BASE_URL', 'http://localhost:8080') : originOf(loadUrl);
  const method = choice(env, 'LOAD_METHOD', 'GET', METHODS);
  const body = given(env, 'LOAD_BODY') ? env.LOAD_BODY : null;
  if (body !== null && method === 'GET') {
    throw new Error('LOAD_BODY needs a LOAD_METHOD that sends one (POST, PUT, PATCH or DELETE), not GET');
  }
  /** @type {YourRequest} */
  const request = { method, url: loadUrl || base, body, contentType: body === null ? null : env.LOAD_CONTENT_TYPE || 'application/json', module };

  const phase = plan.phases.filter((p) => p.jvm === 'default')[0];
  const seconds = int(env, 'LOAD_SECONDS', timing.scale(phase.seconds), 1);
  const vus = int(env, 'LOAD_VUS', phase.concurrency, 1);
  /** @type {Load} */
  const load = { scenario: `load-${OWN_TARGET}`, target: OWN_TARGET, url: base, phase: OWN_WINDOW, mode: 'request', downstream: '',
    lock: '', ms: 0, vus, maxVus: int(env, 'LOAD_MAX_VUS', vus, vus), rate: int(env, 'LOAD_RATE', 0, 0),
    start: timing.baselineSeconds, seconds, request };
  const windows = [{ name: 'baseline', start: 0, end: timing.baselineSeconds },
    { name: OWN_WINDOW, start: timing.baselineSeconds, end: timing.baselineSeconds + seconds }];

  const watched = watchList(env, base);
  const starvedName = given(env, 'WATCH_STARVED') ? env.WATCH_STARVED.trim() : LOAD_PROBE;
  if (starvedName !== LOAD_PROBE && !watched.some((w) => w.name === starvedName)) {
    throw new Error(`WATCH_STARVED: '${starvedName}' is neither a name WATCH gives (${watched.map((w) => w.name).join(', ')}) `
      + `nor '${LOAD_PROBE}' (the load's own request)`);
  }
  const others = watched.filter((w) => w.name !== starvedName);
  if (others.length === 0) {
    throw new Error(`WATCH: name an endpoint the load should leave untouched (its health check) besides WATCH_STARVED's '${starvedName}'`);
  }
  const byProbe = plan.probes.ratePerSecondByProbe || {};
  const planRules = readRules(plan);
  const starvedRate = timing.probeRate !== null ? timing.probeRate
    : byProbe[planRules.starved.probe] !== undefined ? byProbe[planRules.starved.probe] : plan.probes.ratePerSecond;
  const otherRate = timing.probeRate !== null ? timing.probeRate : plan.probes.ratePerSecond;
  const route = (/** @type {string} */ probe, /** @type {string} */ where, /** @type {number} */ rate) =>
    ({ scenario: `probe-${OWN_TARGET}`, target: OWN_TARGET, url: where, probe, path: pathOf(where), rate });
  /** @type {ProbeRoute[]} */
  const probes = [starvedName === LOAD_PROBE
    ? Object.assign(route(LOAD_PROBE, request.url, starvedRate), { path: requestLabel(request), request })
    : route(starvedName, /** @type {{ url: string }} */ (watched.find((w) => w.name === starvedName)).url, starvedRate),
  ...others.map((w) => route(w.name, w.url, otherRate))];
  const probeTimeoutMs = int(env, 'PROBE_TIMEOUT_MS', plan.probes.timeoutMillis, 1);

  return {
    kind: 'own-service',
    targets: [{ name: OWN_TARGET, url: base }],
    loads: [load],
    windows,
    probes,
    probeVus: probeVusFor(probes, probeTimeoutMs),
    eventLoops: int(env, 'EVENT_LOOPS', 8, 1),
    probeTimeoutMs,
    workTimeoutMs: int(env, 'WORK_TIMEOUT_MS', 60000, 1),
    rules: {
      starved: Object.assign({}, planRules.starved, { probe: starvedName, endpoint: probes[0].path }),
      untouched: Object.assign({}, planRules.untouched, { probes: others.map((w) => w.name) }),
      leastEventLoopShare: planRules.leastEventLoopShare,
    },
    drainSeconds: timing.drainSeconds,
    totalSeconds: windows[1].end,
    starvingModes: [],
    expectStarved: given(env, 'EXPECT_STARVED') ? bool(env, 'EXPECT_STARVED', false) : null,
    reportDir: env.REPORT_DIR === undefined || env.REPORT_DIR === '' ? '.' : env.REPORT_DIR,
  };
}

/**
 * WATCH: the endpoints to watch as name=URL pairs, comma-separated; a URL may be a path on the
 * service (health=/health). Unset: the service's health check, health=/q/health/live.
 *
 * @param {Record<string, string>} env
 * @param {string} base the service's URL
 * @returns {{ name: string, url: string }[]}
 */
export function watchList(env, base) {
  const entries = list(env, 'WATCH', 'health=/q/health/live');
  if (entries.length === 0) {
    throw new Error('WATCH: name at least one endpoint to watch, like health=http://localhost:8080/health');
  }
  /** @type {{ name: string, url: string }[]} */
  const watched = [];
  for (const entry of entries) {
    const split = entry.indexOf('=');
    const name = split < 0 ? entry : entry.slice(0, split).trim();
    const where = split < 0 ? '' : entry.slice(split + 1).trim();
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name) || name === LOAD_PROBE) {
      throw new Error(`WATCH: '${name}' is not a name for an endpoint (lower-case letters, digits and '-', not '${LOAD_PROBE}'), in '${entry}'`);
    }
    if (where === '') {
      throw new Error(`WATCH: '${name}' has no URL: write ${name}=http://host:port/path or ${name}=/path, in '${entry}'`);
    }
    if (watched.some((w) => w.name === name)) {
      throw new Error(`WATCH: '${name}' is named twice`);
    }
    watched.push({ name, url: where.startsWith('/') ? base + where : requestUrl(`WATCH (${name})`, where) });
  }
  return watched;
}

/**
 * How the report names your request: its method and URL, or the module whose request() sends it.
 *
 * @param {YourRequest} request
 */
export function requestLabel(request) {
  return request.module !== null ? `request() of ${request.module}` : `${request.method} ${request.url}`;
}

/**
 * The VUs a target's probe scenario needs so that k6 drops no probe, whatever the service does: a
 * probe holds its VU until it is answered or times out, so at most the probes of the timeout and
 * one second more (to connect and read the answer) are in flight. k6 starts an iteration only on
 * an idle VU, and drops it when none is.
 *
 * @param {ProbeRoute[]} routes one target's
 * @param {number} timeoutMs
 */
export function probeVusFor(routes, timeoutMs) {
  return Math.ceil(routes.reduce((sum, r) => sum + r.rate, 0) * (timeoutMs / 1000 + 1));
}

/**
 * The order in which a target's probe scenario sends its endpoints. The service deals new
 * connections out over its event loops in turn, and each probe opens one, so the iterations that
 * fall on one residue modulo the event loops reach one event loop: each residue walks its own copy
 * of a smooth weighted round robin of the endpoints (each endpoint its weight's times per cycle,
 * evenly spaced), from its own offset, all turned by a pseudo-random amount every cycle. So every
 * endpoint reaches every event loop at its own rate within a few cycles, whatever the number of
 * endpoints and their rates; connections others open in between only move residues to other event
 * loops, and a wrong count of event loops does not keep an endpoint off some of them.
 *
 * @param {ProbeRoute[]} routes one target's, each at its rate
 * @returns {{ routes: ProbeRoute[], weights: number[], sequence: number[] }} integer weights in the
 *   rates' proportion, and one cycle: route indexes, each its weight's times
 */
export function probeScheduleOf(routes) {
  const scaled = routes.map((r) => Math.round(r.rate * 1000));
  const divisor = scaled.reduce((a, b) => gcd(a, b));
  const weights = scaled.map((w) => w / divisor);
  const total = weights.reduce((a, b) => a + b, 0);
  const current = weights.map(() => 0);
  const sequence = [];
  for (let slot = 0; slot < total; slot++) {
    weights.forEach((w, i) => { current[i] += w; });
    const pick = current.indexOf(Math.max(...current));
    current[pick] -= total;
    sequence.push(pick);
  }
  return { routes, weights, sequence };
}

/**
 * The route of a probe scenario's iteration (see probeScheduleOf).
 *
 * @param {{ routes: ProbeRoute[], sequence: number[] }} schedule
 * @param {number} iteration the scenario's iteration in the test
 * @param {number} eventLoops the target's, from /lab/info
 * @returns {ProbeRoute}
 */
export function routeAt(schedule, iteration, eventLoops) {
  const cycle = schedule.sequence.length;
  const residue = iteration % eventLoops;
  const slot = Math.floor(iteration / eventLoops);
  const turn = Math.round((residue * cycle) / eventLoops) + scramble(Math.floor(slot / cycle));
  return schedule.routes[schedule.sequence[(slot + turn) % cycle]];
}

/**
 * The total rate of one target's probes as k6's arrival rate: a whole number of iterations per timeUnit.
 *
 * @param {ProbeRoute[]} routes
 * @returns {{ rate: number, timeUnit: string }}
 */
export function arrivalRateOf(routes) {
  const total = routes.reduce((sum, r) => sum + r.rate, 0);
  for (const seconds of [1, 10, 100, 1000]) {
    if (Math.abs(total * seconds - Math.round(total * seconds)) < 1e-9) {
      return { rate: Math.round(total * seconds), timeUnit: `${seconds}s` };
    }
  }
  return { rate: Math.round(total * 1000), timeUnit: '1000s' };
}

/**
 * A pseudo-random whole number from `seed` (a multiplicative hash and a step of a linear
 * congruential generator): every VU computes the same turn for the same cycle.
 *
 * @param {number} seed
 */
function scramble(seed) {
  const hashed = (seed * 2654435761 + 1013904223) % 4294967296;
  return Math.floor(((hashed * 1664525 + 1013904223) % 4294967296) / 65536);
}

/**
 * The event_loop tag of a probe answer: the number that ends the serving event loop's thread name
 * (vert.x-eventloop-thread-3 → '3'), OTHER_EVENT_LOOP past the layout's event loops, or null when
 * the answer names none.
 *
 * @param {unknown} threadName the answer's eventLoop
 * @param {number} eventLoops
 * @returns {string | null}
 */
export function eventLoopOf(threadName, eventLoops) {
  if (typeof threadName !== 'string' || threadName === '') {
    return null;
  }
  const number = /(\d+)$/.exec(threadName);
  return number && Number(number[1]) < eventLoops ? String(Number(number[1])) : OTHER_EVENT_LOOP;
}

/**
 * Every event_loop tag value a probe answer can carry in this layout.
 *
 * @param {Layout} layout
 */
export function eventLoopTags(layout) {
  return [...Array.from({ length: layout.eventLoops }, (_, i) => String(i)), OTHER_EVENT_LOOP];
}

/**
 * The window a moment of the run (seconds since the probes started) falls in: 'baseline', a load
 * window's name, or 'drain' between two load windows.
 *
 * @param {Layout} layout
 * @param {number} seconds
 */
export function windowAt(layout, seconds) {
  for (const window of layout.windows) {
    if (seconds >= window.start && seconds < window.end) {
      return window.name;
    }
  }
  return seconds < 0 ? 'baseline' : 'drain';
}

/**
 * @param {Record<string, string>} env
 * @param {Plan} plan
 * @returns {PlanPhase[]}
 */
function twoTargetPhases(env, plan) {
  // Both targets get the same load; its defaults come from the plan's phase named after PINNED_MODE.
  const mode = choice(env, 'PINNED_MODE', 'pinned', MODES);
  const defaults = plan.phases.filter((p) => p.jvm === 'default');
  return [defaults.find((p) => p.name === mode) || defaults[0]];
}

/**
 * @param {Record<string, string>} env
 * @param {Plan} plan
 * @param {boolean} quick
 * @returns {PlanPhase[]}
 */
function oneTargetPhases(env, plan, quick) {
  const runnable = plan.phases.filter((p) => p.jvm === 'default');
  const wanted = list(env, 'PHASES', '');
  for (const name of wanted) {
    if (!runnable.some((p) => p.name === name)) {
      throw new Error(`PHASES: '${name}' is not a phase of plan.json that runs on the default JVM `
        + `(k6 cannot restart the server); phases: ${runnable.map((p) => p.name).join(', ')}`);
    }
  }
  const skipped = quick && plan.quick ? plan.quick.skipPhases : [];
  return runnable.filter((p) => (wanted.length === 0 || wanted.includes(p.name)) && !skipped.includes(p.name));
}

/**
 * @param {number} a
 * @param {number} b
 * @returns {number}
 */
function gcd(a, b) {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * @param {Record<string, string>} env
 * @param {string} name
 * @param {number} fallback
 * @param {number} min
 * @param {number} [max]
 */
function int(env, name, fallback, min, max = Number.MAX_SAFE_INTEGER) {
  const raw = env[name];
  if (raw === undefined || raw === '') {
    return fallback;
  }
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}, not '${raw}'`);
  }
  return Number(raw);
}

/**
 * @param {Record<string, string>} env
 * @param {string} name
 * @param {string} fallback
 * @param {string[]} allowed
 */
function choice(env, name, fallback, allowed) {
  const value = env[name] === undefined || env[name] === '' ? fallback : env[name];
  if (!allowed.includes(value)) {
    throw new Error(`${name} must be one of ${allowed.join(', ')}, not '${value}'`);
  }
  return value;
}

/**
 * @param {Record<string, string>} env
 * @param {string} name
 * @param {boolean} fallback
 */
function bool(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') {
    return fallback;
  }
  if (raw !== 'true' && raw !== 'false') {
    throw new Error(`${name} must be true or false, not '${raw}'`);
  }
  return raw === 'true';
}

/**
 * @param {Record<string, string>} env
 * @param {string} name
 * @param {string} fallback
 */
function list(env, name, fallback) {
  const raw = env[name] === undefined ? fallback : env[name];
  return raw.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

/**
 * Whether a knob is set to something.
 *
 * @param {Record<string, string>} env
 * @param {string} name
 */
function given(env, name) {
  return env[name] !== undefined && env[name] !== '';
}

/**
 * A URL a request goes to: http(s), a host, and any path and query.
 *
 * @param {string} name the knob, for the message
 * @param {string} value
 */
function requestUrl(name, value) {
  if (!/^https?:\/\/[^/\s?#]+(?:[/?][^\s]*)?$/.test(value)) {
    throw new Error(`${name} must be an http(s) URL, like http://localhost:8080/orders?id=1, not '${value}'`);
  }
  return value;
}

/** @param {string} value an http(s) URL */
function originOf(value) {
  return /** @type {RegExpExecArray} */ (/^https?:\/\/[^/\s?#]+/.exec(value))[0];
}

/** @param {string} value an http(s) URL */
function pathOf(value) {
  return value.replace(/^https?:\/\/[^/\s?#]+/, '') || '/';
}

/**
 * @param {Record<string, string>} env
 * @param {string} name
 * @param {string} [fallback]
 */
function url(env, name, fallback) {
  const value = env[name] || fallback || '';
  if (!/^https?:\/\/[^/\s]+$/.test(value.replace(/\/+$/, ''))) {
    throw new Error(`${name} must be an http(s) URL without a path, like http://localhost:8080, not '${value}'`);
  }
  return value.replace(/\/+$/, '');
}
