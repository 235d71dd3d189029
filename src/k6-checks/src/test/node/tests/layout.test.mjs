// The lab's layouts (lib-layout.js) and the run's knobs (lib-knobs.js runKnobs) from __ENV and plan.json:
// targets, timeline, probe rates and VUs, every knob and its refusal, the quick run; and the probes' tags
// (lib-probe-schedule.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runKnobs } from '../../../../../../k6/lib-knobs.js';
import { buildLayout } from '../../../../../../k6/lib-layout.js';
import { arrivalRateOf, eventLoopOf, eventLoopTags, probeVusFor, windowAt } from '../../../../../../k6/lib-probe-schedule.js';
import { PLAN, STARVATION, TWO_TARGETS } from '../harness/paths.mjs';
import { loadScript } from '../harness/runtime.mjs';

const DEFAULT_PHASES = PLAN.phases.filter((/** @type {any} */ p) => p.jvm === 'default');
const planRate = (probe) => PLAN.probes.ratePerSecondByProbe[probe] ?? PLAN.probes.ratePerSecond;
const TOTAL_RATE = Object.keys(PLAN.probes.endpoints).reduce((s, p) => s + planRate(p), 0);

test('two targets: the same load on both, defaults from the plan\'s pinned phase; the plan\'s rules', () => {
  const layout = buildLayout(TWO_TARGETS, PLAN);
  const pinned = DEFAULT_PHASES.find((/** @type {any} */ p) => p.name === 'pinned');
  assert.equal(layout.kind, 'two-targets');
  assert.deepEqual(layout.targets, [{ name: 'pinned', url: 'http://lab-pinned:8080' }, { name: 'unpinned', url: 'http://lab-unpinned:8080' }]);
  assert.deepEqual(layout.loads.map((l) => [l.scenario, l.mode, l.phase, l.ms, l.downstream, l.lock, l.vus, l.start, l.seconds]), ['pinned', 'unpinned'].map((t) =>
    [`load-${t}`, t, 'load', pinned.ms, pinned.downstream, pinned.lock, pinned.concurrency, PLAN.baselineSeconds, pinned.seconds]));
  assert.deepEqual(layout.windows, [{ name: 'baseline', start: 0, end: PLAN.baselineSeconds },
    { name: 'load', start: PLAN.baselineSeconds, end: PLAN.baselineSeconds + pinned.seconds }]);
  assert.deepEqual(layout.loads.map((l) => l.expected), ['starves', 'free'], 'the pinned deployment is there to starve (STARVING_MODES)');
  assert.deepEqual(layout.probes.map((p) => [p.scenario, p.probe, p.url, p.rate]), ['pinned', 'unpinned'].flatMap((t) =>
    Object.entries(PLAN.probes.endpoints).map(([probe, path]) => [`probe-${t}`, probe, `http://lab-${t}:8080${path}`, planRate(probe)])));
  assert.ok(layout.probes.some((r) => r.rate !== PLAN.probes.ratePerSecond), 'the plan gives some probe a rate of its own');
  const { $comment: starvedWhy, ...starved } = PLAN.starved;
  const { $comment: untouchedWhy, ...untouched } = PLAN.untouched;
  assert.ok(starvedWhy && untouchedWhy, 'plan.json says why its rules are what they are');
  assert.deepEqual(layout.rules, { starved, untouched, leastEventLoopShare: PLAN.probes.leastEventLoopShare });
});

test('probe VUs: every probe the timeout and a second more can hold in flight, at one arrival rate per target (the plan\'s own: options.test.mjs)', async () => {
  const probeVus = async (/** @type {Record<string, string>} */ env) => (await loadScript(STARVATION, { env })).options.scenarios['probe-base'].preAllocatedVUs;
  assert.equal(await probeVus({ PROBE_TIMEOUT_MS: '4000' }), TOTAL_RATE * 5);
  assert.equal(await probeVus({ PROBE_RATE: '10', PROBE_TIMEOUT_MS: '1500' }), 100);
  const [route] = buildLayout({}, PLAN).probes;
  assert.equal(probeVusFor([{ ...route, rate: 3 }], 2500), 11);
  assert.deepEqual(arrivalRateOf([{ ...route, rate: 2.5 }, { ...route, rate: 0.25 }]), { rate: 275, timeUnit: '100s' });
});

