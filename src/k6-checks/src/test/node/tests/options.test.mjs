// The options that state the expected outcome: probe and load scenarios, and the threshold layout.
// Whether k6 accepts the options at all (executors, durations, exec functions, threshold
// expressions on metrics that exist) is checked by k6 itself, in K6SuiteIT (`k6 inspect`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plan, STARVATION, TWO_TARGETS } from '../harness/paths.mjs';
import { loadScript } from '../harness/runtime.mjs';

const PLAN = plan();
const UNTOUCHED = `p(${PLAN.untouched.percentile})<${PLAN.untouched.maximumMillis}`;

test('probes run at a constant arrival rate from the start, one scenario per target, with every VU they can hold', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  const { probes, phases } = PLAN;
  const loadSeconds = phases.find((/** @type {any} */ p) => p.name === 'pinned').seconds;
  const total = Object.keys(probes.endpoints).reduce((s, p) => s + ((probes.ratePerSecondByProbe || {})[p] ?? probes.ratePerSecond), 0);
  const scenarios = Object.entries(script.options.scenarios);
  const probeScenarios = scenarios.filter(([, s]) => s.exec === 'probe');
  assert.deepEqual(probeScenarios.map(([name]) => name), ['probe-pinned', 'probe-unpinned']);
  for (const [, s] of probeScenarios) {
    assert.equal(s.executor, 'constant-arrival-rate');
    assert.deepEqual([s.rate, s.timeUnit], [total, '1s']);
    assert.equal(s.startTime, undefined);
    assert.equal(s.duration, `${PLAN.baselineSeconds + loadSeconds}s`);
    const vus = Math.ceil(total * (probes.timeoutMillis / 1000 + 1));
    assert.deepEqual([s.preAllocatedVUs, s.maxVUs], [vus, vus], 'k6 drops an iteration while it starts a VU: all are there from the start');
  }
  const loads = scenarios.filter(([, s]) => s.exec === 'load');
  assert.deepEqual(loads.map(([n, s]) => [n, s.executor, s.vus, s.startTime, s.duration]), [
    ['load-pinned', 'constant-vus', 64, `${PLAN.baselineSeconds}s`, `${loadSeconds}s`],
    ['load-unpinned', 'constant-vus', 64, `${PLAN.baselineSeconds}s`, `${loadSeconds}s`],
  ]);
});

test('summaryTrendStats has what the report reads, and the rules\' percentiles; no threshold aborts the run', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  for (const stat of ['p(10)', 'med', 'p(90)', 'p(99)', 'max', 'count']) {
    assert.ok(script.options.summaryTrendStats.includes(stat), stat);
  }
  for (const [key, list] of Object.entries(script.options.thresholds)) {
    for (const entry of list) {
      assert.equal(typeof entry === 'object' && entry.abortOnFail, false, `${key} may abort the run`);
    }
  }
});

test('thresholds state the expected outcome: the virtual probe by the starved rule\'s floor, the others by the untouched rule', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  const t = /** @type {Record<string, { threshold: string }[]>} */ (script.options.thresholds);
  const expr = (/** @type {string} */ key) => t[key]?.map((e) => e.threshold);
  const floor = PLAN.starved.minimumMillis;
  for (const probe of PLAN.untouched.probes) {
    for (const target of ['pinned', 'unpinned']) {
      assert.deepEqual(expr(`http_req_duration{probe:${probe},target:${target},phase:baseline}`), [UNTOUCHED]);
      assert.deepEqual(expr(`http_req_duration{probe:${probe},target:${target},phase:load}`), [UNTOUCHED]);
      assert.deepEqual(expr(`probe_errors{probe:${probe},target:${target},phase:load}`), ['rate<0.01']);
    }
  }
  for (const target of ['pinned', 'unpinned']) {
    assert.deepEqual(expr(`http_req_duration{probe:virtual,target:${target},phase:baseline}`), [`med<${floor}`]);
  }
  assert.deepEqual(expr('http_req_duration{probe:virtual,target:unpinned,phase:load}'), [`med<${floor}`]);
  assert.deepEqual(expr('http_req_duration{probe:virtual,target:pinned,phase:load}'), [`med>=${floor}`]);
  assert.deepEqual(expr('probe_errors{probe:virtual,target:pinned,phase:load}'), ['rate>=0'], 'a starving probe may meet its deadline');
  assert.deepEqual(expr('probe_errors{probe:virtual,target:unpinned,phase:load}'), ['rate<0.01']);
  assert.deepEqual(expr('work_completed{target:pinned,phase:load}'), ['count>=0'], 'pinned depends on the JVM');
  assert.deepEqual(expr('work_completed{target:unpinned,phase:load}'), ['count>0']);
  assert.deepEqual(expr('work_errors{target:unpinned,phase:load}'), ['rate<0.01']);
  assert.deepEqual(expr('work_overloaded{target:pinned,phase:load}'), ['rate>=0']);
  assert.deepEqual(expr('dropped_iterations{scenario:probe-pinned}'), ['count>=0']);
  for (const seconds of [1, 3]) {
    assert.deepEqual(expr(`probe_over_${seconds}s{probe:worker,target:pinned,phase:baseline}`), ['rate>=0']);
    assert.deepEqual(expr(`probe_over_${seconds}s{probe:virtual,target:pinned,phase:load,event_loop:7}`), ['rate>=0']);
  }
  for (const loop of ['0', '7', 'other']) {
    for (const probe of Object.keys(PLAN.probes.endpoints)) {
      assert.deepEqual(expr(`probe_wait{probe:${probe},target:unpinned,phase:load,event_loop:${loop}}`), ['max>=0'], `${probe} ${loop}`);
    }
  }
  assert.equal(expr('probe_wait{probe:virtual,target:pinned,phase:load,event_loop:8}'), undefined);
});

