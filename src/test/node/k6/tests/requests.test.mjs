// Each scenario's function, run once against an in-process stand-in of the service: the URLs and
// tags it sends, checked against the contract; setup()'s fail-fast and /lab/info record; 503s.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { K6Abort } from '../harness/context.mjs';
import { contractProblems, tagProblems } from '../harness/contract.mjs';
import { fakeService, JDK21_INFO, JDK25_INFO } from '../harness/fake-service.mjs';
import { fixture, plan, STARVATION, TWO_TARGETS } from '../harness/paths.mjs';
import { loadScript } from '../harness/runtime.mjs';

const ENDPOINTS = plan().probes.endpoints;

/**
 * Runs every scenario once at `at` seconds into the run; returns problems and requests.
 *
 * @param {import('../harness/runtime.mjs').LoadedScript} script
 * @param {(name: string, scenario: any) => number} at
 */
function runAll(script, at) {
  const data = script.setup();
  const problems = [];
  const requests = [];
  for (const [name, scenario] of Object.entries(script.options.scenarios)) {
    const sent = script.iterate(name, data, { at: at(name, scenario) });
    const kind = scenario.exec === 'probe' ? 'probe' : 'work';
    for (const request of sent) {
      problems.push(...contractProblems(request), ...tagProblems(request, kind, ENDPOINTS));
      requests.push({ scenario: name, ...request });
    }
  }
  return { problems, requests, data };
}

test('two targets: every probe of each target once per scenario, tagged probe, target, phase', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  for (const [when, at, phase] of [['baseline', 1, 'baseline'], ['load', plan().baselineSeconds + 2, 'load']]) {
    const { problems, requests } = runAll(script, () => /** @type {number} */ (at));
    assert.deepEqual(problems, [], `${when}: contract problems`);
    const probes = requests.filter((r) => r.tags.kind === 'probe');
    const expected = [];
    for (const [target, url] of [['pinned', TWO_TARGETS.PINNED_URL], ['unpinned', TWO_TARGETS.UNPINNED_URL]]) {
      for (const [probe, path] of Object.entries(ENDPOINTS)) {
        expected.push([`probe-${target}-${probe}`, `${url}${path}`, probe, target, phase]);
      }
    }
    assert.deepEqual(probes.map((r) => [r.scenario, r.url, r.tags.probe, r.tags.target, r.tags.phase]), expected);
    assert.ok(probes.every((r) => r.status === 200 && r.expected));
    assert.ok(probes.every((r) => r.params.timeout === `${plan().probes.timeoutMillis}ms`));
  }
});

test('two targets: each load scenario sends /work/{mode} with ms, downstream and lock to its own target', async () => {
  const script = await loadScript(STARVATION, { env: { ...TWO_TARGETS, MS: '40', DOWNSTREAM: 'db' } });
  const { problems, requests } = runAll(script, () => plan().baselineSeconds + 1);
  assert.deepEqual(problems, []);
  assert.deepEqual(requests.filter((r) => r.tags.kind === 'work').map((r) => [r.scenario, r.url, r.tags.target, r.tags.phase, r.tags.mode]), [
    ['load-pinned', 'http://lab-pinned:8080/work/pinned?ms=40&downstream=db&lock=private', 'pinned', 'load', 'pinned'],
    ['load-unpinned', 'http://lab-unpinned:8080/work/unpinned?ms=40&downstream=db&lock=private', 'unpinned', 'load', 'unpinned'],
  ]);
});

test('BASE_URL: each plan phase is a load scenario; probes tag the phase that is running', async () => {
  const script = await loadScript(STARVATION, { transport: fakeService({ info: JDK25_INFO }) });
  const phases = plan().phases.filter((/** @type {any} */ p) => p.jvm === 'default');
  const data = script.setup();
  for (const phase of phases) {
    const scenario = script.options.scenarios[`load-${phase.name}`];
    const start = Number(scenario.startTime.replace('s', ''));
    const [work] = script.iterate(`load-${phase.name}`, data);
    assert.equal(work.url, `http://localhost:8080/work/${phase.mode}?ms=${phase.ms}&downstream=${phase.downstream}&lock=${phase.lock}`);
    assert.deepEqual(work.tags, { kind: 'work', mode: phase.mode, target: 'base', phase: phase.name });
    for (const probe of Object.keys(ENDPOINTS)) {
      const [during] = script.iterate(`probe-base-${probe}`, data, { at: start + 1 });
      assert.deepEqual(during.tags, { kind: 'probe', probe, target: 'base', phase: phase.name });
      assert.deepEqual([...contractProblems(during), ...tagProblems(during, 'probe', ENDPOINTS)], []);
    }
    const [gap] = script.iterate('probe-base-virtual', data, { at: start + phase.seconds + 1 });
    assert.equal(gap.tags.phase, 'drain');
  }
});