test('BASE_URL: the plan\'s default-JVM phases one after another, with drain gaps; windowAt tags each moment', () => {
  const layout = buildLayout({}, PLAN);
  assert.equal(layout.kind, 'one-target');
  assert.deepEqual(layout.targets, [{ name: 'base', url: 'http://localhost:8080' }]);
  let start = PLAN.baselineSeconds;
  assert.deepEqual(layout.loads.map((l) => [l.scenario, l.mode, l.downstream, l.lock, l.ms, l.vus, l.start, l.seconds]), DEFAULT_PHASES.map((/** @type {any} */ p) => {
    const row = [`load-${p.name}`, p.mode, p.downstream, p.lock, p.ms, p.concurrency, start, p.seconds];
    start += p.seconds + PLAN.drainSeconds;
    return row;
  }));
  assert.equal(layout.windows[layout.windows.length - 1].end, start - PLAN.drainSeconds);
  assert.deepEqual(layout.loads.filter((l) => l.expected === 'starves').map((l) => l.mode), ['cpu'],
    'what starves on every JVM comes from the predictions, not from a default');
  assert.deepEqual([windowAt(layout.windows, 0), windowAt(layout.windows, PLAN.baselineSeconds - 0.01)], ['baseline', 'baseline']);
  for (const load of layout.loads) {
    assert.deepEqual([load.start, load.start + load.seconds - 0.01, load.start + load.seconds + 0.01].map((s) => windowAt(layout.windows, s)),
      [load.phase, load.phase, 'drain']);
  }
});

test('an answer\'s event loop becomes the number its thread name ends with, or other', () => {
  assert.deepEqual(['vert.x-eventloop-thread-0', 'vert.x-eventloop-thread-7', 'vert.x-eventloop-thread-8', 'main', undefined, '']
    .map((name) => eventLoopOf(name, 8)), ['0', '7', 'other', 'other', null, null]);
  assert.deepEqual(eventLoopTags(runKnobs({ EVENT_LOOPS: '2' }, PLAN).eventLoops), ['0', '1', 'other']);
});

test('knobs override the plan', () => {
  const env = { ...TWO_TARGETS, PINNED_MODE: 'native', UNPINNED_MODE: 'reentrant', MS: '250',
    DOWNSTREAM: 'db', LOCK: 'shared', LOAD_VUS: '32', LOAD_RATE: '100', LOAD_MAX_VUS: '200', LOAD_SECONDS: '60',
    BASELINE_SECONDS: '20', DRAIN_SECONDS: '5', PROBE_RATE: '20', EVENT_LOOPS: '16',
    PROBE_TIMEOUT_MS: '5000', WORK_TIMEOUT_MS: '15000', REPORT_DIR: '/reports', CPUS: '4' };
  const layout = buildLayout(env, PLAN);
  assert.deepEqual(layout.loads.map((l) => [l.mode, l.ms, l.downstream, l.lock, l.vus, l.rate, l.maxVus, l.start, l.seconds, l.drainSeconds, l.expected]), [
    ['native', 250, 'db', 'shared', 32, 100, 200, 20, 60, 5, 'starves'],
    ['reentrant', 250, 'db', 'shared', 32, 100, 200, 20, 60, 5, 'free'],
  ]);
  assert.ok(layout.probes.every((r) => r.rate === 20));
  assert.deepEqual(runKnobs(env, PLAN), { probeTimeoutMs: 5000, eventLoops: 16, workTimeoutMs: 15000, reportDir: '/reports', cpus: 4 });
  assert.deepEqual(buildLayout({ PHASES: 'pinned, cpu' }, PLAN).loads.map((l) => l.phase), ['pinned', 'cpu']);
});

test('QUICK runs the default-JVM phases of plan.json\'s quick.phases, each for its seconds there, with the quick baseline and drain', () => {
  const { quick } = PLAN;
  const quickRun = (/** @type {Record<string, string>} */ env) => buildLayout({ QUICK: 'true', ...env }, PLAN);
  const layout = quickRun({});
  assert.deepEqual(layout.loads.map((l) => [l.phase, l.seconds]),
    DEFAULT_PHASES.filter((/** @type {any} */ p) => p.name in quick.phases).map((/** @type {any} */ p) => [p.name, quick.phases[p.name]]));
  assert.ok(layout.loads.length < DEFAULT_PHASES.length, 'a quick run leaves phases out');
  assert.deepEqual([layout.windows[0].end, layout.loads[0].drainSeconds], [quick.baselineSeconds, quick.drainSeconds]);
  assert.deepEqual(quickRun({ PHASES: 'cpu,native-db' }).loads.map((l) => l.phase), ['cpu'], 'PHASES picks among the quick phases');
  assert.deepEqual(quickRun(TWO_TARGETS).loads.map((l) => [l.mode, l.seconds]), [['pinned', quick.phases.pinned], ['unpinned', quick.phases.pinned]]);
  assert.deepEqual(quickRun({ PHASES: quick.k6Phases.join(',') }).loads.map((l) => l.phase), quick.k6Phases,
    'quick.k6Phases, which the main job\'s quick run runs on k6 (MainRun), are quick phases k6 runs');
});

