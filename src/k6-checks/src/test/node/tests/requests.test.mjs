// starvation.js's scenario functions, run against an in-process stand-in of the service, for what a
// real run against the service cannot show (K6SuiteIT runs the suite on a real k6): the tags each
// request carries, setup()'s fail-fast, warm-up and warnings, a JVM without FFM, 503s, slow answers
// and answers that name no event loop.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLayout } from '../../../../../../k6/lib-layout.js';
import { probeScheduleOf, routeAt } from '../../../../../../k6/lib-probe-schedule.js';
import { fakeService, JDK21_INFO, JDK25_INFO } from '../harness/fake-service.mjs';
import { PLAN, STARVATION, TWO_TARGETS } from '../harness/paths.mjs';
import { K6Abort, loadScript } from '../harness/runtime.mjs';

const ENDPOINTS = PLAN.probes.endpoints;

test('BASE_URL: each plan phase is a load scenario; probes tag the phase that is running', async () => {
  const script = await loadScript(STARVATION, { transport: fakeService({ info: JDK25_INFO }) });
  const data = script.setup();
  for (const phase of PLAN.phases.filter((/** @type {any} */ p) => p.jvm === 'default')) {
    const start = Number(script.options.scenarios[`load-${phase.name}`].startTime.replace('s', ''));
    const [work] = script.iterate(`load-${phase.name}`, data);
    assert.equal(work.url, `http://localhost:8080/work/${phase.mode}?ms=${phase.ms}&downstream=${phase.downstream}&lock=${phase.lock}`);
    assert.deepEqual(work.tags, { kind: 'work', mode: phase.mode, target: 'base', phase: phase.name });
    const seen = new Set();
    for (let iteration = 0; iteration < 60; iteration++) {
      const [during] = script.iterate('probe-base', data, { at: start + 1, iteration });
      assert.deepEqual(during.tags, { kind: 'probe', probe: during.tags.probe, target: 'base', phase: phase.name });
      assert.deepEqual([new URL(during.url).pathname, during.params.timeout], [ENDPOINTS[during.tags.probe], `${PLAN.probes.timeoutMillis}ms`]);
      seen.add(during.tags.probe);
    }
    assert.deepEqual([...seen].sort(), Object.keys(ENDPOINTS).sort());
    const [gap] = script.iterate('probe-base', data, { at: start + phase.seconds + 0.5 }); // the drain between two phases
    assert.equal(gap.tags.phase, 'drain');
  }
});

test('PROBE_TIMEOUT_MS bounds each probe, WORK_TIMEOUT_MS each work request', async () => {
  const script = await loadScript(STARVATION, { env: { ...TWO_TARGETS, PROBE_TIMEOUT_MS: '4000', WORK_TIMEOUT_MS: '15000' } });
  const data = script.setup();
  assert.deepEqual([script.iterate('probe-pinned', data)[0].params.timeout, script.iterate('load-pinned', data)[0].params.timeout], ['4000ms', '15000ms']);
});

test('the probe scenario sends the schedule\'s endpoint for the target\'s event loops from /lab/info', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ info: { ...JDK25_INFO, eventLoops: 3 } }) });
  const data = script.setup();
  const schedule = probeScheduleOf(buildLayout(TWO_TARGETS, PLAN).probes.filter((p) => p.target === 'unpinned'));
  for (let iteration = 0; iteration < 100; iteration++) {
    assert.equal(script.iterate('probe-unpinned', data, { iteration })[0].url, routeAt(schedule, iteration, 3).url);
  }
});

test('native idles instead of collecting 501s on a JVM without FFM, and runs with FFM', async () => {
  const jdk21 = await loadScript(STARVATION, { env: { PHASES: 'native' }, transport: fakeService({ info: JDK21_INFO }) });
  assert.deepEqual(jdk21.iterate('load-native', jdk21.setup()), []);
  assert.deepEqual(jdk21.ctx.sleeps, [1]);
  const jdk25 = await loadScript(STARVATION, { env: { PHASES: 'native' }, transport: fakeService({ info: JDK25_INFO }) });
  assert.equal(jdk25.iterate('load-native', jdk25.setup())[0].status, 200);
});

