// Stand-in for 'k6': check() and sleep(), recorded; neither in the init context, as in k6.

import { context } from '../runtime.mjs';

function notInInit(what) {
  if (context().stage === 'init') {
    throw new Error(`k6: ${what}() is not available in the init context`);
  }
}

export function check(value, sets) {
  notInInit('check');
  const results = Object.entries(sets).map(([name, fn]) => ({ name, ok: Boolean(fn(value)) }));
  context().checks.push(...results);
  return results.every((r) => r.ok);
}

export function sleep(seconds) {
  notInInit('sleep');
  context().sleeps.push(seconds);
}
