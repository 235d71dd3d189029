// Each scenario's function, run against an in-process stand-in of the service, for what a real run
// against the service cannot show (K6SuiteIT runs the suite on a real k6): the tags each request
// carries, setup()'s fail-fast and warnings, a JVM without FFM, 503s, slow answers and answers
// that name no event loop.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { K6Abort } from '../harness/context.mjs';
import { fakeService, JDK21_INFO, JDK25_INFO } from '../harness/fake-service.mjs';
import { fixture, plan, STARVATION, TWO_TARGETS } from '../harness/paths.mjs';
import { loadScript } from '../harness/runtime.mjs';

const ENDPOINTS = plan().probes.endpoints;

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
    const seen = new Set();
    for (let iteration = 0; iteration < 60; iteration++) {
      const [during] = script.iterate('probe-base', data, { at: start + 1, iteration });
      assert.deepEqual(during.tags, { kind: 'probe', probe: during.tags.probe, target: 'base', phase: phase.name });
      assert.equal(new URL(during.url).pathname, ENDPOINTS[during.tags.probe]);
      assert.equal(during.params.timeout, `${plan().probes.timeoutMillis}ms`);
      seen.add(during.tags.probe);
    }
    assert.deepEqual([...seen].sort(), Object.keys(ENDPOINTS).sort());
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
  assert.deepEqual(script.ctx.requests.filter((r) => r.tags.kind === 'setup').map((r) => new URL(r.url).pathname),
    ['/q/health/ready', '/lab/info', '/q/health/ready', '/lab/info']);
});

test('setup() warms each target up before the baseline: every probe, and the work the run sends, at 1 ms, but what the JVM cannot run', async () => {
  for (const [info, modes] of [[JDK21_INFO, ['unpinned', 'reentrant', 'pinned', 'cpu']], [JDK25_INFO, ['unpinned', 'reentrant', 'pinned', 'native', 'cpu']]]) {
    const script = await loadScript(STARVATION, { env: { QUICK: 'true' }, transport: fakeService({ info }) });
    script.setup();
    const warmUp = script.ctx.requests.filter((r) => r.tags.kind === 'warm-up');
    /** @type {Record<string, number>} */
    const sent = {};
    for (const r of warmUp) {
      const url = new URL(r.url);
      sent[url.pathname + url.search] = (sent[url.pathname + url.search] || 0) + 1;
    }
    const expected = Object.fromEntries([...Object.values(ENDPOINTS).map((p) => [p, 100]),
      ...modes.map((m) => [`/work/${m}?ms=1&downstream=sleep&lock=private`, 20])]);
    assert.deepEqual(sent, expected, String(info.javaVersion));
    assert.ok(warmUp.every((r) => r.status === 200 && r.tags.target === 'base' && r.tags.phase === undefined));
  }
});

test('setup() fails fast, naming the target and the knob, when a target is not ready', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ ready: false }) });
  assert.throws(() => script.setup(), (error) => error instanceof K6Abort
    && /pinned target http:\/\/lab-pinned:8080 is not ready: GET \/q\/health\/ready gave HTTP 503/.test(error.message)
    && /PINNED_URL and UNPINNED_URL/.test(error.message));
  const unreachable = await loadScript(STARVATION, { transport: fakeService({ status: () => 0 }) });
  assert.throws(() => unreachable.setup(), /base target http:\/\/localhost:8080 is not ready: GET \/q\/health\/ready gave no answer/);
});

test('setup() warns when a mode STARVING_MODES expects to starve will not on the target\'s JVM', async () => {
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
  assert.match(warnings[0], /^pinned: \/work\/pinned will not starve Java 25\.0\.1: synchronized does not pin on this JVM \(synchronizedPins=false; -XX:LockingMode=1 brings it back on JDK 24-25\)\. Run a JVM it starves, or set STARVING_MODES without pinned\.$/);
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

test('work answered inside its window counts as completed; answered in the drain after it, not', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService() });
  const data = script.setup();
  const seconds = script.options.scenarios['load-unpinned'].duration;
  const completed = () => script.ctx.samples.filter((s) => s.metric === 'work_completed').length;
  script.iterate('load-unpinned', data, { at: 1 });
  assert.equal(completed(), 1, `answered 1 s into a ${seconds} window`);
  script.iterate('load-unpinned', data, { at: Number(seconds.replace('s', '')) + 0.5 });
  assert.equal(completed(), 1, 'answered in the gracefulStop drain, after the window');
});

test('a probe answering 503 is a failed request and a probe error', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS,
    transport: fakeService({ status: (url) => (url.pathname === '/probe/virtual' ? 503 : undefined) }) });
  const data = script.setup();
  let iteration = 0;
  let [sent] = script.iterate('probe-pinned', data, { iteration });
  while (new URL(sent.url).pathname !== '/probe/virtual') {
    script.ctx.samples.length = 0;
    [sent] = script.iterate('probe-pinned', data, { iteration: ++iteration });
  }
  assert.equal(sent.expected, false);
  assert.deepEqual(script.ctx.samples.filter((s) => s.metric === 'probe_errors').map((s) => s.value), [1]);
});

test('each probe answer\'s event loop tags its wait and its shares over 1 s and 3 s', async () => {
  let warmUp = 0;
  const script = await loadScript(STARVATION, { env: { ...TWO_TARGETS, EVENT_LOOPS: '2' },
    transport: fakeService({ eventLoop: (n) => `vert.x-eventloop-thread-${n - warmUp}` }) });
  const data = script.setup();
  warmUp = script.ctx.requests.filter((r) => r.url.includes('/probe/')).length;
  script.ctx.requests.length = 0;
  script.ctx.samples.length = 0;
  // the first three /probe/* answers (health answers name no event loop)
  for (let iteration = 0; script.ctx.requests.filter((r) => r.url.includes('/probe/')).length < 3; iteration++) {
    script.iterate('probe-pinned', data, { iteration });
  }
  const samples = script.ctx.samples.filter((s) => s.tags.probe !== 'health-live' && ['probe_wait', 'probe_over_1s', 'probe_over_3s'].includes(s.metric));
  // the stand-in names thread n in its n-th answer; EVENT_LOOPS=2 tags the third 'other'
  const probes = script.ctx.requests.filter((r) => r.url.includes('/probe/')).map((r) => r.tags.probe);
  assert.deepEqual(samples.map((s) => [s.metric, s.tags.event_loop, s.tags.probe, s.value]), [
    ['probe_wait', '0', probes[0], 2], ['probe_over_1s', '0', probes[0], 0], ['probe_over_3s', '0', probes[0], 0],
    ['probe_wait', '1', probes[1], 2], ['probe_over_1s', '1', probes[1], 0], ['probe_over_3s', '1', probes[1], 0],
    ['probe_wait', 'other', probes[2], 2], ['probe_over_1s', 'other', probes[2], 0], ['probe_over_3s', 'other', probes[2], 0],
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
