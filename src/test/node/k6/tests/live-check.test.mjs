// The logic of live.mjs, offline: its expectations per request, run against the in-process
// stand-in of the service (live.mjs itself needs a running service and is not part of npm test).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeService, JDK21_INFO, JDK25_INFO } from '../harness/fake-service.mjs';
import { expectedStatuses, liveCheck } from '../harness/live-check.mjs';

const quiet = async (/** @type {() => Promise<any>} */ fn) => {
  const [log, warn] = [console.log, console.warn];
  console.log = () => {};
  console.warn = () => {};
  try {
    return await fn();
  } finally {
    console.log = log;
    console.warn = warn;
  }
};

test('the contract\'s statuses: 200 everywhere, 501 for native only without FFM', () => {
  assert.deepEqual(expectedStatuses('http://h:1/probe/virtual', JDK21_INFO), [200]);
  assert.deepEqual(expectedStatuses('http://h:1/q/health/started', JDK21_INFO), [200]);
  assert.deepEqual(expectedStatuses('http://h:1/lab/info', JDK21_INFO), [200]);
  assert.deepEqual(expectedStatuses('http://h:1/work/pinned?ms=10', JDK21_INFO), [200]);
  assert.deepEqual(expectedStatuses('http://h:1/work/native?ms=10', JDK21_INFO), [501]);
  assert.deepEqual(expectedStatuses('http://h:1/work/native?ms=10', JDK25_INFO), [200]);
  assert.deepEqual(expectedStatuses('http://h:1/probes/virtual', JDK25_INFO), []);
});

for (const [name, info] of [['JDK 21', JDK21_INFO], ['JDK 25', JDK25_INFO]]) {
  test(`a service that keeps the contract passes (${name})`, async () => {
    const result = await quiet(() => liveCheck({ baseUrl: 'http://localhost:18080', transport: fakeService({ info }) }));
    assert.deepEqual(result.failures, []);
    assert.ok(result.requests > 50);
  });
}

test('a wrong status is listed with the script, layout and URL', async () => {
  const transport = fakeService({ info: JDK25_INFO, status: (url) => (url.pathname === '/work/cpu' ? 500 : undefined) });
  const { failures } = await quiet(() => liveCheck({ baseUrl: 'http://localhost:18080', transport }));
  assert.ok(failures.includes('starvation.js with BASE_URL: GET http://localhost:18080/work/cpu?ms=10&downstream=sleep&lock=private: HTTP 500, expected 200'),
    JSON.stringify(failures));
  assert.ok(failures.some((f) => /^smoke\.js with BASE_URL: check failed: base \/work\/cpu answers 200$/.test(f)), JSON.stringify(failures));
});

test('a service that counts its event loops must name one of them in every probe answer', async () => {
  const transport = fakeService({ info: JDK25_INFO, eventLoop: (n) => (n === 2 ? 'main' : `vert.x-eventloop-thread-${n % 8}`) });
  const { failures } = await quiet(() => liveCheck({ baseUrl: 'http://localhost:18080', transport }));
  assert.deepEqual(failures, ['starvation.js with PINNED_URL and UNPINNED_URL: a /probe/event-loop answer names no event loop '
    + 'below /lab/info\'s eventLoops (8) by its number: event_loop other']);
  const silent = await quiet(() => liveCheck({ baseUrl: 'http://localhost:18080', transport: fakeService({ info: JDK25_INFO, eventLoop: null }) }));
  // Three /probe/* answers for each of three targets (pinned and unpinned, then base); the health probe names none.
  assert.equal(silent.failures.length, 9, JSON.stringify(silent.failures));
  assert.ok(silent.failures.every((f) => /a \/probe\/(virtual|worker|event-loop) answer names no event loop .*: event_loop undefined$/.test(f)));
});

test('a service that does not count its event loops is not asked to name them', async () => {
  const { eventLoops, ...older } = JDK25_INFO;
  assert.equal(eventLoops, 8);
  const { failures } = await quiet(() => liveCheck({ baseUrl: 'http://localhost:18080', transport: fakeService({ info: older, eventLoop: null }) }));
  assert.deepEqual(failures, []);
});

test('an unready service fails setup(), and that is listed', async () => {
  const { failures } = await quiet(() => liveCheck({ baseUrl: 'http://localhost:18080', transport: fakeService({ ready: false }) }));
  assert.ok(failures.some((f) => /starvation\.js with PINNED_URL and UNPINNED_URL: pinned target .* is not ready/.test(f)), JSON.stringify(failures));
});
