// The options k6 reads before running anything: known options and executors, durations, exec
// functions that exist, thresholds on metrics that exist, and the threshold layout that states
// the expected outcome.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOptions, parseMetricKey, parseThreshold } from '../harness/options-check.mjs';
import { fixture, plan, SMOKE, STARVATION, TWO_TARGETS } from '../harness/paths.mjs';
import { loadScript } from '../harness/runtime.mjs';

const LAYOUTS = {
  'two targets': TWO_TARGETS,
  'BASE_URL': { BASE_URL: 'http://localhost:8080' },
  'two targets, arrival rate, no STARVING_MODES': { ...TWO_TARGETS, LOAD_RATE: '200', LOAD_MAX_VUS: '400', STARVING_MODES: '' },
  'BASE_URL, QUICK, two phases': { QUICK: 'true', PHASES: 'unpinned,cpu' },
};

for (const [name, env] of Object.entries(LAYOUTS)) {
  test(`starvation.js options are valid k6 options (${name})`, async () => {
    const script = await loadScript(STARVATION, { env });
    assert.deepEqual(checkOptions(script.options, script), []);
  });
}

test('smoke.js options are valid k6 options', async () => {
  const script = await loadScript(SMOKE, { env: TWO_TARGETS });
  assert.deepEqual(checkOptions(script.options, script), []);
});

test('probes run at a constant arrival rate from the start, one scenario per target; loads start after the baseline', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  const { probes, phases } = plan();
  const endpoints = Object.keys(probes.endpoints).length;
  const loadSeconds = phases.find((/** @type {any} */ p) => p.name === 'pinned').seconds;
  const scenarios = Object.entries(script.options.scenarios);
  const probeScenarios = scenarios.filter(([, s]) => s.exec === 'probe');
  assert.deepEqual(probeScenarios.map(([name]) => name), ['probe-pinned', 'probe-unpinned']);
  for (const [, s] of probeScenarios) {
    assert.equal(s.executor, 'constant-arrival-rate');
    assert.equal(s.rate, probes.ratePerSecond * endpoints);
    assert.equal(s.timeUnit, '1s');
    assert.equal(s.startTime, undefined);
    assert.equal(s.duration, `${plan().baselineSeconds + loadSeconds}s`);
    assert.deepEqual([s.preAllocatedVUs, s.maxVUs], [41, 200]);
  }
  const loads = scenarios.filter(([, s]) => s.exec === 'load');
  assert.deepEqual(loads.map(([n, s]) => [n, s.executor, s.vus, s.startTime, s.duration]), [
    ['load-pinned', 'constant-vus', 64, `${plan().baselineSeconds}s`, `${loadSeconds}s`],
    ['load-unpinned', 'constant-vus', 64, `${plan().baselineSeconds}s`, `${loadSeconds}s`],
  ]);
});

test('the probes keep their connections: one event loop per probe VU for the whole run', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  assert.equal(script.options.noConnectionReuse, false);
  assert.equal(script.options.noVUConnectionReuse, false);
});

