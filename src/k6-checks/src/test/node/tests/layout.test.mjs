// lib-config.js: the layout read from __ENV and plan.json (targets, timeline, probe rates and VUs, knobs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { K6_DIR, plan, TWO_TARGETS } from '../harness/paths.mjs';
import { importSuiteModule } from '../harness/runtime.mjs';

/** @type {typeof import('../../../../../../k6/lib-config.js')} */
const { arrivalRateOf, buildLayout, eventLoopOf, eventLoopTags, probeVusFor, windowAt } = await importSuiteModule(resolve(K6_DIR, 'lib-config.js'));
/** @type {typeof import('../../../../../../k6/lib-thresholds.js')} */
const { expectationBeforeTheRun } = await importSuiteModule(resolve(K6_DIR, 'lib-thresholds.js'));

const PLAN = plan();
const DEFAULT_PHASES = PLAN.phases.filter((/** @type {any} */ p) => p.jvm === 'default');
/** @param {string} probe */
const planRate = (probe) => (PLAN.probes.ratePerSecondByProbe || {})[probe] ?? PLAN.probes.ratePerSecond;

test('two targets: the same load on both, defaults from the plan\'s pinned phase', () => {
  const layout = buildLayout(TWO_TARGETS, PLAN);
  const pinnedPhase = DEFAULT_PHASES.find((/** @type {any} */ p) => p.name === 'pinned');
  assert.equal(layout.kind, 'two-targets');
  assert.deepEqual(layout.targets, [{ name: 'pinned', url: 'http://lab-pinned:8080' }, { name: 'unpinned', url: 'http://lab-unpinned:8080' }]);
  assert.deepEqual(layout.loads.map((l) => [l.scenario, l.mode, l.phase, l.ms, l.downstream, l.lock, l.vus, l.start, l.seconds]), [
    ['load-pinned', 'pinned', 'load', pinnedPhase.ms, pinnedPhase.downstream, pinnedPhase.lock, pinnedPhase.concurrency, PLAN.baselineSeconds, pinnedPhase.seconds],
    ['load-unpinned', 'unpinned', 'load', pinnedPhase.ms, pinnedPhase.downstream, pinnedPhase.lock, pinnedPhase.concurrency, PLAN.baselineSeconds, pinnedPhase.seconds],
  ]);
  assert.deepEqual(layout.windows, [
    { name: 'baseline', start: 0, end: PLAN.baselineSeconds },
    { name: 'load', start: PLAN.baselineSeconds, end: PLAN.baselineSeconds + pinnedPhase.seconds },
  ]);
  assert.equal(layout.probeTimeoutMs, PLAN.probes.timeoutMillis);
  assert.deepEqual(layout.starvingModes, ['pinned']);
  assert.equal(layout.probes.length, 2 * Object.keys(PLAN.probes.endpoints).length);
  assert.deepEqual([...new Set(layout.probes.map((p) => p.scenario))], ['probe-pinned', 'probe-unpinned']);
  const { $comment: starvedWhy, ...starved } = PLAN.starved;
  const { $comment: untouchedWhy, ...untouched } = PLAN.untouched;
  assert.ok(starvedWhy && untouchedWhy, 'plan.json says why its rules are what they are');
  assert.deepEqual(layout.rules, { starved, untouched, leastEventLoopShare: PLAN.probes.leastEventLoopShare });
});

test('each probe runs at the plan\'s rate (ratePerSecondByProbe over ratePerSecond), or every one at PROBE_RATE', () => {
  const layout = buildLayout({}, PLAN);
  for (const route of layout.probes) {
    assert.equal(route.rate, planRate(route.probe), route.probe);
  }
  assert.ok(layout.probes.some((r) => r.rate !== PLAN.probes.ratePerSecond), 'the plan gives some probe a rate of its own');
  assert.ok(buildLayout({ PROBE_RATE: '20' }, PLAN).probes.every((r) => r.rate === 20));
  assert.deepEqual(arrivalRateOf(layout.probes), { rate: Object.keys(PLAN.probes.endpoints).reduce((s, p) => s + planRate(p), 0), timeUnit: '1s' });
  assert.deepEqual(arrivalRateOf([{ ...layout.probes[0], rate: 2.5 }, { ...layout.probes[1], rate: 0.25 }]), { rate: 275, timeUnit: '100s' });
});

