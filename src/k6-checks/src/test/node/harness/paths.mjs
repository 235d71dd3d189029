// Where the suite, its cases and the fixtures live, wherever the checks are run from.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const K6_DIR = fileURLToPath(new URL('../../../../../../k6', import.meta.url));
export const STARVATION = resolve(K6_DIR, 'starvation.js');
export const OWN_SERVICE = resolve(K6_DIR, 'own-service.js');
export const SMOKE = resolve(K6_DIR, 'smoke.js');

/** @type {any} k6/plan.json */
export const PLAN = JSON.parse(readFileSync(resolve(K6_DIR, 'plan.json'), 'utf8'));

/** @param {string} name a case file both languages are judged on (k6/cases/, beside the plan; Plan.caseFile in Java) @returns {any} */
export function cases(name) {
  return JSON.parse(readFileSync(resolve(K6_DIR, 'cases', name), 'utf8'));
}

export function fixture(name) {
  return fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
}

/** The two-deployment layout, as the in-cluster run sets it. */
export const TWO_TARGETS = { PINNED_URL: 'http://lab-pinned:8080', UNPINNED_URL: 'http://lab-unpinned:8080' };
