// Stand-in for the 'k6' module: check, sleep, group, fail.

import { context } from '../context.mjs';

/**
 * @param {unknown} value
 * @param {Record<string, (value: unknown) => unknown>} sets
 * @param {Record<string, string>} [tags]
 */
export function check(value, sets, tags = {}) {
  const ctx = context();
  if (ctx.stage === 'init') {
    throw new Error('k6: check() is not available in the init context');
  }
  let all = true;
  for (const [name, fn] of Object.entries(sets)) {
    const ok = Boolean(typeof fn === 'function' ? fn(value) : fn);
    ctx.checks.push({ name, ok, tags: { ...tags } });
    all = all && ok;
  }
  return all;
}

/** @param {number} seconds */
export function sleep(seconds) {
  const ctx = context();
  if (ctx.stage === 'init') {
    throw new Error('k6: sleep() is not available in the init context');
  }
  ctx.sleeps.push(seconds);
}

/**
 * @template T
 * @param {string} _name
 * @param {() => T} fn
 */
export function group(_name, fn) {
  return fn();
}

/** @param {string} [message] */
export function fail(message) {
  throw new Error(message || 'fail()');
}

export default { check, sleep, group, fail };
