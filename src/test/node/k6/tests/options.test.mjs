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

test('probes run at a constant arrival rate from the start; loads start after the baseline', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  const { probes, phases } = plan();
  const loadSeconds = phases.find((/** @type {any} */ p) => p.name === 'pinned').seconds;
  const scenarios = Object.entries(script.options.scenarios);
  const probeScenarios = scenarios.filter(([, s]) => s.exec === 'probe');
  assert.equal(probeScenarios.length, 2 * Object.keys(probes.endpoints).length);
  for (const [, s] of probeScenarios) {
    assert.equal(s.executor, 'constant-arrival-rate');
    assert.equal(s.rate, probes.ratePerSecond);
    assert.equal(s.timeUnit, '1s');
    assert.equal(s.startTime, undefined);
    assert.equal(s.duration, `${plan().baselineSeconds + loadSeconds}s`);
  }
  const loads = scenarios.filter(([, s]) => s.exec === 'load');
  assert.deepEqual(loads.map(([n, s]) => [n, s.executor, s.vus, s.startTime, s.duration]), [
    ['load-pinned', 'constant-vus', 64, `${plan().baselineSeconds}s`, `${loadSeconds}s`],
    ['load-unpinned', 'constant-vus', 64, `${plan().baselineSeconds}s`, `${loadSeconds}s`],
  ]);
});

test('summaryTrendStats has p(99); no threshold aborts the run', async () => {
  const script = await loadScript(STARVATION, { env: TWO_TARGETS });
  assert.ok(script.options.summaryTrendStats.includes('p(99)'));
  assert.ok(script.options.summaryTrendStats.includes('med'));
  assert.ok(script.options.summaryTrendStats.includes('max'));
  for (const [key, list] of Object.entries(script.options.thresholds)) {
    for (const entry of list) {
      assert.equal(typeof entry === 'object' && entry.abortOnFail, false, `${key} may abort the run`);
    }
  }
});

test('thresholds state the expected outcome: unpinned holds, the pinned virtual probe breaches the bound', async () => {
  const script = await loadScript(STARVATION, { env: { ...TWO_TARGETS, PROBE_P99_MS: '250' } });
  const t = /** @type {Record<string, { threshold: string }[]>} */ (script.options.thresholds);
  const expr = (/** @type {string} */ key) => t[key]?.map((e) => e.threshold);
  for (const probe of Object.keys(plan().probes.endpoints)) {
    for (const target of ['pinned', 'unpinned']) {
      assert.deepEqual(expr(`http_req_duration{probe:${probe},target:${target},phase:baseline}`), ['p(99)<250']);
    }
    assert.deepEqual(expr(`http_req_duration{probe:${probe},target:unpinned,phase:load}`), ['p(99)<250']);
  }
  assert.deepEqual(expr('http_req_duration{probe:virtual,target:pinned,phase:load}'), ['p(99)>=250']);
  assert.deepEqual(expr('http_req_duration{probe:worker,target:pinned,phase:load}'), ['p(99)<250']);
  assert.deepEqual(expr('http_req_duration{probe:event-loop,target:pinned,phase:load}'), ['p(99)<250']);
  assert.deepEqual(expr('work_completed{target:pinned,phase:load}'), ['count>0']);
  assert.deepEqual(expr('work_errors{target:unpinned,phase:load}'), ['rate<0.01']);
  assert.deepEqual(expr('work_overloaded{target:pinned,phase:load}'), ['rate>=0']);
});

test('BASE_URL thresholds: never-starving phases hold, cpu starves, JVM-dependent phases are recorded', async () => {
  const script = await loadScript(STARVATION, {});
  const t = /** @type {Record<string, { threshold: string }[]>} */ (script.options.thresholds);
  const virtual = (/** @type {string} */ phase) => t[`http_req_duration{probe:virtual,target:base,phase:${phase}}`]?.map((e) => e.threshold);
  assert.deepEqual(virtual('baseline'), ['p(99)<200']);
  assert.deepEqual(virtual('unpinned'), ['p(99)<200']);
  assert.deepEqual(virtual('reentrant'), ['p(99)<200']);
  assert.deepEqual(virtual('unpinned-db'), ['p(99)<200']);
  assert.deepEqual(virtual('cpu'), ['p(99)>=200']);
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
