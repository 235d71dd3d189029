// The probe schedule: how many VUs a target's probes need, the order in which its probe scenario
// sends its endpoints over the service's event loops, and the window and event loop each probe is
// tagged with. Pure functions, no k6 imports.

/** The event_loop tag of a probe answer from an event loop past EVENT_LOOPS (or of no number). */
export const OTHER_EVENT_LOOP = 'other';

/**
 * The VUs a target's probe scenario needs so that k6 drops no probe, whatever the service does: a
 * probe holds its VU until it is answered or times out, so at most the probes of the timeout and
 * one second more (to connect and read the answer) are in flight. k6 starts an iteration only on
 * an idle VU, and drops it when none is.
 *
 * @param {import('./lib-layout.js').ProbeRoute[]} routes one target's
 * @param {number} timeoutMs
 */
export function probeVusFor(routes, timeoutMs) {
  return Math.ceil(routes.reduce((sum, r) => sum + r.rate, 0) * (timeoutMs / 1000 + 1));
}

/**
 * The order in which a target's probe scenario sends its endpoints. The service deals new
 * connections out over its event loops in turn, and each probe opens one, so the iterations that
 * fall on one residue modulo the event loops reach one event loop: each residue walks its own copy
 * of a smooth weighted round robin of the endpoints (each endpoint its weight's times per cycle,
 * evenly spaced), from its own offset, all turned by a pseudo-random amount every cycle. So every
 * endpoint reaches every event loop at its own rate within a few cycles, whatever the number of
 * endpoints and their rates; connections others open in between only move residues to other event
 * loops, and a wrong count of event loops does not keep an endpoint off some of them.
 *
 * @param {import('./lib-layout.js').ProbeRoute[]} routes one target's, each at its rate
 * @returns {{ routes: import('./lib-layout.js').ProbeRoute[], weights: number[], sequence: number[] }} integer weights in the
 *   rates' proportion, and one cycle: route indexes, each its weight's times
 */
export function probeScheduleOf(routes) {
  const scaled = routes.map((r) => Math.round(r.rate * 1000));
  const divisor = scaled.reduce((a, b) => gcd(a, b));
  const weights = scaled.map((w) => w / divisor);
  const total = weights.reduce((a, b) => a + b, 0);
  const current = weights.map(() => 0);
  const sequence = [];
  for (let slot = 0; slot < total; slot++) {
    weights.forEach((w, i) => { current[i] += w; });
    const pick = current.indexOf(Math.max(...current));
    current[pick] -= total;
    sequence.push(pick);
  }
  return { routes, weights, sequence };
}

/**
 * The route of a probe scenario's iteration (see probeScheduleOf).
 *
 * @param {{ routes: import('./lib-layout.js').ProbeRoute[], sequence: number[] }} schedule
 * @param {number} iteration the scenario's iteration in the test
 * @param {number} eventLoops the target's, from /lab/info
 * @returns {import('./lib-layout.js').ProbeRoute}
 */
export function routeAt(schedule, iteration, eventLoops) {
  const cycle = schedule.sequence.length;
  const residue = iteration % eventLoops;
  const slot = Math.floor(iteration / eventLoops);
  const turn = Math.round((residue * cycle) / eventLoops) + scramble(Math.floor(slot / cycle));
  return schedule.routes[schedule.sequence[(slot + turn) % cycle]];
}

/**
 * The total rate of one target's probes as k6's arrival rate: a whole number of iterations per timeUnit.
 *
 * @param {import('./lib-layout.js').ProbeRoute[]} routes
 * @returns {{ rate: number, timeUnit: string }}
 */
export function arrivalRateOf(routes) {
  const total = routes.reduce((sum, r) => sum + r.rate, 0);
  for (const seconds of [1, 10, 100, 1000]) {
    if (Math.abs(total * seconds - Math.round(total * seconds)) < 1e-9) {
      return { rate: Math.round(total * seconds), timeUnit: `${seconds}s` };
    }
  }
  return { rate: Math.round(total * 1000), timeUnit: '1000s' };
}

/**
 * A pseudo-random whole number from `seed` (a multiplicative hash and a step of a linear
 * congruential generator): every VU computes the same turn for the same cycle.
 *
 * @param {number} seed
 */
function scramble(seed) {
  const hashed = (seed * 2654435761 + 1013904223) % 4294967296;
  return Math.floor(((hashed * 1664525 + 1013904223) % 4294967296) / 65536);
}

/**
 * The event_loop tag of a probe answer: the number that ends the serving event loop's thread name
 * (vert.x-eventloop-thread-3 → '3'), OTHER_EVENT_LOOP past the run's EVENT_LOOPS, or null when
 * the answer names none.
 *
 * @param {unknown} threadName the answer's eventLoop
 * @param {number} eventLoops
 * @returns {string | null}
 */
export function eventLoopOf(threadName, eventLoops) {
  if (typeof threadName !== 'string' || threadName === '') {
    return null;
  }
  const number = /(\d+)$/.exec(threadName);
  return number && Number(number[1]) < eventLoops ? String(Number(number[1])) : OTHER_EVENT_LOOP;
}

/**
 * Every event_loop tag value a probe answer can carry when the run breaks `eventLoops` down one by one.
 *
 * @param {number} eventLoops
 */
export function eventLoopTags(eventLoops) {
  return [...Array.from({ length: eventLoops }, (_, i) => String(i)), OTHER_EVENT_LOOP];
}

/**
 * The window a moment of the run (seconds since the probes started) falls in: 'baseline', a load
 * window's name, or 'drain' between two load windows.
 *
 * @param {import('./lib-layout.js').Window[]} windows
 * @param {number} seconds
 */
export function windowAt(windows, seconds) {
  for (const window of windows) {
    if (seconds >= window.start && seconds < window.end) {
      return window.name;
    }
  }
  return seconds < 0 ? 'baseline' : 'drain';
}

/**
 * @param {number} a
 * @param {number} b
 * @returns {number}
 */
function gcd(a, b) {
  return b === 0 ? a : gcd(b, a % b);
}