test('the thresholds follow the plan\'s rules: their percentiles, floor and bound', async () => {
  for (const [percentile, stat] of [[50, 'med'], [90, 'p(90)'], [75, 'p(75)']]) {
    const layout = { ...PLAN, starved: { ...PLAN.starved, percentile, minimumMillis: 80 }, untouched: { ...PLAN.untouched, percentile, maximumMillis: 120 } };
    const script = await loadScript(STARVATION, { env: TWO_TARGETS, plan: layout });
    const t = /** @type {Record<string, { threshold: string }[]>} */ (script.options.thresholds);
    assert.deepEqual(t['http_req_duration{probe:virtual,target:pinned,phase:load}'].map((e) => e.threshold), [`${stat}>=80`]);
    assert.deepEqual(t['http_req_duration{probe:virtual,target:unpinned,phase:load}'].map((e) => e.threshold), [`${stat}<80`]);
    assert.deepEqual(t['http_req_duration{probe:worker,target:unpinned,phase:load}'].map((e) => e.threshold), [`${stat}<120`]);
    assert.ok(script.options.summaryTrendStats.includes(stat), stat);
  }
});

test('BASE_URL thresholds: what every JVM does is judged, what depends on the JVM is recorded, shared threads are recorded', async () => {
  assert.equal(PLAN.starved.minimumMillis, 50, 'this test states the plan\'s floor');
  const script = await loadScript(STARVATION, {});
  const t = /** @type {Record<string, { threshold: string }[]>} */ (script.options.thresholds);
  const probe = (/** @type {string} */ name, /** @type {string} */ phase) => t[`http_req_duration{probe:${name},target:base,phase:${phase}}`]?.map((e) => e.threshold);
  assert.deepEqual(probe('virtual', 'baseline'), ['med<50']);
  assert.deepEqual(probe('virtual', 'unpinned'), ['med<50']);
  assert.deepEqual(probe('virtual', 'reentrant'), ['med<50']);
  assert.deepEqual(probe('virtual', 'unpinned-db'), ['med<50']);
  assert.deepEqual(probe('virtual', 'cpu'), ['med>=50']);
  assert.deepEqual(probe('virtual', 'pinned'), ['max>=0']);
  assert.deepEqual(probe('virtual', 'native'), ['max>=0']);
  assert.deepEqual(probe('virtual', 'native-db'), ['max>=0']);
  assert.deepEqual(probe('worker', 'cpu'), ['max>=0'], 'cpu work burns the cores every thread runs on');
  assert.deepEqual(probe('health-live', 'cpu'), ['max>=0']);
  assert.deepEqual(probe('worker', 'native'), [UNTOUCHED]);
  assert.deepEqual(t['work_completed{target:base,phase:native}'].map((e) => e.threshold), ['count>=0']);
  assert.deepEqual(t['work_completed{target:base,phase:cpu}'].map((e) => e.threshold), ['count>0']);
});

test('the init contexts of the probing VUs do not build the thresholds (only VU 0, whose options k6 reads)', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  assert.ok(Object.keys(script.options.thresholds).length > 100);
  const vu = await loadScript(STARVATION, { env: TWO_TARGETS, vu: 7 });
  assert.deepEqual(vu.options.thresholds, {});
  assert.deepEqual(Object.keys(vu.options.scenarios), Object.keys(script.options.scenarios));
});
