// lib-predictions.js, the one place in the k6 suite that says which mode starves on which JVM,
// judged on k6/cases/prediction-cases.json, on which the Java runner's predictions are judged too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { MODES } from '../../../../../../k6/lib-layout.js';
import { predict, predictForEveryJvm, sharesThreadsWith } from '../../../../../../k6/lib-predictions.js';
import { cases, K6_DIR } from '../harness/paths.mjs';

const CASES = cases('prediction-cases.json');

test('every case of prediction-cases.json gets its outcome', () => {
  assert.ok(CASES.cases.length > 0);
  for (const c of CASES.cases) {
    assert.equal(predict(c.mode, c.downstream, c.facts).outcome, c.outcome, `${c.why}: ${JSON.stringify(c)}`);
  }
});

test('the cases cover every mode, both downstreams and every fact', () => {
  assert.deepEqual([...new Set(CASES.cases.map((/** @type {any} */ c) => c.mode))].sort(), [...MODES].sort());
  assert.deepEqual([...new Set(CASES.cases.map((/** @type {any} */ c) => c.downstream))].sort(), ['db', 'sleep']);
  for (const c of CASES.cases) {
    assert.deepEqual(Object.keys(c.facts).sort(), ['nativePinAvailable', 'synchronizedPins', 'virtualPollers'], JSON.stringify(c));
  }
});

test('a fact /lab/info does not give leaves the outcome unknown, never guessed', () => {
  assert.equal(predict('pinned', 'sleep', {}).outcome, 'unknown');
  assert.equal(predict('native', 'sleep', null).outcome, 'unknown');
  assert.equal(predict('native', 'db', { nativePinAvailable: true }).outcome, 'unknown');
  assert.equal(predict('pinned', 'sleep', { synchronizedPins: true }).outcome, 'starves', 'on sleep the pollers do not matter');
  assert.equal(predict('cpu', 'sleep', null).outcome, 'starves', 'what holds on every JVM needs no facts');
  assert.equal(predict('structured', 'sleep', {}).outcome, 'unknown');
});

test('what holds whatever the JVM, for the thresholds set before setup() reads /lab/info', () => {
  assert.deepEqual(MODES.map((m) => `${m}: ${predictForEveryJvm(m, 'sleep')}`),
    ['unpinned: free', 'pinned: depends', 'reentrant: free', 'native: depends', 'cpu: starves', 'platform: free']);
  assert.equal(predictForEveryJvm('native', 'db'), 'depends');
});

test('the work shares the threads of a probe: cpu every core, platform the worker pool', () => {
  assert.ok(['worker', 'event-loop', 'health-live'].every((p) => sharesThreadsWith('cpu', p)));
  assert.ok(sharesThreadsWith('platform', 'worker'));
  assert.ok(!sharesThreadsWith('platform', 'event-loop'));
  assert.ok(!['unpinned', 'pinned', 'reentrant', 'native'].some((m) => sharesThreadsWith(m, 'worker')));
});

test('no other file of the suite decides what a mode does', () => {
  // The mode names next to an outcome word outside lib-predictions.js would be a second source.
  const others = readdirSync(K6_DIR).filter((f) => f.endsWith('.js') && f !== 'lib-predictions.js');
  for (const name of others) {
    const source = readFileSync(resolve(K6_DIR, name), 'utf8');
    assert.doesNotMatch(source, /mode === '(pinned|native|cpu|platform|unpinned|reentrant)'/, `${name} tests a mode by name`);
    assert.doesNotMatch(source, /synchronizedPins === |nativePinAvailable === |virtualPollers === /, `${name} reads a JVM fact itself`);
  }
});
