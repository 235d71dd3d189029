// Your own service's layout (own-service.js): one load window of your request after the baseline,
// and the endpoints WATCH names as the probes. Pure functions, no k6 imports.

import { bool, choice, given, layoutKnobs, list, loadKnobs, rateOf, refuse, url } from './lib-knobs.js';
import { readRules } from './lib-rules.js';

/** Your own service's target, its load window, and the name WATCH_STARVED gives the load's own request. */
const OWN_TARGET = 'service';
const OWN_WINDOW = 'load';
const LOAD_PROBE = 'load';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Knobs of the lab's layouts (starvation.js), which your own service's layout has no use for. */
const LAB_KNOBS = ['MS', 'DOWNSTREAM', 'LOCK', 'PHASES', 'STARVING_MODES', 'PINNED_MODE', 'UNPINNED_MODE'];

/**
 * Your request (LOAD_URL with LOAD_METHOD and LOAD_BODY, or LOAD_MODULE's request()) after the
 * baseline, and the endpoints WATCH names as the probes. The plan's starved rule judges the one
 * WATCH_STARVED names (an endpoint on virtual threads, or 'load': the load's own request), the
 * untouched rule every other. Throws with the knob's name on a bad value.
 *
 * @param {Record<string, string>} env
 * @param {import('./lib-knobs.js').Plan} plan
 * @returns {import('./lib-layout.js').Layout}
 */
export function buildOwnLayout(env, plan) {
  if (given(env, 'PINNED_URL') || given(env, 'UNPINNED_URL')) {
    throw new Error('LOAD_URL and LOAD_MODULE load one service of yours: leave PINNED_URL and UNPINNED_URL unset');
  }
  if (given(env, 'LOAD_URL') === given(env, 'LOAD_MODULE')) {
    throw new Error('set LOAD_URL (a method, URL and body) or LOAD_MODULE (a module of yours exporting request()): one, not both');
  }
  refuse(env, LAB_KNOBS, 'is a knob of the lab\'s /work endpoints and plan phases: with LOAD_URL or LOAD_MODULE the request '
    + 'is yours (put it in LOAD_URL or your module), and EXPECT_STARVED says what to expect');
  const module = given(env, 'LOAD_MODULE') ? env.LOAD_MODULE : null;
  refuse(env, module === null ? [] : ['LOAD_METHOD', 'LOAD_BODY', 'LOAD_CONTENT_TYPE'], 'shapes LOAD_URL\'s request: LOAD_MODULE\'s request() sends its own');
  const knobs = layoutKnobs(env, plan);
  const loadUrl = module === null ? requestUrl('LOAD_URL', env.LOAD_URL) : null;
  const base = given(env, 'BASE_URL') || loadUrl === null ? url(env, 'BASE_URL', 'http://localhost:8080') : originOf(loadUrl);
  const method = choice(env, 'LOAD_METHOD', 'GET', METHODS);
  const body = given(env, 'LOAD_BODY') ? env.LOAD_BODY : null;
  if (body !== null && method === 'GET') {
    throw new Error('LOAD_BODY needs a LOAD_METHOD that sends one (POST, PUT, PATCH or DELETE), not GET');
  }
  /** @type {import('./lib-layout.js').YourRequest} */
  const request = { method, url: loadUrl || base, body, contentType: body === null ? null : env.LOAD_CONTENT_TYPE || 'application/json', module,
    label: module !== null ? `request() of ${module}` : `${method} ${loadUrl}` };

  const size = loadKnobs(env, knobs.phases[0]);
  /** @type {import('./lib-layout.js').Expectation} EXPECT_STARVED: what the thresholds expect of the starved rule's endpoint */
  const expected = !given(env, 'EXPECT_STARVED') ? 'depends' : bool(env, 'EXPECT_STARVED', false) ? 'starves' : 'free';
  /** @type {import('./lib-layout.js').Load} */
  const load = Object.assign({ scenario: `load-${OWN_TARGET}`, target: OWN_TARGET, url: base, phase: OWN_WINDOW, mode: 'request',
    downstream: '', lock: '', ms: 0, start: knobs.baselineSeconds, request }, size, { drainSeconds: knobs.drainSeconds, expected });
  const windows = [{ name: 'baseline', start: 0, end: knobs.baselineSeconds },
    { name: OWN_WINDOW, start: knobs.baselineSeconds, end: knobs.baselineSeconds + size.seconds }];

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
  const planRules = readRules(plan);
  // the watched endpoint is measured as the plan's starved probe is, the others as its other probes
  const starvedRate = rateOf(plan, knobs.probeRate, planRules.starved.probe);
  const otherRate = knobs.probeRate !== null ? knobs.probeRate : plan.probes.ratePerSecond;
  const route = (/** @type {string} */ probe, /** @type {string} */ where, /** @type {number} */ rate) =>
    ({ scenario: `probe-${OWN_TARGET}`, target: OWN_TARGET, url: where, probe, path: pathOf(where), rate });
  /** @type {import('./lib-layout.js').ProbeRoute[]} */
  const probes = [starvedName === LOAD_PROBE
    ? Object.assign(route(LOAD_PROBE, request.url, starvedRate), { path: request.label, request })
    : route(starvedName, /** @type {{ url: string }} */ (watched.find((w) => w.name === starvedName)).url, starvedRate),
  ...others.map((w) => route(w.name, w.url, otherRate))];

  return {
    kind: 'own-service',
    targets: [{ name: OWN_TARGET, url: base }],
    loads: [load],
    windows,
    probes,
    rules: {
      starved: Object.assign({}, planRules.starved, { probe: starvedName, endpoint: probes[0].path }),
      untouched: Object.assign({}, planRules.untouched, { probes: others.map((w) => w.name) }),
      leastEventLoopShare: planRules.leastEventLoopShare,
    },
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
