// The order in which a probe scenario sends its endpoints (lib-probe-schedule.js probeScheduleOf, routeAt):
// with the service dealing new connections out over its event loops in turn, every endpoint
// reaches every event loop with its share, at its own rate, whatever the number of event loops, and
// also when other connections come in between. The real run (K6SuiteIT) checks it on the service.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLayout } from '../../../../../../k6/lib-layout.js';
import { probeScheduleOf, routeAt } from '../../../../../../k6/lib-probe-schedule.js';
import { eventLoopCoverage } from '../../../../../../k6/lib-rules.js';
import { PLAN } from '../harness/paths.mjs';

const LAYOUT = buildLayout({}, PLAN);
const SCHEDULE = probeScheduleOf(LAYOUT.probes);
const TOTAL_RATE = LAYOUT.probes.reduce((s, p) => s + p.rate, 0);

/**
 * Runs `iterations` probes through a round-robin service of `eventLoops`, where `extra(i)` other
 * connections arrive before probe i; returns each probe's answers per event loop from probe `from` on.
 *
 * @param {{ extra?: (i: number) => number, told?: number, from?: number }} [settings] told: the event loops the schedule is told (from /lab/info)
 */
function deal(eventLoops, iterations, { extra = () => 0, told = eventLoops, from = 0 } = {}) {
  const answers = {};
  let connection = 0;
  for (let i = 0; i < iterations; i++) {
    connection += extra(i);
    const route = routeAt(SCHEDULE, i, told);
    const loop = String(connection++ % eventLoops);
    if (i >= from) {
      answers[route.probe] = answers[route.probe] || {};
      answers[route.probe][loop] = (answers[route.probe][loop] || 0) + 1;
    }
  }
  return answers;
}

function unevenProbes(answers, eventLoops) {
  return SCHEDULE.routes.flatMap(({ probe }) => {
    const coverage = eventLoopCoverage(PLAN.probes.leastEventLoopShare, answers[probe] || {}, eventLoops, 64);
    assert.ok(coverage, `${probe}: no coverage judged of ${JSON.stringify(answers[probe])} on ${eventLoops} event loops`);
    return coverage.short.length > 0 ? [`${probe}: event loops ${coverage.short.join(', ')} of ${JSON.stringify(answers[probe])}`] : [];
  });
}

test('weights in the rates\' proportion: each endpoint at its own rate, evenly spaced in the cycle', () => {
  const weights = SCHEDULE.weights;
  const sum = weights.reduce((a, b) => a + b, 0);
  assert.equal(SCHEDULE.sequence.length, sum);
  for (const [i, route] of SCHEDULE.routes.entries()) {
    assert.equal(weights[i] / sum, route.rate / TOTAL_RATE, route.probe);
    const at = SCHEDULE.sequence.flatMap((r, slot) => (r === i ? [slot] : []));
    assert.equal(at.length, weights[i]);
    const gaps = at.map((slot, n) => (at[(n + 1) % at.length] - slot + sum) % sum || sum);
    assert.ok(Math.max(...gaps) <= Math.ceil(sum / weights[i]), `${route.probe} at ${at.join(', ')} of ${sum}`);
  }
});

test('every endpoint\'s rate holds in every 3 s of the run', () => {
  for (const eventLoops of [1, 4, 6, 8]) {
    for (let second = 0; second < 60; second += 3) {
      const sent = {};
      for (let i = second * TOTAL_RATE; i < (second + 3) * TOTAL_RATE; i++) {
        const probe = routeAt(SCHEDULE, i, eventLoops).probe;
        sent[probe] = (sent[probe] || 0) + 1;
      }
      for (const route of SCHEDULE.routes) {
        assert.ok(Math.abs((sent[route.probe] || 0) - 3 * route.rate) <= Math.max(4, 0.1 * 3 * route.rate),
          `${route.probe}: ${sent[route.probe]} from second ${second} with ${eventLoops} event loops, at ${route.rate}/s`);
      }
    }
  }
});

test('a 3 s window of the quick plan: every probe reaches each of 1 to 12 event loops evenly', () => {
  for (let eventLoops = 1; eventLoops <= 12; eventLoops++) {
    for (const start of [0, 7, 301]) {
      const answers = deal(eventLoops, start + 3 * TOTAL_RATE, { from: start });
      assert.deepEqual(unevenProbes(answers, eventLoops), [], `${eventLoops} event loops, from iteration ${start}`);
    }
  }
});

test('every endpoint keeps its share per event loop when other connections come in between, or told the wrong number of event loops', () => {
  let seed = 11;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (const eventLoops of [2, 4, 8]) {
    const answers = deal(eventLoops, 10 * TOTAL_RATE, { extra: () => (random() < 0.2 ? 1 + Math.floor(random() * 3) : 0) });
    assert.deepEqual(unevenProbes(answers, eventLoops), [], `${eventLoops} event loops`);
  }
  for (const [real, told] of [[4, 8], [8, 4], [6, 4], [3, 8], [16, 8]]) {
    assert.deepEqual(unevenProbes(deal(real, 10 * TOTAL_RATE, { told }), real), [], `${real} event loops, told ${told}`);
  }
});
