// The environment knobs (__ENV): each read with its default, and refused with its name when bad; and
// the knobs every layout shares, and those of the run. Pure functions, no k6 imports.

/**
 * @typedef {Record<string, string>} Env __ENV
 * @typedef {{ name: string, jvm: string, mode: string, downstream: string, lock: string,
 *             ms: number, concurrency: number, seconds: number }} PlanPhase
 * @typedef {{ starved: import('./lib-rules.js').StarvationRule, untouched: import('./lib-rules.js').UntouchedRule,
 *             probes: { ratePerSecond: number, ratePerSecondByProbe?: Record<string, number>, timeoutMillis: number,
 *                       leastEventLoopShare: number, endpoints: Record<string, string> },
 *             baselineSeconds: number, drainSeconds: number,
 *             quick: { baselineSeconds: number, drainSeconds: number, phases: Record<string, number> },
 *             phases: PlanPhase[] }} Plan
 *   quick.phases: the phases a quick run runs, each for the seconds it gives
 * @typedef {{ probeTimeoutMs: number, eventLoops: number, workTimeoutMs: number, reportDir: string, cpus: number | null }} RunKnobs
 */

/**
 * The knobs that shape every layout: the plan's timing (its quick run's with QUICK=true) and the
 * probes' rate. `phases`: the plan's default-JVM phases (k6 cannot restart the server), in a quick
 * run those of quick.phases, at its seconds.
 *
 * @param {Env} env
 * @param {Plan} plan
 */
export function layoutKnobs(env, plan) {
  const quick = bool(env, 'QUICK', false);
  const timing = quick ? plan.quick : plan;
  const defaults = plan.phases.filter((p) => p.jvm === 'default');
  return {
    defaults,
    phases: quick ? defaults.filter((p) => p.name in plan.quick.phases).map((p) => Object.assign({}, p, { seconds: plan.quick.phases[p.name] }))
      : defaults,
    baselineSeconds: int(env, 'BASELINE_SECONDS', timing.baselineSeconds, 0),
    drainSeconds: int(env, 'DRAIN_SECONDS', timing.drainSeconds, 0),
    probeRate: given(env, 'PROBE_RATE') ? int(env, 'PROBE_RATE', 0, 1) : null,
  };
}

/**
 * How k6 runs any layout (lib-run.js): the requests' timeouts, the event loops the probes are broken
 * down by, where the report goes, and the processors each target's JVM must see (null: not checked).
 *
 * @param {Env} env
 * @param {Plan} plan
 * @returns {RunKnobs}
 */
export function runKnobs(env, plan) {
  return {
    probeTimeoutMs: int(env, 'PROBE_TIMEOUT_MS', plan.probes.timeoutMillis, 1),
    eventLoops: int(env, 'EVENT_LOOPS', 8, 1),
    workTimeoutMs: int(env, 'WORK_TIMEOUT_MS', 60000, 1),
    reportDir: given(env, 'REPORT_DIR') ? env.REPORT_DIR : '.',
    cpus: given(env, 'CPUS') ? int(env, 'CPUS', 0, 1) : null,
  };
}

/**
 * A load's size and length from the plan phase it follows: LOAD_SECONDS, LOAD_VUS, LOAD_MAX_VUS, LOAD_RATE.
 *
 * @param {Env} env
 * @param {PlanPhase} phase
 */
export function loadKnobs(env, phase) {
  const vus = int(env, 'LOAD_VUS', phase.concurrency, 1);
  return { seconds: int(env, 'LOAD_SECONDS', phase.seconds, 1), vus, maxVus: int(env, 'LOAD_MAX_VUS', vus, vus), rate: int(env, 'LOAD_RATE', 0, 0) };
}

/** A probe's rate: PROBE_RATE, or the plan's for that probe. @param {Plan} plan @param {number | null} probeRate @param {string} probe */
export function rateOf(plan, probeRate, probe) {
  const byProbe = plan.probes.ratePerSecondByProbe || {};
  return probeRate !== null ? probeRate : byProbe[probe] !== undefined ? byProbe[probe] : plan.probes.ratePerSecond;
}

/** Refuses the knobs of another script, saying why. @param {Env} env @param {string[]} knobs @param {string} why */
export function refuse(env, knobs, why) {
  for (const knob of knobs.filter((k) => given(env, k))) {
    throw new Error(`${knob} ${why}`);
  }
}

/** Whether a knob is set to something. @param {Env} env @param {string} name */
export function given(env, name) {
  return env[name] !== undefined && env[name] !== '';
}

/** @param {Env} env @param {string} name @param {number} fallback @param {number} min @param {number} [max] */
export function int(env, name, fallback, min, max = Number.MAX_SAFE_INTEGER) {
  const raw = env[name];
  if (!given(env, name)) {
    return fallback;
  }
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}, not '${raw}'`);
  }
  return Number(raw);
}

/** @param {Env} env @param {string} name @param {string} fallback @param {string[]} allowed */
export function choice(env, name, fallback, allowed) {
  const value = given(env, name) ? env[name] : fallback;
  if (!allowed.includes(value)) {
    throw new Error(`${name} must be one of ${allowed.join(', ')}, not '${value}'`);
  }
  return value;
}

/** @param {Env} env @param {string} name @param {boolean} fallback */
export function bool(env, name, fallback) {
  if (!given(env, name)) {
    return fallback;
  }
  if (env[name] !== 'true' && env[name] !== 'false') {
    throw new Error(`${name} must be true or false, not '${env[name]}'`);
  }
  return env[name] === 'true';
}

/** Comma-separated values; set but empty: none. @param {Env} env @param {string} name @param {string} fallback */
export function list(env, name, fallback) {
  return (env[name] === undefined ? fallback : env[name]).split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

/** A service's URL: http(s) and a host, no path. @param {Env} env @param {string} name @param {string} [fallback] */
export function url(env, name, fallback) {
  const value = env[name] || fallback || '';
  if (!/^https?:\/\/[^/\s]+$/.test(value.replace(/\/+$/, ''))) {
    throw new Error(`${name} must be an http(s) URL without a path, like http://localhost:8080, not '${value}'`);
  }
  return value.replace(/\/+$/, '');
}
