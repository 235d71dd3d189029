// The run's layout, from __ENV and the shared experiment plan (plan.json). Pure functions: no k6
// imports, so the Node checks and every k6 stage (init, VUs, handleSummary) build the same layout.

/** Work modes of the contract, and those whose load never holds a carrier. */
export const MODES = ['unpinned', 'pinned', 'reentrant', 'native', 'cpu', 'platform'];
export const NEVER_STARVING = ['unpinned', 'reentrant', 'platform'];
export const DOWNSTREAMS = ['db', 'sleep'];
export const LOCKS = ['private', 'shared'];
export const MAX_MS = 30000;

/** What every target answers at once: the probe names are the `probe` tag values. */
export const HEALTH_PATHS = ['/q/health/live', '/q/health/ready', '/q/health/started'];

/** The event_loop tag of a probe answer from an event loop past EVENT_LOOPS (or of no number). */
export const OTHER_EVENT_LOOP = 'other';

/**
 * @typedef {{ name: string, jvm: string, mode: string, downstream: string, lock: string,
 *             ms: number, concurrency: number, seconds: number }} PlanPhase
 * @typedef {{ probe: string, percentile: number, baselineFactor: number, minimumMillis: number }} StarvationRule
 * @typedef {{ starved: StarvationRule,
 *             probes: { ratePerSecond: number, timeoutMillis: number, endpoints: Record<string, string> },
 *             baselineSeconds: number, drainSeconds: number,
 *             quick?: { durationScale: number, minimumSeconds: number, skipPhases: string[],
 *                       baselineSeconds?: number, drainSeconds?: number },
 *             phases: PlanPhase[] }} Plan
 * @typedef {{ name: string, url: string }} Target
 * @typedef {{ name: string, start: number, end: number }} Window
 * @typedef {{ scenario: string, target: string, url: string, phase: string, mode: string,
 *             downstream: string, lock: string, ms: number, vus: number, maxVus: number,
 *             rate: number, start: number, seconds: number }} Load
 * @typedef {{ scenario: string, target: string, url: string, probe: string, path: string }} ProbeRoute
 * @typedef {{ kind: 'two-targets' | 'one-target', targets: Target[], loads: Load[],
 *             windows: Window[], probes: ProbeRoute[], probeRate: number, probeVus: number, probeMaxVus: number,
 *             eventLoops: number, probeTimeoutMs: number, workTimeoutMs: number, rule: StarvationRule,
 *             latencyBoundMs: number, drainSeconds: number, totalSeconds: number, starvingModes: string[],
 *             reportDir: string }} Layout
 */

/**
 * Reads the layout: PINNED_URL and UNPINNED_URL (two deployments side by side), or BASE_URL (one
 * service, the plan's default-JVM phases one after another). Throws with the knob's name on a bad value.
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
  const probeRate = int(env, 'PROBE_RATE', plan.probes.ratePerSecond, 1);

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

  // One probe scenario per target takes the endpoints in turn, so each endpoint goes through every
  // VU's keep-alive connection, and the VUs' connections, opened one after another, cover every event loop.
  /** @type {ProbeRoute[]} */
  const probes = [];
  for (const target of targets) {
    for (const [probe, path] of Object.entries(plan.probes.endpoints)) {
      probes.push({ scenario: `probe-${target.name}`, target: target.name, url: target.url + path, probe, path });
    }
  }
  const endpointCount = Object.keys(plan.probes.endpoints).length;
  const eventLoops = int(env, 'EVENT_LOOPS', 8, 1);
  const probeVus = int(env, 'PROBE_VUS', coprimeFrom(Math.max(eventLoops, probeRate * endpointCount), endpointCount), eventLoops);
  if (gcd(probeVus, endpointCount) !== 1) {
    throw new Error(`PROBE_VUS must share no factor with the ${endpointCount} probe endpoints (each endpoint would go `
      + `through only ${probeVus / gcd(probeVus, endpointCount)} of the ${probeVus} connections); try ${coprimeFrom(probeVus, endpointCount)}`);
  }
  const probeMaxVus = int(env, 'PROBE_MAX_VUS', Math.max(200, probeVus), probeVus);

  const defaultStarving = twoTargets
    ? loads.filter((l) => l.target === 'pinned' && !NEVER_STARVING.includes(l.mode)).map((l) => l.mode).join(',')
    : 'cpu';
  const starvingModes = list(env, 'STARVING_MODES', defaultStarving);
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
    probeRate,
    probeVus,
    probeMaxVus,
    eventLoops,
    probeTimeoutMs: int(env, 'PROBE_TIMEOUT_MS', plan.probes.timeoutMillis, 1),
    workTimeoutMs: int(env, 'WORK_TIMEOUT_MS', 60000, 1),
    rule: starvationRule(plan),
    latencyBoundMs: int(env, 'PROBE_P99_MS', 200, 1),
    drainSeconds,
    totalSeconds,
    starvingModes,
    reportDir: env.REPORT_DIR === undefined || env.REPORT_DIR === '' ? '.' : env.REPORT_DIR,
  };
}

/**
 * The plan's one rule for "starved" (plan.json 'starved'), checked as the Java runner checks it.
 *
 * @param {Plan} plan
 * @returns {StarvationRule}
 */
export function starvationRule(plan) {
  const rule = plan.starved;
  if (!rule || !(rule.probe in plan.probes.endpoints) || !(rule.percentile > 0 && rule.percentile < 100)
    || !(rule.baselineFactor >= 1) || !(rule.minimumMillis >= 0)) {
    throw new Error('plan.json: starved needs a probe of probes.endpoints, a percentile in (0, 100), a baselineFactor >= 1 '
      + `and a minimumMillis >= 0; got ${JSON.stringify(rule)}`);
  }
  return { probe: rule.probe, percentile: rule.percentile, baselineFactor: rule.baselineFactor, minimumMillis: rule.minimumMillis };
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
 * How a load window is expected to end for the rule's probe (virtual), as the thresholds can state it
 * before the run: 'starve' (a mode in STARVING_MODES; with two targets, on the pinned one: the
 * unpinned deployment is the control), 'hold' (a mode that never holds a carrier), or 'record'
 * (depends on the JVM: judged in report.md against /lab/info).
 *
 * @param {Layout} layout
 * @param {Load} load
 * @returns {'starve' | 'hold' | 'record'}
 */
export function expectationOf(layout, load) {
  if (layout.starvingModes.includes(load.mode) && (layout.kind === 'one-target' || load.target === 'pinned')) {
    return 'starve';
  }
  return NEVER_STARVING.includes(load.mode) ? 'hold' : 'record';
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
 * The least number from `from` up that shares no factor with `n`.
 *
 * @param {number} from
 * @param {number} n
 */
function coprimeFrom(from, n) {
  let value = from;
  while (gcd(value, n) !== 1) {
    value += 1;
  }
  return value;
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