test('summaryTrendStats has what the report reads, and the rule\'s percentile; no threshold aborts the run', async () => {
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

test('thresholds state the expected outcome: the virtual probe by the rule\'s floor, the others within the latency bound', async () => {
  const script = await loadScript(STARVATION, { env: { ...TWO_TARGETS, PROBE_P99_MS: '250' } });
  const t = /** @type {Record<string, { threshold: string }[]>} */ (script.options.thresholds);
  const expr = (/** @type {string} */ key) => t[key]?.map((e) => e.threshold);
  const floor = plan().starved.minimumMillis;
  for (const probe of Object.keys(plan().probes.endpoints).filter((p) => p !== 'virtual')) {
    for (const target of ['pinned', 'unpinned']) {
      assert.deepEqual(expr(`http_req_duration{probe:${probe},target:${target},phase:baseline}`), ['p(99)<250']);
    }
    assert.deepEqual(expr(`http_req_duration{probe:${probe},target:unpinned,phase:load}`), ['p(99)<250']);
  }
  for (const target of ['pinned', 'unpinned']) {
    assert.deepEqual(expr(`http_req_duration{probe:virtual,target:${target},phase:baseline}`), [`med<${floor}`]);
  }
  assert.deepEqual(expr('http_req_duration{probe:virtual,target:unpinned,phase:load}'), [`med<${floor}`]);
  assert.deepEqual(expr('http_req_duration{probe:virtual,target:pinned,phase:load}'), [`med>=${floor}`]);
  assert.deepEqual(expr('http_req_duration{probe:worker,target:pinned,phase:load}'), ['p(99)<250']);
  assert.deepEqual(expr('http_req_duration{probe:event-loop,target:pinned,phase:load}'), ['p(99)<250']);
  assert.deepEqual(expr('work_completed{target:pinned,phase:load}'), ['count>0']);
  assert.deepEqual(expr('work_errors{target:unpinned,phase:load}'), ['rate<0.01']);
  assert.deepEqual(expr('work_overloaded{target:pinned,phase:load}'), ['rate>=0']);
  for (const seconds of [1, 3]) {
    assert.deepEqual(expr(`probe_over_${seconds}s{probe:worker,target:pinned,phase:baseline}`), ['rate>=0']);
    assert.deepEqual(expr(`probe_over_${seconds}s{probe:virtual,target:pinned,phase:load,event_loop:7}`), ['rate>=0']);
  }
  for (const loop of ['0', '7', 'other']) {
    assert.deepEqual(expr(`probe_wait{probe:virtual,target:unpinned,phase:load,event_loop:${loop}}`), ['max>=0']);
  }
  assert.equal(expr('probe_wait{probe:virtual,target:pinned,phase:load,event_loop:8}'), undefined);
  assert.equal(expr('probe_wait{probe:worker,target:pinned,phase:load,event_loop:0}'), undefined);
});

test('the virtual probe\'s thresholds follow the plan\'s rule: its percentile and its floor', async () => {
  const planJson = plan();
  for (const [percentile, stat] of [[50, 'med'], [90, 'p(90)'], [75, 'p(75)']]) {
    const layout = { ...planJson, starved: { ...planJson.starved, percentile, minimumMillis: 80 } };
    const script = await loadScript(STARVATION, { env: TWO_TARGETS, plan: layout });
    const t = /** @type {Record<string, { threshold: string }[]>} */ (script.options.thresholds);
    assert.deepEqual(t['http_req_duration{probe:virtual,target:pinned,phase:load}'].map((e) => e.threshold), [`${stat}>=80`]);
    assert.deepEqual(t['http_req_duration{probe:virtual,target:unpinned,phase:load}'].map((e) => e.threshold), [`${stat}<80`]);
    assert.ok(script.options.summaryTrendStats.includes(stat), stat);
    assert.deepEqual(checkOptions(script.options, script), []);
  }
});

test('BASE_URL thresholds: never-starving phases hold, cpu starves, JVM-dependent phases are recorded', async () => {
  assert.equal(plan().starved.minimumMillis, 50, 'this test states the plan\'s floor');
  const script = await loadScript(STARVATION, {});
  const t = /** @type {Record<string, { threshold: string }[]>} */ (script.options.thresholds);
  const virtual = (/** @type {string} */ phase) => t[`http_req_duration{probe:virtual,target:base,phase:${phase}}`]?.map((e) => e.threshold);
  assert.deepEqual(virtual('baseline'), ['med<50']);
  assert.deepEqual(virtual('unpinned'), ['med<50']);
  assert.deepEqual(virtual('reentrant'), ['med<50']);
  assert.deepEqual(virtual('unpinned-db'), ['med<50']);
  assert.deepEqual(virtual('cpu'), ['med>=50']);
  assert.deepEqual(virtual('pinned'), ['max>=0']);
  assert.deepEqual(virtual('native'), ['max>=0']);
  assert.deepEqual(t['work_completed{target:base,phase:native}'].map((e) => e.threshold), ['count>=0']);
});

test('the threshold parsers follow k6\'s grammar', () => {
  assert.deepEqual(parseThreshold('p(99)<200'), { method: 'p', percentile: 99, operator: '<', value: 200 });
  assert.deepEqual(parseThreshold('p(99.9) >= 1.5'), { method: 'p', percentile: 99.9, operator: '>=', value: 1.5 });
  assert.deepEqual(parseThreshold('rate==0'), { method: 'rate', operator: '==', value: 0 });
  assert.ok('error' in parseThreshold('p99<200'));
  assert.ok('error' in parseThreshold('avg 200'));
  assert.deepEqual(parseMetricKey('http_req_duration{probe:virtual,target:pinned}'),
    { name: 'http_req_duration', tags: { probe: 'virtual', target: 'pinned' } });
  assert.ok('error' in parseMetricKey('http_req_duration{probe}'));
  assert.ok('error' in parseMetricKey('http_req_duration{probe:virtual'));
});

const BROKEN = [
  ['broken-option-typo.js', /unknown option 'summaryTrendStat'/],
  ['broken-unknown-executor.js', /unknown executor 'constant-arrivals-rate'/],
  ['broken-missing-exec.js', /exec 'probe' is not an exported function/],
  ['broken-threshold-metric.js', /no metric named 'http_req_duraton'/],
  ['broken-threshold-expression.js', /unknown aggregation 'p99'/],
  ['broken-threshold-expression.js', /'p\(99\)<200' uses a percentile, which a counter metric does not have/],
  ['broken-duration.js', /duration '10 seconds' is not a duration/],
];

for (const [name, message] of BROKEN) {
  test(`the options check refuses fixtures/${name} (${message.source})`, async () => {
    const script = await loadScript(fixture(name), {});
    const problems = checkOptions(script.options, script);
    assert.ok(problems.some((p) => message.test(p)), `expected ${message}, got ${JSON.stringify(problems)}`);
  });
}