test('native idles instead of collecting 501s on a JVM without FFM, and runs with FFM', async () => {
  const jdk21 = await loadScript(STARVATION, { env: { PHASES: 'native' }, transport: fakeService({ info: JDK21_INFO }) });
  assert.deepEqual(jdk21.iterate('load-native', jdk21.setup()), []);
  assert.deepEqual(jdk21.ctx.sleeps, [1]);
  const jdk25 = await loadScript(STARVATION, { env: { PHASES: 'native' }, transport: fakeService({ info: JDK25_INFO }) });
  const [sent] = jdk25.iterate('load-native', jdk25.setup());
  assert.equal(sent.status, 200);
});

test('setup() records each target\'s /lab/info facts for the report', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ info: JDK21_INFO }) });
  const data = script.setup();
  assert.deepEqual(Object.keys(data.targets), ['pinned', 'unpinned']);
  for (const name of ['pinned', 'unpinned']) {
    const facts = data.targets[name].facts;
    assert.equal(facts.javaVersion, JDK21_INFO.javaVersion);
    assert.equal(facts.carrierParallelism, 4);
    assert.equal(facts.synchronizedPins, true);
    assert.equal(facts.nativePinAvailable, false);
  }
  assert.deepEqual(script.ctx.requests.map((r) => new URL(r.url).pathname),
    ['/q/health/ready', '/lab/info', '/q/health/ready', '/lab/info']);
});

test('setup() fails fast, naming the target and the knob, when a target is not ready', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ ready: false }) });
  assert.throws(() => script.setup(), (error) => error instanceof K6Abort
    && /pinned target http:\/\/lab-pinned:8080 is not ready: GET \/q\/health\/ready gave HTTP 503/.test(error.message)
    && /PINNED_URL and UNPINNED_URL/.test(error.message));
  const unreachable = await loadScript(STARVATION, { transport: fakeService({ status: () => 0 }) });
  assert.throws(() => unreachable.setup(), /base target http:\/\/localhost:8080 is not ready: GET \/q\/health\/ready gave no answer/);
});

test('setup() warns when the pinned target will not pin (synchronizedPins=false)', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ info: JDK25_INFO }) });
  const warnings = [];
  const original = console.warn;
  console.warn = (/** @type {string} */ line) => warnings.push(line);
  try {
    script.setup();
  } finally {
    console.warn = original;
  }
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /pinned: synchronized does not pin on Java 25.*-XX:LockingMode=1/);
});

test('a 503 under overload is expected by the load request and counted as overloaded, not as an error', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ overloaded: true }) });
  const [sent] = script.iterate('load-pinned', script.setup());
  assert.equal(sent.status, 503);
  assert.equal(sent.expected, true, '503 must not count in http_req_failed');
  const samples = script.ctx.samples.filter((s) => s.tags.kind === 'work');
  assert.deepEqual(samples.filter((s) => s.metric.startsWith('work_')).map((s) => [s.metric, s.value]),
    [['work_overloaded', 1], ['work_errors', 0]]);
});

test('a probe answering 503 is a failed request and a probe error', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS,
    transport: fakeService({ status: (url) => (url.pathname === '/probe/virtual' ? 503 : undefined) }) });
  const [sent] = script.iterate('probe-pinned-virtual', script.setup());
  assert.equal(sent.expected, false);
  assert.deepEqual(script.ctx.samples.filter((s) => s.metric === 'probe_errors').map((s) => s.value), [1]);
});

test('no request leaves in the init context, and open() reads plan.json beside the script', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  assert.equal(script.ctx.requests.length, 0);
  assert.deepEqual(script.ctx.opened.map((f) => f.split('/').slice(-2).join('/')), ['k6/plan.json']);
});

test('the contract check refuses fixtures/broken-probe-path.js (/probes/virtual)', async () => {
  const script = await loadScript(fixture('broken-probe-path.js'), { env: TWO_TARGETS });
  const { problems } = runAll(script, () => 1);
  assert.ok(problems.some((p) => /no such endpoint in the contract \(\/probes\/virtual\)/.test(p)), JSON.stringify(problems));
});

test('the tag check refuses fixtures/broken-missing-tag.js (no target tag)', async () => {
  const script = await loadScript(fixture('broken-missing-tag.js'), { env: TWO_TARGETS });
  const { problems } = runAll(script, () => 1);
  assert.ok(problems.some((p) => /tag target must be one of pinned, unpinned, base, not undefined/.test(p)), JSON.stringify(problems));
});
