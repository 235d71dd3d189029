// Probes: the unrelated endpoints whose latency shows who starves, and the set-up checks.

import http from 'k6/http';
import { Rate } from 'k6/metrics';
import { PROBE_ERRORS } from './lib-thresholds.js';

/** Share of probe answers that were not 200 (timeouts included), tagged probe, target, phase. */
const probeErrors = new Rate(PROBE_ERRORS);

/** The /lab/info facts the report states beside every result. */
export const LAB_FACTS = ['javaVersion', 'javaVendor', 'availableProcessors', 'carrierParallelism',
  'carrierMaxPoolSize', 'lockingMode', 'synchronizedPins', 'nativePinAvailable', 'nativePinUnavailableReason',
  'downstreamPermits', 'permits', 'poolMaxSize', 'modes', 'embeddedDatabase', 'jvmArguments'];

/**
 * One probe request, tagged probe:<name>, target:<name>, phase:<window>.
 *
 * @param {import('./lib-config.js').ProbeRoute} route
 * @param {string} phase
 * @param {number} timeoutMs
 */
export function sendProbe(route, phase, timeoutMs) {
  const tags = { kind: 'probe', probe: route.probe, target: route.target, phase };
  const res = http.get(route.url, { tags, timeout: `${timeoutMs}ms` });
  probeErrors.add(res.status !== 200, tags);
  return res;
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
