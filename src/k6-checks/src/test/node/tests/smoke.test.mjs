// smoke.js: one iteration reaches every probe, every health check, /lab/info, /lab/pinning and
// one short work request per mode the target's JVM supports, and checks each answer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractProblems, HEALTH_PATHS, LAB_PATHS, MODES, PROBE_PATHS } from '../harness/contract.mjs';
import { fakeService, JDK21_INFO, JDK25_INFO } from '../harness/fake-service.mjs';
import { fixture, SMOKE, TWO_TARGETS } from '../harness/paths.mjs';
import { loadScript } from '../harness/runtime.mjs';

/**
 * What a smoke run left unchecked, per target: endpoints never requested, failed checks.
 *
 * @param {import('../harness/runtime.mjs').LoadedScript} script
 * @param {string[]} targetUrls
 * @param {Record<string, unknown>} info
 */
function coverageProblems(script, targetUrls, info) {
  const problems = [];
  const requests = script.ctx.requests;
  for (const base of targetUrls) {
    const paths = requests.filter((r) => r.url.startsWith(`${base}/`)).map((r) => new URL(r.url).pathname);
    const wanted = [...PROBE_PATHS, ...HEALTH_PATHS, ...LAB_PATHS,
      ...MODES.filter((m) => m !== 'native' || info.nativePinAvailable === true).map((m) => `/work/${m}`)];
    for (const path of wanted) {
      if (!paths.includes(path)) {
        problems.push(`${base}${path} is never requested`);
      }
    }
    if (info.nativePinAvailable !== true && paths.includes('/work/native')) {
      problems.push(`${base}/work/native requested on a JVM without FFM`);
    }
  }
  for (const request of requests) {
    problems.push(...contractProblems(request));
  }
  problems.push(...script.ctx.checks.filter((c) => !c.ok).map((c) => `check failed: ${c.name}`));
  if (script.ctx.checks.length < requests.length) {
    problems.push(`${requests.length} requests but only ${script.ctx.checks.length} checks`);
  }
  return problems;
}

test('smoke.js covers every endpoint of both targets on JDK 21 (native skipped) and all checks pass', async () => {
  const script = await loadScript(SMOKE, { env: TWO_TARGETS, transport: fakeService({ info: JDK21_INFO }) });
  script.iterate('smoke', script.setup());
  assert.deepEqual(coverageProblems(script, [TWO_TARGETS.PINNED_URL, TWO_TARGETS.UNPINNED_URL], JDK21_INFO), []);
  assert.ok(script.ctx.requests.some((r) => r.url.endsWith('/work/unpinned?ms=10&downstream=db&lock=private')));
});

test('smoke.js sends native on a JVM with FFM', async () => {
  const script = await loadScript(SMOKE, { env: { BASE_URL: 'http://localhost:18080' }, transport: fakeService({ info: JDK25_INFO }) });
  script.iterate('smoke', script.setup());
  assert.deepEqual(coverageProblems(script, ['http://localhost:18080'], JDK25_INFO), []);
  assert.ok(script.ctx.requests.some((r) => r.url === 'http://localhost:18080/work/native?ms=10&downstream=sleep&lock=private'));
});

test('smoke.js checks fail when an endpoint does not answer 200', async () => {
  const script = await loadScript(SMOKE, { env: TWO_TARGETS,
    transport: fakeService({ status: (url) => (url.pathname === '/q/health/started' ? 503 : undefined) }) });
  script.iterate('smoke', script.setup());
  assert.deepEqual(script.ctx.checks.filter((c) => !c.ok).map((c) => c.name),
    ['pinned /q/health/started answers 200', 'unpinned /q/health/started answers 200']);
});

test('the coverage check refuses fixtures/broken-smoke-coverage.js (probes only)', async () => {
  const script = await loadScript(fixture('broken-smoke-coverage.js'), { transport: fakeService({ info: JDK21_INFO }) });
  script.iterate('smoke', script.setup());
  const problems = coverageProblems(script, ['http://localhost:8080'], JDK21_INFO);
  assert.ok(problems.includes('http://localhost:8080/lab/info is never requested'), JSON.stringify(problems));
  assert.ok(problems.includes('http://localhost:8080/work/cpu is never requested'), JSON.stringify(problems));
});
