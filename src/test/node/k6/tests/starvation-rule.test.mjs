// The plan's one rule for "starved", as the k6 report applies it, on the cases the Java runner's
// StarvationRuleTest judges too (fixtures/starvation-rule-cases.json): k6 and the runner cannot
// disagree, and neither can drift from the plan's numbers without its test failing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fakeService } from '../harness/fake-service.mjs';
import { fixture, K6_DIR, plan, STARVATION, TWO_TARGETS } from '../harness/paths.mjs';
import { importSuiteModule, loadScript } from '../harness/runtime.mjs';
import { summaryFixture } from '../harness/summary-fixture.mjs';
import { starvationModel } from '../harness/value-models.mjs';

/** @type {typeof import('../../../../../k6/lib-report.js')} */
const { describeRule, isStarved, starvedFromMs } = await importSuiteModule(resolve(K6_DIR, 'lib-report.js'));
/** @type {typeof import('../../../../../k6/lib-config.js')} */
const { buildLayout } = await importSuiteModule(resolve(K6_DIR, 'lib-config.js'));

const CASES = JSON.parse(readFileSync(fixture('starvation-rule-cases.json'), 'utf8'));

test('the cases were written for the plan\'s rule, and the k6 layout reads that rule', () => {
  const { $comment, ...rule } = plan().starved;
  assert.ok($comment, 'plan.json says why its rule is what it is');
  assert.deepEqual(CASES.assumes, rule, 'update starvation-rule-cases.json with the plan\'s rule');
  assert.deepEqual(buildLayout({}, plan()).rule, rule);
  assert.ok(CASES.cases.length > 0);
});

test('isStarved judges every case as the cases (and the Java runner) say', () => {
  const rule = buildLayout({}, plan()).rule;
  for (const c of CASES.cases) {
    assert.equal(isStarved(rule, c.loadedMillis, c.baselineMillis), c.starved, `${c.why}: ${JSON.stringify(c)}`);
  }
});

test('the report\'s verdict is the rule\'s judgement of every case', async () => {
  const loaded = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService() });
  const setupData = loaded.setup();
  for (const c of CASES.cases) {
    const model = starvationModel({ starving: () => false });
    /** @type {import('../harness/summary-fixture.mjs').ValueModel} */
    const withCase = (name, tags, type) => {
      if (name === 'http_req_duration' && tags.probe === 'virtual' && tags.target === 'pinned') {
        const p50 = tags.phase === 'baseline' ? c.baselineMillis : c.loadedMillis;
        return { trend: { p50, p99: p50 * 1.2, max: p50 * 1.5, count: 100 } };
      }
      return model(name, tags, type);
    };
    const files = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData, model: withCase }));
    const verdict = JSON.parse(files['summary.json']).starvationLab.verdicts.find((/** @type {any} */ v) => v.target === 'pinned');
    assert.equal(verdict.observed, c.starved ? 'starved' : 'held', `${c.why}: ${JSON.stringify(c)}`);
    assert.equal(verdict.loadedMs, c.loadedMillis);
    assert.equal(verdict.starvedFromMs, starvedFromMs(CASES.assumes, c.baselineMillis));
  }
});

test('the rule in words is the Java runner\'s', () => {
  assert.equal(describeRule({ probe: 'virtual', percentile: 50, baselineFactor: 20, minimumMillis: 50 }),
    'starved when /probe/virtual\'s p50 is at least 20x its baseline on the same JVM and at least 50 ms');
  assert.equal(describeRule({ probe: 'virtual', percentile: 99.9, baselineFactor: 2.5, minimumMillis: 0.5 }),
    'starved when /probe/virtual\'s p99.9 is at least 2.5x its baseline on the same JVM and at least 0.5 ms');
});

test('with no baseline the floor alone decides, and the verdict says so', async () => {
  const loaded = await loadScript(STARVATION, { env: { ...TWO_TARGETS, BASELINE_SECONDS: '0' }, transport: fakeService() });
  const model = starvationModel({ starving: (t, p) => t === 'pinned' && p === 'load' });
  /** @type {import('../harness/summary-fixture.mjs').ValueModel} */
  const noBaseline = (name, tags, type) => (tags.phase === 'baseline' && name === 'http_req_duration'
    ? { trend: { p50: 0, p99: 0, max: 0, count: 0 } } : model(name, tags, type));
  const md = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: noBaseline }))['report.md'];
  assert.match(md, /^- pinned: STARVED, as expected under \/work\/pinned: \/probe\/virtual p50 1413 ms ≥ 50 ms \(no baseline, so the floor alone: 50 ms\)/m);
});