test('probe VUs: every probe the timeout and a second more can hold in flight, so that k6 drops none', () => {
  const total = Object.keys(PLAN.probes.endpoints).reduce((s, p) => s + planRate(p), 0);
  const layout = buildLayout({}, PLAN);
  assert.equal(layout.probeVus, Math.ceil(total * (PLAN.probes.timeoutMillis / 1000 + 1)));
  assert.equal(buildLayout({ PROBE_TIMEOUT_MS: '4000' }, PLAN).probeVus, total * 5);
  assert.equal(buildLayout({ PROBE_RATE: '10', PROBE_TIMEOUT_MS: '1500' }, PLAN).probeVus, 100);
  assert.equal(probeVusFor([{ ...layout.probes[0], rate: 3 }], 2500), 11);
});

test('an answer\'s event loop becomes the number its thread name ends with, or other', () => {
  assert.equal(eventLoopOf('vert.x-eventloop-thread-0', 8), '0');
  assert.equal(eventLoopOf('vert.x-eventloop-thread-7', 8), '7');
  assert.equal(eventLoopOf('vert.x-eventloop-thread-8', 8), 'other');
  assert.equal(eventLoopOf('main', 8), 'other');
  assert.equal(eventLoopOf(undefined, 8), null);
  assert.equal(eventLoopOf('', 8), null);
  assert.deepEqual(eventLoopTags(buildLayout({ EVENT_LOOPS: '2' }, PLAN)), ['0', '1', 'other']);
});

