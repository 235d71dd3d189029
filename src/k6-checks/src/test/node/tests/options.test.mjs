// The options that state the expected outcome: probe and load scenarios, and the threshold layout.
// Whether k6 accepts the options at all (executors, durations, exec functions, threshold
// expressions on metrics that exist) is checked by k6 itself, in K6SuiteIT (`k6 inspect`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLAN, STARVATION, TWO_TARGETS } from '../harness/paths.mjs';
import { loadScript } from '../harness/runtime.mjs';

const UNTOUCHED = `p(${PLAN.untouched.percentile})<${PLAN.untouched.maximumMillis}`;

test('probes run at a constant arrival rate from the start, one scenario per target, with every VU they can hold; the load after the baseline', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  const { probes } = PLAN;
  const loadSeconds = PLAN.phases.find((/** @type {any} */ p) => p.name === 'pinned').seconds;
  const total = Object.keys(probes.endpoints).reduce((s, p) => s + (probes.ratePerSecondByProbe[p] ?? probes.ratePerSecond), 0);
  const vus = Math.ceil(total * (probes.timeoutMillis / 1000 + 1));
  // k6 drops an iteration while it starts a VU: all are there from the start
  assert.deepEqual(Object.entries(script.options.scenarios).map(([name, s]) => [name, s.executor, s.rate ?? s.vus, s.timeUnit, s.startTime,
    s.duration, s.preAllocatedVUs, s.maxVUs, s.gracefulStop]), [
    ...['pinned', 'unpinned'].map((t) => [`probe-${t}`, 'constant-arrival-rate', total, '1s', undefined, `${PLAN.baselineSeconds + loadSeconds}s`, vus, vus, undefined]),
    ...['pinned', 'unpinned'].map((t) => [`load-${t}`, 'constant-vus', 64, undefined, `${PLAN.baselineSeconds}s`, `${loadSeconds}s`, undefined, undefined,
      `${PLAN.drainSeconds}s`])]);
  const open = (await loadScript(STARVATION, { env: { ...TWO_TARGETS, LOAD_RATE: '200', LOAD_MAX_VUS: '400', DRAIN_SECONDS: '5' } })).options.scenarios['load-pinned'];
  assert.deepEqual([open.executor, open.rate, open.timeUnit, open.preAllocatedVUs, open.maxVUs, open.gracefulStop], ['constant-arrival-rate', 200, '1s', 64, 400, '5s']);
  const list = Object.entries(script.options.thresholds);
  assert.ok(list.length > 100 && list.every(([, entries]) => entries.every((/** @type {any} */ e) => e.abortOnFail === false)), 'no threshold aborts the run');
  // Only VU 0, whose options k6 reads, builds the thresholds, not the init contexts of the probing VUs.
  const vu = await loadScript(STARVATION, { env: TWO_TARGETS, vu: 7 });
  assert.deepEqual([vu.options.thresholds, Object.keys(vu.options.scenarios)], [{}, Object.keys(script.options.scenarios)]);
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
  const virtual = { baseline: 'med<50', unpinned: 'med<50', reentrant: 'med<50', 'unpinned-db': 'med<50', cpu: 'med>=50',
    pinned: 'max>=0', native: 'max>=0', 'native-db': 'max>=0' };
  assert.deepEqual(Object.keys(virtual).map((phase) => probe('virtual', phase)), Object.values(virtual).map((e) => [e]));
  assert.deepEqual(probe('worker', 'cpu'), ['max>=0'], 'cpu work burns the cores every thread runs on');
  assert.deepEqual(probe('health-live', 'cpu'), ['max>=0']);
  assert.deepEqual(probe('worker', 'native'), [UNTOUCHED]);
  assert.deepEqual(t['work_completed{target:base,phase:native}'].map((e) => e.threshold), ['count>=0']);
  assert.deepEqual(t['work_completed{target:base,phase:cpu}'].map((e) => e.threshold), ['count>0']);
});
