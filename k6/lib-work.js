// The load: GET /work/{mode} on the lab, or your own request on your own service; one request per
// iteration.
//
// A 503 (permits exhausted, too many requests in flight, database down) is the service shedding
// load as designed, not a broken request: it is marked expected, so http_req_failed counts only
// real failures, and counted apart in work_overloaded. Anything else but 2xx is a work_error.
// work_completed counts the 2xx answered inside the load's window, so that completed / seconds is
// the window's throughput: those answered in the drain after it (gracefulStop) came after it.

import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Rate } from 'k6/metrics';
import { WORK_COMPLETED, WORK_ERRORS, WORK_OVERLOADED } from './lib-thresholds.js';

const completed = new Counter(WORK_COMPLETED);
const overloaded = new Rate(WORK_OVERLOADED);
const errors = new Rate(WORK_ERRORS);
const answersAsDesigned = http.expectedStatuses({ min: 200, max: 299 }, 503);

/**
 * The request() a module of yours exports (LOAD_MODULE): it sends your request with the params it is
 * given (tags, timeout, responseCallback; merge your own headers in) and returns k6's response.
 *
 * @typedef {(params: import('k6/http').Params) => import('k6/http').RefinedResponse<any>} RequestFunction
 */

/**
 * @param {import('./lib-layout.js').Load} load
 */
export function workUrl(load) {
  return `${load.url}/work/${load.mode}?ms=${load.ms}&downstream=${load.downstream}&lock=${load.lock}`;
}

/**
 * One unit of work, tagged kind:work, mode, target and phase.
 *
 * @param {import('./lib-layout.js').Load} load
 * @param {number} timeoutMs
 * @param {RequestFunction | null} [yours] LOAD_MODULE's request()
 */
export function sendWork(load, timeoutMs, yours = null) {
  const tags = { kind: 'work', mode: load.mode, target: load.target, phase: load.phase };
  const params = { tags, timeout: `${timeoutMs}ms`, responseCallback: answersAsDesigned };
  const res = load.request ? sendRequest(load.request, params, yours) : http.get(workUrl(load), params);
  const ok = res.status >= 200 && res.status <= 299;
  if (ok && Date.now() - exec.scenario.startTime <= load.seconds * 1000) {
    completed.add(1, tags);
  }
  overloaded.add(res.status === 503, tags);
  errors.add(!ok && res.status !== 503, tags);
  return res;
}

/**
 * Your request with the suite's params: LOAD_URL's method, URL and body, or LOAD_MODULE's request().
 *
 * @param {import('./lib-layout.js').YourRequest} request
 * @param {import('k6/http').Params} params
 * @param {RequestFunction | null} yours LOAD_MODULE's request()
 * @returns {import('k6/http').RefinedResponse<any>}
 */
export function sendRequest(request, params, yours) {
  if (request.module !== null) {
    if (yours === null) {
      throw new Error(`LOAD_MODULE ${request.module}: its request() was not loaded`);
    }
    const res = yours(params);
    if (!res || typeof res.status !== 'number' || !res.timings) {
      throw new Error(`LOAD_MODULE ${request.module}: request(params) must return the response of its k6/http call`);
    }
    return res;
  }
  const headers = Object.assign(request.contentType === null ? {} : { 'Content-Type': request.contentType }, params.headers || {});
  return http.request(request.method, request.url, request.body, Object.assign({}, params, { headers }));
}