test('the plan\'s rules are checked as the Java runner checks them', () => {
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

test('BASE_URL: the plan\'s default-JVM phases one after another, with drain gaps', () => {
  const layout = buildLayout({}, PLAN);
  assert.equal(layout.kind, 'one-target');
  assert.deepEqual(layout.targets, [{ name: 'base', url: 'http://localhost:8080' }]);
  assert.deepEqual(layout.loads.map((l) => l.phase), DEFAULT_PHASES.map((/** @type {any} */ p) => p.name));
  let start = PLAN.baselineSeconds;
  for (const [i, load] of layout.loads.entries()) {
    const phase = DEFAULT_PHASES[i];
    assert.deepEqual([load.scenario, load.mode, load.downstream, load.lock, load.ms, load.vus, load.start, load.seconds],
      [`load-${phase.name}`, phase.mode, phase.downstream, phase.lock, phase.ms, phase.concurrency, start, phase.seconds]);
    start += phase.seconds + PLAN.drainSeconds;
  }
  assert.equal(layout.totalSeconds, start - PLAN.drainSeconds);
  assert.deepEqual(layout.starvingModes, [], 'what starves on every JVM comes from the predictions, not from a default');
});

test('windowAt tags baseline, each load window, and the drain gaps between them', () => {
  const layout = buildLayout({}, PLAN);
  assert.equal(windowAt(layout, 0), 'baseline');
  assert.equal(windowAt(layout, PLAN.baselineSeconds - 0.01), 'baseline');
  for (const load of layout.loads) {
    assert.equal(windowAt(layout, load.start), load.phase);
    assert.equal(windowAt(layout, load.start + load.seconds - 0.01), load.phase);
    assert.equal(windowAt(layout, load.start + load.seconds + 0.01), 'drain');
  }
});

test('knobs override the plan', () => {
  const layout = buildLayout({ ...TWO_TARGETS, PINNED_MODE: 'native', UNPINNED_MODE: 'reentrant', MS: '250',
    DOWNSTREAM: 'db', LOCK: 'shared', LOAD_VUS: '32', LOAD_RATE: '100', LOAD_MAX_VUS: '200', LOAD_SECONDS: '60',
    BASELINE_SECONDS: '20', DRAIN_SECONDS: '5', PROBE_RATE: '20', EVENT_LOOPS: '16',
    PROBE_TIMEOUT_MS: '5000', WORK_TIMEOUT_MS: '15000', REPORT_DIR: '/reports' }, PLAN);
  assert.deepEqual(layout.loads.map((l) => [l.mode, l.ms, l.downstream, l.lock, l.vus, l.rate, l.maxVus, l.start, l.seconds]), [
    ['native', 250, 'db', 'shared', 32, 100, 200, 20, 60],
    ['reentrant', 250, 'db', 'shared', 32, 100, 200, 20, 60],
  ]);
  assert.deepEqual([layout.eventLoops, layout.probeVus, layout.probeTimeoutMs, layout.workTimeoutMs, layout.reportDir],
    [16, 4 * 20 * 6, 5000, 15000, '/reports']);
  assert.deepEqual(layout.starvingModes, ['native']);
});

test('PHASES picks plan phases; QUICK applies the plan\'s quick settings', () => {
  assert.deepEqual(buildLayout({ PHASES: 'pinned, cpu' }, PLAN).loads.map((l) => l.phase), ['pinned', 'cpu']);
  const quick = buildLayout({ QUICK: 'true' }, PLAN);
  const q = PLAN.quick;
  assert.equal(quick.windows[0].end, q.baselineSeconds !== undefined ? q.baselineSeconds
    : Math.max(q.minimumSeconds, Math.ceil(PLAN.baselineSeconds * q.durationScale)));
  assert.equal(quick.drainSeconds, q.drainSeconds !== undefined ? q.drainSeconds : PLAN.drainSeconds);
  assert.ok(quick.loads.length > 0);
  for (const load of quick.loads) {
    const phase = DEFAULT_PHASES.find((/** @type {any} */ p) => p.name === load.phase);
    assert.equal(load.seconds, Math.max(PLAN.quick.minimumSeconds, Math.ceil(phase.seconds * PLAN.quick.durationScale)));
    assert.ok(!PLAN.quick.skipPhases.includes(load.phase));
  }
});

test('before the run the thresholds expect what every JVM does, and what STARVING_MODES names', () => {
  const expectations = (/** @type {Record<string, string>} */ env) => {
    const layout = buildLayout(env, PLAN);
    return layout.loads.map((l) => `${l.target}/${l.mode}: ${expectationBeforeTheRun(layout, l)}`);
  };
  assert.deepEqual(expectations(TWO_TARGETS), ['pinned/pinned: starves', 'unpinned/unpinned: free']);
  assert.deepEqual(expectations({ ...TWO_TARGETS, STARVING_MODES: '' }), ['pinned/pinned: depends', 'unpinned/unpinned: free']);
  // The unpinned deployment is the control: the same mode there depends on its JVM.
  assert.deepEqual(expectations({ ...TWO_TARGETS, UNPINNED_MODE: 'pinned' }), ['pinned/pinned: starves', 'unpinned/pinned: depends']);
  assert.deepEqual(expectations({ ...TWO_TARGETS, PINNED_MODE: 'reentrant' }), ['pinned/reentrant: free', 'unpinned/unpinned: free']);
  assert.deepEqual(expectations({ PHASES: 'unpinned,pinned,native,cpu,native-db' }),
    ['base/unpinned: free', 'base/pinned: depends', 'base/native: depends', 'base/cpu: starves', 'base/native: depends']);
  assert.deepEqual(expectations({ PHASES: 'pinned,cpu', STARVING_MODES: 'pinned' }), ['base/pinned: starves', 'base/cpu: starves']);
});

test('a bad knob stops the script with the knob\'s name', () => {
  const cases = [
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
  ];
  for (const [env, message] of cases) {
    assert.throws(() => buildLayout(/** @type {Record<string, string>} */ (env), PLAN), message, JSON.stringify(env));
  }
});