// The facts setup() records per target are the report's facts table (report.test.mjs).
test('setup() asks each target whether it is ready, then its /lab/info, and warms it up: every probe, and the work the run sends at 1 ms, but what the JVM cannot run', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ info: JDK21_INFO }) });
  script.setup();
  assert.deepEqual(script.ctx.requests.filter((r) => r.tags.kind === 'setup').map((r) => new URL(r.url).pathname),
    ['/q/health/ready', '/lab/info', '/q/health/ready', '/lab/info']);
  for (const [info, modes] of [[JDK21_INFO, ['unpinned', 'reentrant', 'pinned', 'cpu']], [JDK25_INFO, ['unpinned', 'reentrant', 'pinned', 'native', 'cpu']]]) {
    const quick = await loadScript(STARVATION, { env: { QUICK: 'true' }, transport: fakeService({ info }) });
    quick.setup();
    const warmUp = quick.ctx.requests.filter((r) => r.tags.kind === 'warm-up');
    const sent = {};
    for (const r of warmUp) {
      const url = new URL(r.url);
      sent[url.pathname + url.search] = (sent[url.pathname + url.search] || 0) + 1;
    }
    assert.deepEqual(sent, Object.fromEntries([...Object.values(ENDPOINTS).map((p) => [p, 100]),
      ...modes.map((m) => [`/work/${m}?ms=1&downstream=sleep&lock=private`, 20])]), String(info.javaVersion));
    assert.ok(warmUp.every((r) => r.status === 200 && r.tags.target === 'base' && r.tags.phase === undefined));
  }
});

test('setup() fails fast, naming the target and the knob, when a target is not ready', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ ready: false }) });
  assert.throws(() => script.setup(), (error) => error instanceof K6Abort
    && /pinned target http:\/\/lab-pinned:8080 is not ready: GET \/q\/health\/ready gave HTTP 503\. Start the service, or point PINNED_URL and UNPINNED_URL at it/.test(error.message));
  const unreachable = await loadScript(STARVATION, { transport: fakeService({ status: () => 0 }) });
  assert.throws(() => unreachable.setup(), /base target http:\/\/localhost:8080 is not ready: GET \/q\/health\/ready gave no answer/);
});

test('setup() stops the run before any load when a JVM sees other than CPUS processors (a kubelet that enforces no CPU quota), naming what it sees', async () => {
  const unenforced = await loadScript(STARVATION, { env: { ...TWO_TARGETS, CPUS: '4' },
    transport: fakeService({ info: { ...JDK21_INFO, availableProcessors: 16, carrierParallelism: 16, cpuQuotaMicros: null, cpuPeriodMicros: null } }) });
  assert.throws(() => unenforced.setup(), (error) => error instanceof K6Abort
    && /pinned target http:\/\/lab-pinned:8080: its JVM sees 16 processors \(no CPU quota, 16 carriers\), not CPUS=4, the pod's CPU limit/.test(error.message));
  assert.ok(!unenforced.ctx.requests.some((r) => r.tags.kind === 'warm-up'), 'nothing sent after the check');
  const enforced = await loadScript(STARVATION, { env: { ...TWO_TARGETS, CPUS: '4' }, transport: fakeService({ info: JDK21_INFO }) });
  assert.doesNotThrow(() => enforced.setup());
});

test('setup() warns when a mode STARVING_MODES expects to starve will not on the JVM, and when the service has more event loops than EVENT_LOOPS', async (t) => {
  const warn = t.mock.method(console, 'warn', () => {});
  const warned = (script) => {
    warn.mock.resetCalls();
    script.setup();
    return warn.mock.calls.map((c) => c.arguments[0]);
  };
  const jdk25 = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ info: JDK25_INFO }) });
  assert.deepEqual(warned(jdk25), ['pinned: /work/pinned will not starve Java 25.0.1: synchronized does not pin on this JVM '
    + '(synchronizedPins=false; -XX:LockingMode=1 brings it back on JDK 24-25). Run a JVM it starves, or set STARVING_MODES without pinned.']);
  const sixteen = fakeService({ info: { ...JDK25_INFO, eventLoops: 16 } });
  const short = await loadScript(STARVATION, { transport: sixteen });
  assert.deepEqual(warned(short), ['base: the service has 16 event loops, the run samples and breaks down 8 (EVENT_LOOPS): set EVENT_LOOPS=16.']);
  const enough = await loadScript(STARVATION, { env: { EVENT_LOOPS: '16' }, transport: sixteen });
  assert.deepEqual(warned(enough), []);
});

