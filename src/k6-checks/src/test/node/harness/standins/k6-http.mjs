// Stand-in for 'k6/http': synchronous requests through the harness transport (an in-process fake
// of the service, or a forwarder to a live one), each recorded with its tags and parameters.

import { context } from '../context.mjs';

const KNOWN_PARAMS = ['auth', 'compression', 'cookies', 'headers', 'jar', 'redirects', 'responseType', 'tags',
  'timeout', 'responseCallback'];
const DEFAULT_TIMEOUT_MS = 60000;

class ExpectedStatuses {
  /** @param {Array<number | { min: number, max: number }>} statuses */
  constructor(statuses) {
    this.statuses = statuses;
  }

  /** @param {number} status */
  accepts(status) {
    return this.statuses.some((s) => (typeof s === 'number' ? s === status : status >= s.min && status <= s.max));
  }
}

const defaultCallback = new ExpectedStatuses([{ min: 200, max: 399 }]);

/** @param {Array<number | { min: number, max: number }>} statuses */
export function expectedStatuses(...statuses) {
  for (const s of statuses) {
    const valid = typeof s === 'number' ? Number.isInteger(s) : Number.isInteger(s?.min) && Number.isInteger(s?.max);
    if (!valid) {
      throw new Error(`k6: expectedStatuses() takes status numbers or {min, max} objects, not ${JSON.stringify(s)}`);
    }
  }
  return new ExpectedStatuses(statuses);
}

/** @param {unknown} callback */
export function setResponseCallback(callback) {
  if (callback !== null && !(callback instanceof ExpectedStatuses)) {
    throw new Error('k6: setResponseCallback() takes the result of http.expectedStatuses() or null');
  }
  context().responseCallback = callback;
}

/** @param {unknown} timeout */
function timeoutMs(timeout) {
  if (timeout === undefined) {
    return DEFAULT_TIMEOUT_MS;
  }
  if (typeof timeout === 'number') {
    return timeout;
  }
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(String(timeout));
  if (!match) {
    throw new Error(`k6: invalid request timeout '${timeout}'`);
  }
  return Number(match[1]) * { ms: 1, s: 1000, m: 60000 }[match[2]];
}

class Response {
  /**
   * @param {string} method
   * @param {string} url
   * @param {import('../context.mjs').TransportResponse} answer
   */
  constructor(method, url, answer) {
    this.url = url;
    this.status = answer.status;
    this.body = answer.body;
    this.headers = answer.headers;
    this.error = answer.error || '';
    this.error_code = answer.errorCode || 0;
    this.timings = { duration: answer.durationMs, waiting: answer.durationMs, blocked: 0, connecting: 0,
      tls_handshaking: 0, sending: 0, receiving: 0 };
    this.request = { method, url };
  }

  json() {
    return JSON.parse(this.body);
  }
}

/**
 * @param {string} method
 * @param {string} url
 * @param {string | null} body
 * @param {Record<string, any>} [params]
 */
export function request(method, url, body = null, params = {}) {
  const ctx = context();
  if (ctx.stage === 'init') {
    throw new Error(`k6: making HTTP requests in the init context is not supported (${method} ${url})`);
  }
  for (const key of Object.keys(params || {})) {
    if (!KNOWN_PARAMS.includes(key)) {
      throw new Error(`k6: unknown request parameter '${key}' (${method} ${url})`);
    }
  }
  const callback = params.responseCallback !== undefined ? params.responseCallback : ctx.responseCallback;
  if (callback !== undefined && callback !== null && !(callback instanceof ExpectedStatuses)) {
    throw new Error('k6: responseCallback must come from http.expectedStatuses()');
  }
  const answer = ctx.transport({ method, url, body, headers: { ...(params.headers || {}) }, timeoutMs: timeoutMs(params.timeout) });
  const expected = (callback || defaultCallback).accepts(answer.status);
  const tags = { ...(params.tags || {}) };
  ctx.requests.push({ method, url, tags, params, status: answer.status, expected, stage: ctx.stage,
    scenario: ctx.stage === 'vu' ? ctx.exec.scenario.name : null, error: answer.error });
  ctx.samples.push({ metric: 'http_req_duration', value: answer.durationMs, tags });
  ctx.samples.push({ metric: 'http_req_failed', value: expected ? 0 : 1, tags });
  return new Response(method, url, answer);
}

/**
 * @param {string} url
 * @param {Record<string, any>} [params]
 */
export function get(url, params) {
  return request('GET', url, null, params);
}

/**
 * @param {string} url
 * @param {string | null} body
 * @param {Record<string, any>} [params]
 */
export function post(url, body, params) {
  return request('POST', url, body, params);
}

export function batch() {
  throw new Error('k6/http batch() has no stand-in in the harness');
}

export default { get, post, request, batch, expectedStatuses, setResponseCallback };
