// smoke.js: one iteration reaches every probe, every health check, /lab/info, /lab/pinning and one
// short work request per mode the target's JVM supports, and checks each answer, against a stand-in
// that answers by the service's contract (a request off the contract fails its check).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeService, HEALTH_PATHS, JDK21_INFO, JDK25_INFO, MODES, PROBE_PATHS } from '../harness/fake-service.mjs';
import { fixture, SMOKE, TWO_TARGETS } from '../harness/paths.mjs';
import { loadScript } from '../harness/runtime.mjs';

/**
 * What a smoke run left unchecked: endpoints of a target never requested, failed checks, requests unchecked.
 *
 * @param {{ env?: Record<string, string>, info: Record<string, any>, status?: (url: URL) => number | undefined }} run
 */
async function smokeProblems(path, run) {
  const script = await loadScript(path, { env: run.env, transport: fakeService(run) });
  script.iterate('smoke', undefined);
  const { requests, checks } = script.ctx;
  const problems = [];
  for (const base of run.env ? Object.values(run.env) : ['http://localhost:8080']) {
    const paths = requests.filter((r) => r.url.startsWith(`${base}/`)).map((r) => new URL(r.url).pathname);
    const wanted = [...PROBE_PATHS, ...HEALTH_PATHS, '/lab/info', '/lab/pinning', ...MODES.filter((m) => m !== 'native' || run.info.nativePinAvailable).map((m) => `/work/${m}`)];
    problems.push(...wanted.filter((p) => !paths.includes(p)).map((p) => `${base}${p} is never requested`));
    if (!run.info.nativePinAvailable && paths.includes('/work/native')) {
      problems.push(`${base}/work/native requested on a JVM without FFM`);
    }
  }
  problems.push(...checks.filter((c) => !c.ok).map((c) => `check failed: ${c.name}`));
  if (checks.length < requests.length) {
    problems.push(`${requests.length} requests but only ${checks.length} checks`);
  }
  return { problems, requests };
}

test('smoke.js covers every endpoint of both targets on JDK 21 (native skipped), and of one with FFM; all checks pass', async () => {
  const jdk21 = await smokeProblems(SMOKE, { env: TWO_TARGETS, info: JDK21_INFO });
  assert.deepEqual(jdk21.problems, []);
  assert.ok(jdk21.requests.some((r) => r.url.endsWith('/work/unpinned?ms=10&downstream=db&lock=private')));
  const jdk25 = await smokeProblems(SMOKE, { env: { BASE_URL: 'http://localhost:18080' }, info: JDK25_INFO });
  assert.deepEqual(jdk25.problems, []);
  assert.ok(jdk25.requests.some((r) => r.url === 'http://localhost:18080/work/native?ms=10&downstream=sleep&lock=private'));
});

test('smoke.js checks fail when an endpoint does not answer 200', async () => {
  const { problems } = await smokeProblems(SMOKE, { env: TWO_TARGETS, info: JDK21_INFO, status: (url) => (url.pathname === '/q/health/started' ? 503 : undefined) });
  assert.deepEqual(problems, ['check failed: pinned /q/health/started answers 200', 'check failed: unpinned /q/health/started answers 200']);
});

test('the coverage check refuses fixtures/broken-smoke-coverage.js (probes only)', async () => {
  const { problems } = await smokeProblems(fixture('broken-smoke-coverage.js'), { info: JDK21_INFO });
  assert.ok(problems.includes('http://localhost:8080/lab/info is never requested'), JSON.stringify(problems));
  assert.ok(problems.includes('http://localhost:8080/work/cpu is never requested'), JSON.stringify(problems));
});
