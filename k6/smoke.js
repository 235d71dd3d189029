// Starvation Lab smoke test: seconds long, to check a deployment answers before a long run.
// Per target: every probe, every health check, /lab/info, /lab/pinning, one short work request
// per mode this JVM supports (native only with FFM), and one through the database.
//
// Targets: PINNED_URL + UNPINNED_URL, or BASE_URL [http://localhost:8080], as in starvation.js.
// Knobs (__ENV, default in brackets):
//   SMOKE_MS [10]      ?ms= of each work request
//   TIMEOUT_MS [10000] request timeout
//
//   k6 run -e BASE_URL=http://localhost:8080 k6/smoke.js

import http from 'k6/http';
import { check } from 'k6';
import { int } from './lib-knobs.js';
import { HEALTH_PATHS, MODES, targetsOf } from './lib-layout.js';
import { predict } from './lib-predictions.js';

const plan = JSON.parse(open('./plan.json'));
const targets = targetsOf(__ENV);
const workMs = int(__ENV, 'SMOKE_MS', 10, 0, 30000);
const timeout = `${int(__ENV, 'TIMEOUT_MS', 10000, 0, 600000)}ms`;

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    smoke: { executor: 'shared-iterations', exec: 'smoke', vus: 1, iterations: 1, maxDuration: '2m' },
  },
  thresholds: {
    checks: [{ threshold: 'rate==1', abortOnFail: false }],
    http_req_failed: [{ threshold: 'rate==0', abortOnFail: false }],
  },
};

/**
 * Every target, every endpoint, once.
 */
export function smoke() {
  for (const target of targets) {
    const tags = { kind: 'smoke', target: target.name };
    for (const [probe, path] of Object.entries(plan.probes.endpoints)) {
      expectOk(`${target.url}${path}`, Object.assign({ probe }, tags), `${target.name} ${path} answers 200`);
    }
    for (const path of HEALTH_PATHS) {
      expectOk(`${target.url}${path}`, tags, `${target.name} ${path} answers 200`);
    }
    expectOk(`${target.url}/lab/pinning`, tags, `${target.name} /lab/pinning answers 200`);

    const infoRes = http.get(`${target.url}/lab/info`, { tags, timeout });
    check(infoRes, { [`${target.name} /lab/info answers 200`]: (r) => r.status === 200 }, tags);
    /** @type {Record<string, unknown>} */
    const info = infoRes.status === 200 ? /** @type {Record<string, unknown>} */ (infoRes.json()) : {};
    const modes = Array.isArray(info.modes) ? /** @type {string[]} */ (info.modes) : MODES;
    check(info, { [`${target.name} /lab/info lists every mode`]: () => MODES.every((m) => modes.includes(m)) }, tags);

    for (const mode of modes) {
      const prediction = predict(mode, 'sleep', info);
      if (prediction.outcome === '501') {
        console.log(`${target.name}: skipping /work/${mode} on Java ${info.javaVersion}: ${prediction.why}`);
        continue;
      }
      expectOk(`${target.url}/work/${mode}?ms=${workMs}&downstream=sleep&lock=private`,
        Object.assign({ mode }, tags), `${target.name} /work/${mode} answers 200`);
    }
    expectOk(`${target.url}/work/unpinned?ms=${workMs}&downstream=db&lock=private`,
      Object.assign({ mode: 'unpinned' }, tags), `${target.name} /work/unpinned through the database answers 200`);
  }
}

/**
 * @param {string} url
 * @param {Record<string, string>} tags
 * @param {string} name
 */
function expectOk(url, tags, name) {
  const res = http.get(url, { tags, timeout });
  check(res, { [name]: (r) => r.status === 200 }, tags);
}

