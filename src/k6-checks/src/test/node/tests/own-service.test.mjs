// own-service.js, your own service (LOAD_URL or LOAD_MODULE, WATCH, WATCH_STARVED, EXPECT_STARVED):
// the knobs' parsing and their refusals, the thresholds, the requests against a stand-in that is not
// the lab (no /lab/info), and the report, which judges no prediction there. K6SuiteIT runs it
// on a real k6 against a service that is not the lab.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildOwnLayout } from '../../../../../../k6/lib-own-service.js';
import { fakeService, JDK25_INFO } from '../harness/fake-service.mjs';
import { fixture, OWN_SERVICE, PLAN } from '../harness/paths.mjs';
import { K6Abort, loadScript } from '../harness/runtime.mjs';
import { report } from '../harness/summary.mjs';

const FIRST_PHASE = PLAN.phases.filter((/** @type {any} */ p) => p.jvm === 'default')[0];
const STARVED_RATE = PLAN.probes.ratePerSecondByProbe[PLAN.starved.probe];
const OTHER_RATE = PLAN.probes.ratePerSecond;
const SERVICE = {
  LOAD_URL: 'http://orders:8081/native?ms=100',
  WATCH: 'hello=/hello,health=http://orders:9000/health',
  WATCH_STARVED: 'hello',
};

test('LOAD_URL, WATCH and WATCH_STARVED: one load window, the watched endpoints as probes, the plan\'s rules on them', () => {
  const layout = buildOwnLayout(SERVICE, PLAN);
  assert.equal(layout.kind, 'own-service');
  assert.deepEqual(layout.targets, [{ name: 'service', url: 'http://orders:8081' }]);
  assert.deepEqual(layout.loads.map((l) => [l.scenario, l.phase, l.mode, l.vus, l.rate, l.start, l.seconds, l.request]), [
    ['load-service', 'load', 'request', FIRST_PHASE.concurrency, 0, PLAN.baselineSeconds, FIRST_PHASE.seconds,
      { method: 'GET', url: 'http://orders:8081/native?ms=100', body: null, contentType: null, module: null, label: 'GET http://orders:8081/native?ms=100' }]]);
  assert.deepEqual(layout.windows, [{ name: 'baseline', start: 0, end: PLAN.baselineSeconds },
    { name: 'load', start: PLAN.baselineSeconds, end: PLAN.baselineSeconds + FIRST_PHASE.seconds }]);
  assert.deepEqual(layout.probes.map((p) => [p.scenario, p.probe, p.url, p.path, p.rate]), [
    ['probe-service', 'hello', 'http://orders:8081/hello', '/hello', STARVED_RATE],
    ['probe-service', 'health', 'http://orders:9000/health', '/health', OTHER_RATE]]);
  assert.deepEqual(layout.rules.starved, { probe: 'hello', percentile: PLAN.starved.percentile, baselineFactor: PLAN.starved.baselineFactor,
    minimumMillis: PLAN.starved.minimumMillis, endpoint: '/hello' });
  assert.deepEqual(layout.rules.untouched, { probes: ['health'], percentile: PLAN.untouched.percentile, maximumMillis: PLAN.untouched.maximumMillis });
  assert.equal(layout.loads[0].expected, 'depends', 'without EXPECT_STARVED the starved rule\'s endpoint is recorded');
});

test('defaults: the health check watched, the load\'s own request judged by the starved rule; the timing knobs apply; LOAD_METHOD, LOAD_BODY, LOAD_CONTENT_TYPE, LOAD_MODULE and BASE_URL shape the request', () => {
  const env = { LOAD_URL: 'http://localhost:8081/cpu', QUICK: 'true', LOAD_VUS: '16', BASELINE_SECONDS: '4',
    LOAD_SECONDS: '5', PROBE_RATE: '20', EXPECT_STARVED: 'true' };
  const layout = buildOwnLayout(env, PLAN);
  assert.deepEqual(layout.probes.map((p) => [p.probe, p.url, p.path, p.rate, Boolean(p.request)]), [
    ['load', 'http://localhost:8081/cpu', 'GET http://localhost:8081/cpu', 20, true],
    ['health', 'http://localhost:8081/q/health/live', '/q/health/live', 20, false]]);
  assert.deepEqual([layout.rules.untouched.probes, layout.loads[0].vus, layout.loads[0].start, layout.loads[0].seconds, layout.windows[1].end,
    layout.loads[0].expected], [['health'], 16, 4, 5, 9, 'starves']);
  const post = buildOwnLayout({ LOAD_URL: 'http://orders:8081/orders', LOAD_METHOD: 'POST', LOAD_BODY: '{"item":42}', BASE_URL: 'http://orders:9000' }, PLAN);
  assert.deepEqual(post.loads[0].request, { method: 'POST', url: 'http://orders:8081/orders', body: '{"item":42}', contentType: 'application/json', module: null,
    label: 'POST http://orders:8081/orders' });
  assert.deepEqual([post.targets, post.probes[1].url], [[{ name: 'service', url: 'http://orders:9000' }], 'http://orders:9000/q/health/live']);
  const text = buildOwnLayout({ LOAD_URL: 'http://orders:8081/notes', LOAD_METHOD: 'PUT', LOAD_BODY: 'hello', LOAD_CONTENT_TYPE: 'text/plain' }, PLAN);
  assert.equal(text.loads[0].request?.contentType, 'text/plain');
  const module = buildOwnLayout({ LOAD_MODULE: '/home/me/orders.js', WATCH: 'health=/health' }, PLAN);
  assert.deepEqual(module.loads[0].request, { method: 'GET', url: 'http://localhost:8080', body: null, contentType: null, module: '/home/me/orders.js',
    label: 'request() of /home/me/orders.js' });
  assert.equal(module.probes[0].path, 'request() of /home/me/orders.js');
});