test('before the run the thresholds expect what every JVM does, and what STARVING_MODES names (the default layouts\' thresholds: options.test.mjs)', () => {
  const expectations = (/** @type {Record<string, string>} */ env) => buildLayout(env, PLAN).loads.map((l) => `${l.target}/${l.mode}: ${l.expected}`);
  assert.deepEqual(expectations({ ...TWO_TARGETS, STARVING_MODES: '' }), ['pinned/pinned: depends', 'unpinned/unpinned: free']);
  // The unpinned deployment is the control: the same mode there depends on its JVM.
  assert.deepEqual(expectations({ ...TWO_TARGETS, UNPINNED_MODE: 'pinned' }), ['pinned/pinned: starves', 'unpinned/pinned: depends']);
  assert.deepEqual(expectations({ ...TWO_TARGETS, PINNED_MODE: 'reentrant' }), ['pinned/reentrant: free', 'unpinned/unpinned: free']);
  assert.deepEqual(expectations({ PHASES: 'pinned,cpu', STARVING_MODES: 'pinned' }), ['base/pinned: starves', 'base/cpu: starves']);
});

test('a bad knob, or a bad rule in the plan, stops the script with its name', () => {
  const refused = [
    [{ PINNED_URL: 'http://a:8080' }, /both PINNED_URL and UNPINNED_URL/],
    [{ BASE_URL: 'localhost:8080' }, /BASE_URL must be an http\(s\) URL/],
    [{ BASE_URL: 'http://localhost:8080/lab' }, /BASE_URL must be an http\(s\) URL without a path/],
    [{ MS: '30001' }, /MS must be a whole number from 0 to 30000/],
    [{ MS: '-1' }, /MS must be a whole number/],
    [{ DOWNSTREAM: 'http' }, /DOWNSTREAM must be one of db, sleep/],
    [{ LOCK: 'global' }, /LOCK must be one of private, shared/],
    [{ ...TWO_TARGETS, PINNED_MODE: 'pined' }, /PINNED_MODE must be one of/],
    [{ LOAD_VUS: '0' }, /LOAD_VUS must be a whole number from 1/],
    [{ PROBE_RATE: 'ten' }, /PROBE_RATE must be a whole number from 1/],
    [{ PROBE_RATE: '0' }, /PROBE_RATE must be a whole number from 1/],
    [{ QUICK: 'yes' }, /QUICK must be true or false/],
    [{ PHASES: 'pinned-legacy-locking' }, /PHASES: 'pinned-legacy-locking' is not a phase of plan.json that runs on the default JVM/],
    [{ STARVING_MODES: 'pined' }, /STARVING_MODES: unknown mode 'pined'/],
    [{ LOAD_URL: 'http://a:1/x' }, /LOAD_URL is a knob of your own service's layout: run k6\/own-service\.js/],
    [{ WATCH: 'health=/health' }, /WATCH is a knob of your own service's layout/],
  ];
  for (const [env, message] of refused) {
    assert.throws(() => buildLayout(/** @type {Record<string, string>} */ (env), PLAN), message, JSON.stringify(env));
  }
  for (const knob of ['PROBE_TIMEOUT_MS', 'EVENT_LOOPS', 'WORK_TIMEOUT_MS', 'CPUS']) {
    assert.throws(() => runKnobs({ [knob]: '0' }, PLAN), new RegExp(`${knob} must be a whole number from 1`));
  }
  for (const starved of [undefined, { ...PLAN.starved, probe: 'carrier' }, { ...PLAN.starved, percentile: 100 },
    { ...PLAN.starved, baselineFactor: 0.5 }, { ...PLAN.starved, minimumMillis: -1 }]) {
    assert.throws(() => buildLayout({}, { ...PLAN, starved }), /plan\.json: starved needs a probe of probes\.endpoints/, JSON.stringify(starved));
  }
  for (const untouched of [undefined, { ...PLAN.untouched, probes: [] }, { ...PLAN.untouched, probes: ['virtual'] },
    { ...PLAN.untouched, probes: ['carrier'] }, { ...PLAN.untouched, maximumMillis: 0 }]) {
    assert.throws(() => buildLayout({}, { ...PLAN, untouched }), /plan\.json: untouched needs probes/, JSON.stringify(untouched));
  }
  assert.throws(() => buildLayout({}, { ...PLAN, probes: { ...PLAN.probes, leastEventLoopShare: 0 } }), /leastEventLoopShare must be in \(0, 1\]/);
});
