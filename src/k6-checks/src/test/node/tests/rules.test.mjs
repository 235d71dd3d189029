// The plan's rules as the k6 suite applies them, on the cases the Java runner is judged on too
// (k6/cases/starvation-rule-cases.json and untouched-rule-cases.json: SharedCasesTest): k6 and the
// runner cannot disagree, and neither can drift from the plan's numbers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeStarved, describeUntouched, eventLoopCoverage, starvedFromMs } from '../../../../../../k6/lib-rules.js';
import { cases, TWO_TARGETS } from '../harness/paths.mjs';
import { report } from '../harness/summary.mjs';

const STARVED = cases('starvation-rule-cases.json');
const UNTOUCHED = cases('untouched-rule-cases.json');

test('the untouched threshold, p(percentile)<maximumMillis (options.test.mjs), judges every untouched case as the cases (and the Java runner) say', () => {
  for (const c of UNTOUCHED.cases) {
    assert.equal(c.loadedMillis < UNTOUCHED.assumes.maximumMillis, c.untouched, `${c.why}: ${JSON.stringify(c)}`);
  }
});

// That the cases were written for the plan's rules, and hold some, SharedCasesTest checks on the same files.
test('the report\'s verdicts (isStarved, isUntouched) are the cases\' judgements of every case', async () => {
  const verdictOf = async (/** @type {Parameters<typeof report>[1]} */ world, /** @type {Parameters<typeof report>[2]} */ adjust, /** @type {string} */ target) =>
    (await report({ env: TWO_TARGETS }, world, adjust)).json.starvationLab.verdicts.find((/** @type {any} */ v) => v.target === target);
  for (const c of STARVED.cases) {
    const verdict = await verdictOf({ starving: () => false }, (model) => (name, tags, type) => {
      const p50 = tags.phase === 'baseline' ? c.baselineMillis : c.loadedMillis;
      return name === 'http_req_duration' && tags.probe === 'virtual' && tags.target === 'pinned'
        ? { trend: { p50, p99: p50 * 1.2, max: p50 * 1.5, count: 100 } } : model(name, tags, type);
    }, 'pinned');
    assert.deepEqual([verdict.observed, verdict.loadedMs, verdict.starvedFromMs], [c.starved ? 'starves' : 'free', c.loadedMillis,
      starvedFromMs(STARVED.assumes, c.baselineMillis)], `${c.why}: ${JSON.stringify(c)}`);
  }
  for (const c of UNTOUCHED.cases) {
    const verdict = await verdictOf({ starving: () => false, slowProbe: (t, p, probe) => (probe === 'worker' && p === 'load' ? c.loadedMillis : undefined) },
      undefined, 'unpinned');
    assert.equal(verdict.untouched.find((/** @type {any} */ u) => u.probe === 'worker').untouched, c.untouched, `${c.why}: ${JSON.stringify(c)}`);
  }
});

test('the rules in words are the Java runner\'s', () => {
  assert.equal(describeStarved({ probe: 'virtual', percentile: 50, baselineFactor: 20, minimumMillis: 50 }),
    'starved when /probe/virtual\'s p50 is at least 20x its baseline on the same JVM and at least 50 ms');
  assert.equal(describeStarved({ probe: 'virtual', percentile: 99.9, baselineFactor: 2.5, minimumMillis: 0.5 }),
    'starved when /probe/virtual\'s p99.9 is at least 2.5x its baseline on the same JVM and at least 0.5 ms');
  assert.equal(describeUntouched(UNTOUCHED.assumes), UNTOUCHED.text);
  assert.equal(describeUntouched({ probes: ['worker'], percentile: 50, maximumMillis: 20 }), 'untouched when the worker probe keeps its p50 under 20 ms');
});

test('event loops: each must answer at least its least share of the even part, counted one by one up to EVENT_LOOPS', () => {
  assert.deepEqual(eventLoopCoverage(0.25, { 0: 34, 1: 33, 2: 34, 3: 34, other: 0 }, 4, 8), { answers: 135, leastAnswers: 8.4375, short: [], judged: 4 });
  assert.deepEqual(eventLoopCoverage(0.25, { 0: 135, 1: 0, 2: 0, 3: 0, other: 0 }, 4, 8)?.short, ['1', '2', '3'], 'one event loop reached');
  assert.deepEqual(eventLoopCoverage(0.25, { 0: 60, 1: 59, 2: 9, 3: 7 }, 4, 8)?.short, ['3'], 'just under a quarter of 33.75');
  assert.deepEqual(eventLoopCoverage(0.25, { 0: 10, 1: 10, other: 20 }, 4, 2), { answers: 40, leastAnswers: 2.5, short: [], judged: 2 });
  assert.equal(eventLoopCoverage(0.25, { 0: 0, other: 0 }, 4, 8), null, 'answers that name no event loop');
  assert.equal(eventLoopCoverage(0.25, { 0: 10 }, undefined, 8), null, 'a service that does not count its event loops');
});

test('with no baseline the floor alone decides, and the verdict says so', async () => {
  const { md } = await report({ env: { ...TWO_TARGETS, BASELINE_SECONDS: '0' } }, { starving: (t, p) => t === 'pinned' && p === 'load' },
    (model) => (name, tags, type) => (tags.phase === 'baseline' && name === 'http_req_duration' ? { trend: { p50: 0, p99: 0, max: 0, count: 0 } } : model(name, tags, type)));
  assert.match(md, /^- pinned: STARVES, as predicted under \/work\/pinned \(sleep\): \/probe\/virtual p50 1413 ms ≥ 50 ms \(no baseline, so the floor alone: 50 ms\)/m);
});