test('a 503 under overload is expected by the load request and counted as overloaded; work answered in the drain after its window is not completed', async () => {
  const overloaded = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ overloaded: true }) });
  const [sent] = overloaded.iterate('load-pinned', overloaded.setup());
  assert.deepEqual([sent.status, sent.expected], [503, true], '503 must not count in http_req_failed');
  assert.deepEqual(overloaded.ctx.samples.filter((s) => s.metric.startsWith('work_')).map((s) => [s.metric, s.value]),
    [['work_overloaded', 1], ['work_errors', 0]]);
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  const data = script.setup();
  const seconds = Number(script.options.scenarios['load-unpinned'].duration.replace('s', ''));
  const completed = () => script.ctx.samples.filter((s) => s.metric === 'work_completed').length;
  script.iterate('load-unpinned', data, { at: 1 });
  assert.equal(completed(), 1, `answered 1 s into a ${seconds} s window`);
  script.iterate('load-unpinned', data, { at: seconds + 0.5 });
  assert.equal(completed(), 1, 'answered in the gracefulStop drain, after the window');
});

test('a probe answering 503 is a failed request and a probe error', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS,
    transport: fakeService({ status: (url) => (url.pathname === '/probe/virtual' ? 503 : undefined) }) });
  const data = script.setup();
  const virtual = [...Array(20).keys()].flatMap((iteration) => script.iterate('probe-pinned', data, { iteration })).filter((r) => r.url.endsWith('/probe/virtual'));
  assert.ok(virtual.length > 0 && virtual.every((r) => !r.expected));
  assert.deepEqual(script.ctx.samples.filter((s) => s.metric === 'probe_errors' && s.tags.probe === 'virtual').map((s) => s.value), virtual.map(() => 1));
});

test('each probe answer\'s event loop tags its wait and its shares over 1 s and 3 s; an answer that names none counts in the shares only', async () => {
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
  assert.deepEqual(samples.map((s) => [s.metric, s.tags.event_loop, s.tags.probe, s.value]), ['0', '1', 'other'].flatMap((loop, i) =>
    [['probe_wait', loop, probes[i], 2], ['probe_over_1s', loop, probes[i], 0], ['probe_over_3s', loop, probes[i], 0]]));
  assert.ok(samples.every((s) => s.tags.target === 'pinned' && s.tags.phase === 'baseline'));

  const nameless = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ eventLoop: null }) });
  nameless.iterate('probe-pinned', nameless.setup());
  assert.deepEqual(nameless.ctx.samples.map((s) => [s.metric, s.tags.event_loop]),
    [['probe_errors', undefined], ['probe_over_1s', undefined], ['probe_over_3s', undefined]]);
});

test('a slow probe counts in the share over 1 s, a slower one over 3 s too', async () => {
  for (const [durationMs, over1, over3] of [[1000, 0, 0], [1001, 1, 0], [3001, 1, 1]]) {
    const service = fakeService();
    const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: (request) => ({ ...service(request), durationMs }) });
    script.iterate('probe-pinned', script.setup());
    const value = (/** @type {string} */ metric) => script.ctx.samples.find((s) => s.metric === metric)?.value;
    assert.deepEqual([value('probe_wait'), value('probe_over_1s'), value('probe_over_3s')], [durationMs, over1, over3]);
  }
});
