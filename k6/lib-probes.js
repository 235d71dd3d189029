// Probes: the unrelated endpoints whose latency shows who starves, and the set-up checks.

import http from 'k6/http';
import { Rate, Trend } from 'k6/metrics';
import { eventLoopOf } from './lib-probe-schedule.js';
import { PROBE_ERRORS, PROBE_WAIT, SLOW_PROBE_SECONDS, probeOverMetric } from './lib-thresholds.js';
import { sendRequest } from './lib-work.js';

/** Share of probe answers that were not 2xx (timeouts included), tagged probe, target, phase. */
const probeErrors = new Rate(PROBE_ERRORS);
/** Each answer's wait again, tagged with the event loop that served it (known only from the answer). */
const probeWait = new Trend(PROBE_WAIT, true);
/** Shares of probes that waited longer than 1 s and 3 s, per probe and, where known, event loop. */
const probeOver = SLOW_PROBE_SECONDS.map((seconds) => ({ ms: seconds * 1000, rate: new Rate(probeOverMetric(seconds)) }));

/** The /lab/info facts the report states beside every result. */
export const LAB_FACTS = ['javaVersion', 'javaVendor', 'availableProcessors', 'carrierParallelism',
  'carrierMaxPoolSize', 'lockingMode', 'synchronizedPins', 'nativePinAvailable', 'nativePinUnavailableReason',
  'virtualPollers', 'downstreamPermits', 'permits', 'poolMaxSize', 'modes', 'eventLoops', 'embeddedDatabase', 'jvmArguments'];

/**
 * One probe request, tagged probe:<name>, target:<name>, phase:<window>. Its wait is recorded again
 * with event_loop:<n>, the event loop its answer names (a service that names none: no event_loop).
 *
 * @param {import('./lib-layout.js').ProbeRoute} route
 * @param {string} phase
 * @param {number} timeoutMs
 * @param {number} eventLoops the run's EVENT_LOOPS: answers from later loops are tagged 'other'
 * @param {import('./lib-work.js').RequestFunction | null} [yours] LOAD_MODULE's request(), for the load's own request as a probe
 */
export function sendProbe(route, phase, timeoutMs, eventLoops, yours = null) {
  const tags = { kind: 'probe', probe: route.probe, target: route.target, phase };
  // A new connection per probe (the server closes it after the answer): Vert.x hands each new
  // connection to the next event loop, and the order of the endpoints (routeAt) spreads each of them
  // over every event loop.
  const params = { tags, timeout: `${timeoutMs}ms`, headers: { Connection: 'close' } };
  const res = route.request ? sendRequest(route.request, params, yours) : http.get(route.url, params);
  const ok = res.status >= 200 && res.status <= 299;
  probeErrors.add(!ok, tags);
  const eventLoop = ok ? eventLoopOf((answerBody(res) || {}).eventLoop, eventLoops) : null;
  /** @type {Record<string, string>} */
  const waitTags = eventLoop === null ? tags : Object.assign({ event_loop: eventLoop }, tags);
  const wait = res.timings.duration;
  if (eventLoop !== null) {
    probeWait.add(wait, waitTags);
  }
  for (const over of probeOver) {
    over.rate.add(wait > over.ms, waitTags);
  }
  return res;
}

/** Requests per probe endpoint and per work request in the warm-up. */
const WARM_UP = { probes: 100, work: 20 };

/**
 * Runs each probe endpoint and each work request the run will send (1 ms of work) a number of times,
 * so that the baseline measures a service whose code paths are compiled, not one still warming up
 * (measured: a fresh service's idle /probe/virtual p99 137 ms without, 11-14 ms with).
 *
 * @param {import('./lib-layout.js').Target} target
 * @param {string[]} probePaths
 * @param {string[]} workPaths paths with their queries
 */
export function warmUp(target, probePaths, workPaths) {
  const tags = { kind: 'warm-up', target: target.name };
  for (const path of probePaths) {
    for (let i = 0; i < WARM_UP.probes; i++) {
      http.get(`${target.url}${path}`, { tags, timeout: '10s', headers: { Connection: 'close' } });
    }
  }
  for (const path of workPaths) {
    for (let i = 0; i < WARM_UP.work; i++) {
      http.get(`${target.url}${path}`, { tags, timeout: '10s', responseCallback: http.expectedStatuses(200, 503) });
    }
  }
}

