// Starvation Lab against your own service: your load after a baseline, the endpoints you name
// watched, "starved" and "untouched" judged by the plan's rules (plan.json 'starved', 'untouched') as
// starvation.js judges the lab's probes. /lab/info is read where the service has one (its facts and
// event loops, for the report); no prediction of your request is judged, and without /lab/info the
// report says the facts are unknown (k6/README.md, "Your own service").
//
// Knobs (__ENV, default in brackets; "plan" means k6/plan.json, shared with the Java runner):
//   LOAD_URL [unset]           the load's request URL, http(s)://host:port/path?query; BASE_URL is
//                              its origin unless set
//   LOAD_METHOD [GET]          its method: GET, POST, PUT, PATCH or DELETE
//   LOAD_BODY [unset]          its body
//   LOAD_CONTENT_TYPE [application/json]  the body's Content-Type
//   LOAD_MODULE [unset]        instead of LOAD_URL: a module of yours (absolute, or relative to this
//                              script) exporting request(params), which sends your request with params
//                              and returns k6's response; BASE_URL names the service
//   WATCH [health=/q/health/live]  the endpoints to watch, name=URL comma-separated (a URL may be a
//                              path on BASE_URL); each answers 2xx to a GET when the run starts
//   WATCH_STARVED [load]       the name in WATCH of an endpoint on virtual threads that the plan's
//                              starved rule judges, or load (the load's own request, as a probe);
//                              the untouched rule judges every other
//   EXPECT_STARVED [unset]     true or false: what the thresholds expect of WATCH_STARVED's endpoint
//                              under the load; unset: recorded, judged in the report only
//   BASE_URL [LOAD_URL's origin]  your service, for /lab/info and WATCH's paths
//   LOAD_VUS, LOAD_RATE, LOAD_MAX_VUS, LOAD_SECONDS, BASELINE_SECONDS, DRAIN_SECONDS, QUICK, PROBE_RATE,
//   PROBE_TIMEOUT_MS, EVENT_LOOPS, WORK_TIMEOUT_MS, REPORT_DIR  as in starvation.js, for the one load
//                              window (defaults: the plan's first default-JVM phase); PROBE_RATE sets
//                              every watched endpoint's rate (plan: WATCH_STARVED's the virtual probe's)
//
//   k6 run -e LOAD_URL='http://localhost:8081/native?ms=100' -e WATCH='hello=/hello,health=/health' \
//     -e WATCH_STARVED=hello -e EXPECT_STARVED=true k6/own-service.js

import { runKnobs } from './lib-knobs.js';
import { buildOwnLayout } from './lib-own-service.js';
import { inspectService, warmUpService } from './lib-probes.js';
import { runOf } from './lib-run.js';

const plan = JSON.parse(open('./plan.json'));
const layout = buildOwnLayout(__ENV, plan);
const yourLoad = layout.loads[0];
const yourRequest = /** @type {import('./lib-layout.js').YourRequest} */ (yourLoad.request);
const yours = requestOf(yourRequest.module);
const run = runOf(layout, runKnobs(__ENV, plan), yours);

/** @type {import('k6/options').Options} */
export const options = run.options;
export const probe = run.probe;
export const handleSummary = run.handleSummary;

/**
 * LOAD_MODULE's request(), loaded in the init context (k6's require() takes a path known only at run
 * time; its import() does not load modules).
 *
 * @param {string | null} path
 * @returns {import('./lib-work.js').RequestFunction | null}
 */
function requestOf(path) {
  if (path === null) {
    return null;
  }
  const module = /** @type {Record<string, unknown>} */ (require(path));
  if (typeof module.request !== 'function') {
    throw new Error(`LOAD_MODULE ${path} exports no request(params) function`);
  }
  return /** @type {import('./lib-work.js').RequestFunction} */ (module.request);
}

/**
 * Fails fast unless every watched endpoint answers; records the service's /lab/info where it has
 * one, and warms it up before the baseline.
 */
export function setup() {
  const target = layout.targets[0];
  const facts = run.ready(inspectService(target, layout.probes), target, 'LOAD_URL (or BASE_URL) and WATCH');
  if (facts === null) {
    console.log(`${target.name}: ${target.url}/lab/info gives no facts: the report says they are unknown and judges no prediction.`);
  }
  warmUpService(target, layout.probes, yourRequest, yours);
  return { targets: { [target.name]: { url: target.url, facts } } };
}

/** One request of your load. */
export function load() {
  run.work(yourLoad);
}

