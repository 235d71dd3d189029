// Probes: the unrelated endpoints whose latency shows who starves, and the set-up checks.

import http from 'k6/http';
import { Rate, Trend } from 'k6/metrics';
import { eventLoopOf } from './lib-config.js';
import { PROBE_ERRORS, PROBE_WAIT, SLOW_PROBE_SECONDS, probeOverMetric } from './lib-thresholds.js';

/** Share of probe answers that were not 200 (timeouts included), tagged probe, target, phase. */
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
 * @param {import('./lib-config.js').ProbeRoute} route
 * @param {string} phase
 * @param {number} timeoutMs
 * @param {number} eventLoops the layout's EVENT_LOOPS: answers from later loops are tagged 'other'
 */
export function sendProbe(route, phase, timeoutMs, eventLoops) {
  const tags = { kind: 'probe', probe: route.probe, target: route.target, phase };
  // A new connection per probe (the server closes it after the answer): Vert.x hands each new
  // connection to the next event loop, and the order of the endpoints (routeAt) spreads each of them
  // over every event loop.
  const res = http.get(route.url, { tags, timeout: `${timeoutMs}ms`, headers: { Connection: 'close' } });
  probeErrors.add(res.status !== 200, tags);
  const eventLoop = res.status === 200 ? eventLoopOf(answerField(res, 'eventLoop'), eventLoops) : null;
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

/**
 * A field of a JSON answer, or undefined when the body is not a JSON object.
 *
 * @param {import('k6/http').RefinedResponse<any>} res
 * @param {string} name
 */
function answerField(res, name) {
  try {
    const body = res.json();
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? /** @type {Record<string, unknown>} */ (body)[name] : undefined;
  } catch (error) {
    return undefined;
  }
}

/** Requests per probe endpoint and per work request in the warm-up. */
const WARM_UP = { probes: 100, work: 20 };

/**
 * Runs each probe endpoint and each work request the run will send (1 ms of work) a number of times,
 * so that the baseline measures a service whose code paths are compiled, not one still warming up
 * (measured: a fresh service's idle /probe/virtual p99 137 ms without, 11-14 ms with).
 *
 * @param {import('./lib-config.js').Target} target
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
 * Fails fast unless the target is ready, then returns its /lab/info facts.
 *
 * @param {import('./lib-config.js').Target} target
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
  const body = /** @type {Record<string, unknown>} */ (info.json());
  /** @type {Record<string, unknown>} */
  const facts = {};
  for (const key of LAB_FACTS) {
    facts[key] = body[key] === undefined ? null : body[key];
  }
  return { ok: true, facts };
}
