// The load: GET /work/{mode}, one request per iteration.
//
// A 503 (permits exhausted, too many requests in flight, database down) is the service shedding
// load as designed, not a broken request: it is marked expected, so http_req_failed counts only
// real failures, and counted apart in work_overloaded. Anything else but 200 is a work_error.
// work_completed counts the 200s answered inside the load's window, so that completed / seconds is
// the window's throughput: those answered in the drain after it (gracefulStop) came after it.

import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Rate } from 'k6/metrics';
import { WORK_COMPLETED, WORK_ERRORS, WORK_OVERLOADED } from './lib-thresholds.js';

const completed = new Counter(WORK_COMPLETED);
const overloaded = new Rate(WORK_OVERLOADED);
const errors = new Rate(WORK_ERRORS);
const answersAsDesigned = http.expectedStatuses(200, 503);

/**
 * @param {import('./lib-config.js').Load} load
 */
export function workUrl(load) {
  return `${load.url}/work/${load.mode}?ms=${load.ms}&downstream=${load.downstream}&lock=${load.lock}`;
}

/**
 * One unit of work, tagged kind:work, mode, target and phase.
 *
 * @param {import('./lib-config.js').Load} load
 * @param {number} timeoutMs
 */
export function sendWork(load, timeoutMs) {
  const tags = { kind: 'work', mode: load.mode, target: load.target, phase: load.phase };
  const res = http.get(workUrl(load), { tags, timeout: `${timeoutMs}ms`, responseCallback: answersAsDesigned });
  if (res.status === 200 && Date.now() - exec.scenario.startTime <= load.seconds * 1000) {
    completed.add(1, tags);
  }
  overloaded.add(res.status === 503, tags);
  errors.add(res.status !== 200 && res.status !== 503, tags);
  return res;
}