/**
 * Your own service's warm-up: each watched endpoint and the load's request, as warmUp does the lab's.
 *
 * @param {import('./lib-layout.js').Target} target
 * @param {import('./lib-layout.js').ProbeRoute[]} routes
 * @param {import('./lib-layout.js').YourRequest} request
 * @param {import('./lib-work.js').RequestFunction | null} yours LOAD_MODULE's request()
 */
export function warmUpService(target, routes, request, yours) {
  const tags = { kind: 'warm-up', target: target.name };
  for (const route of routes.filter((r) => !r.request)) {
    for (let i = 0; i < WARM_UP.probes; i++) {
      http.get(route.url, { tags, timeout: '10s', headers: { Connection: 'close' } });
    }
  }
  for (let i = 0; i < WARM_UP.work; i++) {
    sendRequest(request, { tags, timeout: '10s', responseCallback: http.expectedStatuses({ min: 200, max: 299 }, 503) }, yours);
  }
}

/**
 * Fails fast unless every watched endpoint of your own service answers 2xx, then returns the
 * service's /lab/info facts where it has them, or null: a service that is not the lab has none, and
 * its 404 is no failure.
 *
 * @param {import('./lib-layout.js').Target} target
 * @param {import('./lib-layout.js').ProbeRoute[]} routes
 * @returns {{ ok: true, facts: Record<string, unknown> | null } | { ok: false, reason: string }}
 */
export function inspectService(target, routes) {
  const tags = { kind: 'setup', target: target.name };
  for (const route of routes.filter((r) => !r.request)) {
    const res = http.get(route.url, { tags, timeout: '10s' });
    if (res.status < 200 || res.status > 299) {
      const answer = res.status === 0 ? `no answer (${res.error})` : `HTTP ${res.status}`;
      return { ok: false, reason: `${route.probe} ${route.url} is not ready: GET gave ${answer}` };
    }
  }
  const info = http.get(`${target.url}/lab/info`, { tags, timeout: '10s', responseCallback: http.expectedStatuses({ min: 200, max: 499 }) });
  const body = info.status === 200 ? answerBody(info) : undefined;
  return { ok: true, facts: body === undefined ? null : factsOf(body) };
}

/**
 * The LAB_FACTS of a /lab/info answer, null where it has none.
 *
 * @param {Record<string, unknown>} body
 */
function factsOf(body) {
  return Object.fromEntries(LAB_FACTS.map((key) => [key, body[key] === undefined ? null : body[key]]));
}

/**
 * A JSON object answer, or undefined.
 *
 * @param {import('k6/http').RefinedResponse<any>} res
 * @returns {Record<string, unknown> | undefined}
 */
function answerBody(res) {
  try {
    const body = res.json();
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? /** @type {Record<string, unknown>} */ (body) : undefined;
  } catch (error) {
    return undefined;
  }
}

/**
 * Fails fast unless the target is ready, then returns its /lab/info facts.
 *
 * @param {import('./lib-layout.js').Target} target
 * @returns {{ ok: true, facts: Record<string, unknown> } | { ok: false, reason: string }}
 */
export function inspectTarget(target) {
  const tags = { kind: 'setup', target: target.name };
  const ready = http.get(`${target.url}/q/health/ready`, { tags, timeout: '10s' });
  if (ready.status !== 200) {
    const answer = ready.status === 0 ? `no answer (${ready.error})` : `HTTP ${ready.status}`;
    return { ok: false, reason: `${target.name} target ${target.url} is not ready: GET /q/health/ready gave ${answer}` };
  }
  const info = http.get(`${target.url}/lab/info`, { tags, timeout: '10s' });
  if (info.status !== 200) {
    return { ok: false, reason: `${target.name} target ${target.url}: GET /lab/info gave HTTP ${info.status}` };
  }
  return { ok: true, facts: factsOf(/** @type {Record<string, unknown>} */ (info.json())) };
}