test('bad knobs are refused with the knob\'s name: WATCH without a URL, and every other', () => {
  const refused = [
    [{ LOAD_URL: 'http://a:1/x', WATCH: 'health' }, /WATCH: 'health' has no URL: write health=http:\/\/host:port\/path or health=\/path/],
    [{ LOAD_URL: 'http://a:1/x', WATCH: 'health=' }, /WATCH: 'health' has no URL/],
    [{ LOAD_URL: 'http://a:1/x', WATCH: 'health=localhost:8080/health' }, /WATCH \(health\) must be an http\(s\) URL/],
    [{ LOAD_URL: 'http://a:1/x', WATCH: 'Health Check=/h' }, /WATCH: 'Health Check' is not a name/],
    [{ LOAD_URL: 'http://a:1/x', WATCH: 'load=/h' }, /WATCH: 'load' is not a name/],
    [{ LOAD_URL: 'http://a:1/x', WATCH: 'h=/h,h=/g' }, /WATCH: 'h' is named twice/],
    [{ LOAD_URL: 'http://a:1/x', WATCH: ',' }, /WATCH: name at least one endpoint/],
    [{ LOAD_URL: 'http://a:1/x', WATCH: 'hello=/hello', WATCH_STARVED: 'hello' }, /WATCH: name an endpoint the load should leave untouched/],
    [{ LOAD_URL: 'http://a:1/x', WATCH_STARVED: 'hello' }, /WATCH_STARVED: 'hello' is neither a name WATCH gives \(health\) nor 'load'/],
    [{ LOAD_URL: 'a:1/x' }, /LOAD_URL must be an http\(s\) URL/],
    [{ LOAD_URL: 'http://a:1/x', LOAD_MODULE: './m.js' }, /set LOAD_URL .* or LOAD_MODULE .*: one, not both/],
    [{ WATCH: 'health=/health' }, /set LOAD_URL .* or LOAD_MODULE .*: one, not both/],
    [{ LOAD_URL: 'http://a:1/x', LOAD_METHOD: 'TRACE' }, /LOAD_METHOD must be one of GET, POST, PUT, PATCH, DELETE/],
    [{ LOAD_URL: 'http://a:1/x', LOAD_BODY: '{}' }, /LOAD_BODY needs a LOAD_METHOD that sends one/],
    [{ LOAD_MODULE: './m.js', LOAD_BODY: '{}' }, /LOAD_BODY shapes LOAD_URL's request/],
    [{ LOAD_URL: 'http://a:1/x', EXPECT_STARVED: 'yes' }, /EXPECT_STARVED must be true or false/],
    [{ LOAD_URL: 'http://a:1/x', MS: '100' }, /MS is a knob of the lab's \/work endpoints/],
    [{ LOAD_URL: 'http://a:1/x', PHASES: 'cpu' }, /PHASES is a knob of the lab's/],
    [{ LOAD_URL: 'http://a:1/x', STARVING_MODES: 'cpu' }, /STARVING_MODES is a knob of the lab's/],
    [{ LOAD_URL: 'http://a:1/x', PINNED_URL: 'http://p:1', UNPINNED_URL: 'http://u:1' }, /leave PINNED_URL and UNPINNED_URL unset/],
  ];
  for (const [env, message] of refused) {
    assert.throws(() => buildOwnLayout(/** @type {Record<string, string>} */ (env), PLAN), message, JSON.stringify(env));
  }
});

test('thresholds: EXPECT_STARVED states the starved rule\'s floor on the named endpoint, the untouched rule judges the others', async () => {
  const { med, p99 } = { med: `med`, p99: `p(${PLAN.untouched.percentile})` };
  const floor = PLAN.starved.minimumMillis;
  const key = (/** @type {string} */ probe, /** @type {string} */ phase) => `http_req_duration{probe:${probe},target:service,phase:${phase}}`;
  for (const [expect, starved] of [['true', `${med}>=${floor}`], ['false', `${med}<${floor}`], ['', 'max>=0']]) {
    const script = await loadScript(OWN_SERVICE, { env: { ...SERVICE, EXPECT_STARVED: expect }, transport: ownService() });
    const thresholds = script.options.thresholds;
    assert.deepEqual(thresholds[key('hello', 'load')].map((/** @type {any} */ t) => t.threshold), [starved], `EXPECT_STARVED=${expect}`);
    assert.deepEqual(thresholds[key('hello', 'baseline')].map((/** @type {any} */ t) => t.threshold), [`${med}<${floor}`]);
    for (const phase of ['baseline', 'load']) {
      assert.deepEqual(thresholds[key('health', phase)].map((/** @type {any} */ t) => t.threshold), [`${p99}<${PLAN.untouched.maximumMillis}`]);
    }
    assert.deepEqual(thresholds['work_completed{target:service,phase:load}'].map((/** @type {any} */ t) => t.threshold), ['count>0']);
    assert.deepEqual(thresholds['work_errors{target:service,phase:load}'].map((/** @type {any} */ t) => t.threshold), ['rate<0.01']);
    assert.deepEqual(Object.keys(script.options.scenarios), ['probe-service', 'load-service']);
  }
});

test('requests: setup() checks each watched endpoint (and stops the run, naming one that does not answer) and reads no facts where /lab/info is 404; probes and load carry their tags', async (t) => {
  const transport = ownService();
  const script = await loadScript(OWN_SERVICE, { env: { ...SERVICE, LOAD_METHOD: 'POST', LOAD_BODY: '{"n":1}' }, transport });
  const log = t.mock.method(console, 'log', () => {});
  const data = script.setup();
  const said = log.mock.calls.map((c) => c.arguments[0]);
  assert.deepEqual(data.targets, { service: { url: 'http://orders:8081', facts: null } });
  const setup = script.ctx.requests.filter((r) => r.tags.kind === 'setup');
  assert.deepEqual(setup.map((r) => [r.url, r.status, r.expected]), [['http://orders:8081/hello', 200, true],
    ['http://orders:9000/health', 200, true], ['http://orders:8081/lab/info', 404, true]]);
  assert.deepEqual(said, ['service: http://orders:8081/lab/info gives no facts: the report says they are unknown and judges no prediction.']);
  const warmUp = script.ctx.requests.filter((r) => r.tags.kind === 'warm-up');
  assert.deepEqual([warmUp.filter((r) => r.url.endsWith('/hello')).length, warmUp.filter((r) => r.url.endsWith('/health')).length,
    warmUp.filter((r) => r.method === 'POST').length], [100, 100, 20]);

  const seen = new Set();
  for (let iteration = 0; iteration < 40; iteration++) {
    const [probe] = script.iterate('probe-service', data, { at: PLAN.baselineSeconds + 1, iteration });
    assert.deepEqual(probe.tags, { kind: 'probe', probe: probe.tags.probe, target: 'service', phase: 'load' });
    assert.equal(probe.method, 'GET');
    assert.equal(probe.params.headers.Connection, 'close');
    seen.add(`${probe.tags.probe} ${probe.url}`);
  }
  assert.deepEqual([...seen].sort(), ['health http://orders:9000/health', 'hello http://orders:8081/hello']);
  const [work] = script.iterate('load-service', data, { at: PLAN.baselineSeconds + 1 });
  assert.deepEqual([work.method, work.url, work.params.headers['Content-Type']], ['POST', 'http://orders:8081/native?ms=100', 'application/json']);
  assert.deepEqual(work.tags, { kind: 'work', mode: 'request', target: 'service', phase: 'load' });
  assert.equal(work.expected, true);
  assert.equal(script.ctx.samples.filter((s) => s.metric === 'work_completed').length, 1);
  const down = await loadScript(OWN_SERVICE, { env: SERVICE, transport: ownService({ down: '/health' }) });
  assert.throws(() => down.setup(), (/** @type {any} */ error) => error instanceof K6Abort
    && /health http:\/\/orders:9000\/health is not ready: GET gave HTTP 503\. Start the service, or point LOAD_URL \(or BASE_URL\) and WATCH at it/.test(error.message));
});

test('where the service has /lab/info, its facts are read (the probes tagged with the event loops it names: requests.test, the same runOf probe)', async () => {
  const script = await loadScript(OWN_SERVICE, { env: { LOAD_URL: 'http://localhost:8080/work/cpu?ms=100', WATCH: 'virtual=/probe/virtual,health=/q/health/live',
    WATCH_STARVED: 'virtual' }, transport: fakeService({ info: JDK25_INFO }) });
  assert.equal(script.setup().targets.service.facts.javaVersion, JDK25_INFO.javaVersion);
});

test('LOAD_MODULE: k6 require()s your module in the init context and its request() sends the load and the load\'s probe', async () => {
  const path = fixture('load-module.js');
  const module = await import(path);
  const script = await loadScript(OWN_SERVICE, { env: { LOAD_MODULE: path, BASE_URL: 'http://orders.example:8080', WATCH: 'health=/health' },
    transport: ownService(), modules: { [path]: module } });
  const data = script.setup();
  const [work] = script.iterate('load-service', data, { at: PLAN.baselineSeconds + 1 });
  assert.deepEqual([work.method, work.url, work.params.headers['Content-Type']], ['POST', 'http://orders.example:8080/orders', 'application/json']);
  assert.deepEqual(work.tags, { kind: 'work', mode: 'request', target: 'service', phase: 'load' });
  const probes = [0, 1, 2, 3, 4, 5].flatMap((iteration) => script.iterate('probe-service', data, { at: 1, iteration }));
  assert.ok(probes.some((p) => p.tags.probe === 'load' && p.method === 'POST' && p.params.headers.Connection === 'close'), JSON.stringify(probes.map((p) => p.tags)));
});

test('the module check refuses fixtures/broken-load-module.js (no request export) and a path k6 cannot find', async () => {
  const path = fixture('broken-load-module.js');
  const broken = await import(path);
  await assert.rejects(loadScript(OWN_SERVICE, { env: { LOAD_MODULE: path }, modules: { [path]: broken } }),
    new RegExp(`LOAD_MODULE ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} exports no request\\(params\\) function`));
  await assert.rejects(loadScript(OWN_SERVICE, { env: { LOAD_MODULE: './missing.js' } }), /couldn't be found on local disk/);
});

test('report: the named endpoint judged by the starved rule, the health check untouched, the facts unknown and no prediction judged', async () => {
  const { md, json, files } = await report({ path: OWN_SERVICE, env: { ...SERVICE, EXPECT_STARVED: 'true' }, transport: ownService() },
    { starving: (_target, phase) => phase === 'load', eventLoops: [] });
  assert.match(md, /^Your service, http:\/\/orders:8081: your load after a baseline, watching hello \(\/hello\), health \(\/health\)\.$/m);
  assert.match(md, /starved when \/hello's p50 is at least 20x its baseline/);
  assert.match(md, /^- service \/ load: STARVES under GET http:\/\/orders:8081\/native\?ms=100: \/hello p50 1413 ms ≥ 50 ms \(20x its baseline 1\.8 ms, at least 50 ms\); 40\.0\/s\. The service has no \/lab\/info: its facts are unknown, and no prediction is judged\. Untouched \(p99\): health 7\.5 ms\. Probes: 330 sent in the window of 330 planned, none dropped; the answers name no event loop\.$/m);
  assert.match(md, /^- Note: The service has no \/lab\/info: its facts \(Java, carriers, event loops\) are unknown/m);
  assert.match(md, /^- Note: No probe answer named its event loop \(eventLoop\): the probes are not broken down by event loop\.$/m);
  assert.match(md, /^\| service \| load \| `GET http:\/\/orders:8081\/native\?ms=100` \| 64 VUs \| 240 \|/m);
  const lab = json.starvationLab;
  assert.deepEqual(lab.verdicts.map((/** @type {any} */ v) => [v.observed, v.expected, v.agrees, v.untouched]),
    [['starves', 'unknown', null, [{ probe: 'health', ms: 7.46, untouched: true }]]]);
  assert.deepEqual(lab.facts, { service: null });
  assert.deepEqual(lab.thresholds.filter((/** @type {any} */ t) => !t.ok), []);
  assert.match(files.stdout, /your service, watching hello \(\/hello\), health \(\/health\)/);
});

/**
 * A service that is not the lab: every watched path answers 200 (but `down`, 503), the load too, and /lab/info is 404.
 */
function ownService(settings = {}) {
  return (request) => {
    const path = new URL(request.url).pathname;
    const status = path === '/lab/info' ? 404 : path === settings.down ? 503 : 200;
    return { status, headers: { 'Content-Type': 'application/json' }, body: status === 200 ? '{"status":"UP"}' : '{}', durationMs: 2 };
  };
}
