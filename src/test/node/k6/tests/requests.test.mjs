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
const ENDPOINT_COUNT = Object.keys(ENDPOINTS).length;

/**
 * Runs every scenario at `at` seconds into the run, a probe scenario once per endpoint (it takes
 * them in turn), a load once; returns problems and requests.
 *
 * @param {import('../harness/runtime.mjs').LoadedScript} script
 * @param {(name: string, scenario: any) => number} at
 */
function runAll(script, at) {
  const data = script.setup();
  const problems = [];
  const requests = [];
  for (const [name, scenario] of Object.entries(script.options.scenarios)) {
    const kind = scenario.exec === 'probe' ? 'probe' : 'work';
    const sent = [];
    for (let iteration = 0; iteration < (kind === 'probe' ? ENDPOINT_COUNT : 1); iteration++) {
      sent.push(...script.iterate(name, data, { at: at(name, scenario), iteration }));
    }
    for (const request of sent) {
      problems.push(...contractProblems(request), ...tagProblems(request, kind, ENDPOINTS));
      requests.push({ scenario: name, ...request });
    }
  }
  return { problems, requests, data };
}

test('two targets: each target\'s probe scenario takes its endpoints in turn, tagged probe, target, phase', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  for (const [when, at, phase] of [['baseline', 1, 'baseline'], ['load', plan().baselineSeconds + 2, 'load']]) {
    const { problems, requests } = runAll(script, () => /** @type {number} */ (at));
    assert.deepEqual(problems, [], `${when}: contract problems`);
    const probes = requests.filter((r) => r.tags.kind === 'probe');
    const expected = [];
    for (const [target, url] of [['pinned', TWO_TARGETS.PINNED_URL], ['unpinned', TWO_TARGETS.UNPINNED_URL]]) {
      for (const [probe, path] of Object.entries(ENDPOINTS)) {
        expected.push([`probe-${target}`, `${url}${path}`, probe, target, phase]);
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
    for (const [iteration, probe] of Object.keys(ENDPOINTS).entries()) {
      const [during] = script.iterate('probe-base', data, { at: start + 1, iteration });
      assert.deepEqual(during.tags, { kind: 'probe', probe, target: 'base', phase: phase.name });
      assert.deepEqual([...contractProblems(during), ...tagProblems(during, 'probe', ENDPOINTS)], []);
    }
    const [gap] = script.iterate('probe-base', data, { at: start + phase.seconds + 0.5 }); // the drain between two phases
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
  const [sent] = script.iterate('probe-pinned', script.setup(), { iteration: Object.keys(ENDPOINTS).indexOf('virtual') });
  assert.equal(new URL(sent.url).pathname, '/probe/virtual');
  assert.equal(sent.expected, false);
  assert.deepEqual(script.ctx.samples.filter((s) => s.metric === 'probe_errors').map((s) => s.value), [1]);
});

/**
 * The endpoints that do not go through every probe VU's connection, while k6 hands iterations to
 * its idle VUs in turn (iteration i to VU i mod preAllocatedVUs).
 *
 * @param {import('../harness/runtime.mjs').LoadedScript} script
 */
function rotationProblems(script) {
  const data = script.setup();
  const vus = script.options.scenarios['probe-pinned'].preAllocatedVUs;
  /** @type {Map<string, Set<number>>} */
  const connections = new Map();
  for (let iteration = 0; iteration < vus * ENDPOINT_COUNT; iteration++) {
    const [sent] = script.iterate('probe-pinned', data, { iteration });
    const path = new URL(sent.url).pathname;
    connections.set(path, (connections.get(path) || new Set()).add(iteration % vus));
  }
  const problems = Object.values(ENDPOINTS).filter((p) => !connections.has(p)).map((p) => `${p} is never probed`);
  for (const [path, seen] of connections) {
    if (seen.size !== vus) {
      problems.push(`${path} went through ${seen.size} of ${vus} VUs`);
    }
  }
  return problems;
}

test('every endpoint goes through every probe VU\'s connection while k6 hands iterations to idle VUs in turn', async () => {
  assert.deepEqual(rotationProblems(await loadScript(STARVATION, { env: TWO_TARGETS })), []);
});

test('the rotation check refuses fixtures/broken-probe-rotation.js (each VU keeps to one endpoint)', async () => {
  const problems = rotationProblems(await loadScript(fixture('broken-probe-rotation.js'), { env: TWO_TARGETS }));
  assert.deepEqual(problems, Object.values(ENDPOINTS).map((p) => `${p} went through 11 of 41 VUs`).slice(0, 1)
    .concat(Object.values(ENDPOINTS).slice(1).map((p) => `${p} went through 10 of 41 VUs`)));
});

test('each probe answer\'s event loop tags its wait and its shares over 1 s and 3 s', async () => {
  const script = await loadScript(STARVATION, { env: { ...TWO_TARGETS, EVENT_LOOPS: '2' },
    transport: fakeService({ eventLoop: (n) => `vert.x-eventloop-thread-${n}` }) });
  const data = script.setup();
  for (let iteration = 0; iteration < 3; iteration++) {
    script.iterate('probe-pinned', data, { iteration });
  }
  const samples = script.ctx.samples.filter((s) => ['probe_wait', 'probe_over_1s', 'probe_over_3s'].includes(s.metric));
  assert.deepEqual(samples.map((s) => [s.metric, s.tags.event_loop, s.tags.probe, s.value]), [
    ['probe_wait', '0', 'virtual', 2], ['probe_over_1s', '0', 'virtual', 0], ['probe_over_3s', '0', 'virtual', 0],
    ['probe_wait', '1', 'worker', 2], ['probe_over_1s', '1', 'worker', 0], ['probe_over_3s', '1', 'worker', 0],
    ['probe_wait', 'other', 'event-loop', 2], ['probe_over_1s', 'other', 'event-loop', 0], ['probe_over_3s', 'other', 'event-loop', 0],
  ]);
  assert.ok(samples.every((s) => s.tags.target === 'pinned' && s.tags.phase === 'baseline'));
});

test('a probe answer that names no event loop still counts in the shares, without an event_loop tag', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ eventLoop: null }) });
  script.iterate('probe-pinned', script.setup());
  const samples = script.ctx.samples.filter((s) => s.metric.startsWith('probe_'));
  assert.deepEqual(samples.map((s) => [s.metric, s.tags.event_loop]),
    [['probe_errors', undefined], ['probe_over_1s', undefined], ['probe_over_3s', undefined]]);
});

test('a slow probe counts in the share over 1 s, a slower one over 3 s too', async () => {
  const slow = (/** @type {number} */ durationMs) => {
    const service = fakeService();
    return (/** @type {any} */ request) => ({ ...service(request), durationMs });
  };
  for (const [durationMs, over1, over3] of [[1000, 0, 0], [1001, 1, 0], [3001, 1, 1]]) {
    const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: slow(durationMs) });
    script.iterate('probe-pinned', script.setup());
    const value = (/** @type {string} */ metric) => script.ctx.samples.find((s) => s.metric === metric)?.value;
    assert.deepEqual([value('probe_wait'), value('probe_over_1s'), value('probe_over_3s')], [durationMs, over1, over3]);
  }
});

test('setup() warns when the service has more event loops than EVENT_LOOPS', async () => {
  const warnings = [];
  const original = console.warn;
  console.warn = (/** @type {string} */ line) => warnings.push(line);
  try {
    const script = await loadScript(STARVATION, { transport: fakeService({ info: { ...JDK25_INFO, eventLoops: 16 } }) });
    script.setup();
    const enough = await loadScript(STARVATION, { env: { EVENT_LOOPS: '16' }, transport: fakeService({ info: { ...JDK25_INFO, eventLoops: 16 } }) });
    enough.setup();
  } finally {
    console.warn = original;
  }
  assert.deepEqual(warnings, ['base: the service has 16 event loops, the run samples and breaks down 8 (EVENT_LOOPS): set EVENT_LOOPS=16.']);
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
