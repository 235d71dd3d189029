// Where the suite and the fixtures live, wherever the checks are run from.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export const PROJECT_DIR = resolve(here, '..');
export const K6_DIR = resolve(here, '../../../../../../k6');
export const FIXTURES_DIR = resolve(here, '../fixtures');
export const STARVATION = resolve(K6_DIR, 'starvation.js');
export const SMOKE = resolve(K6_DIR, 'smoke.js');

/** @returns {any} k6/plan.json */
export function plan() {
  return JSON.parse(readFileSync(resolve(K6_DIR, 'plan.json'), 'utf8'));
}

/** @param {string} name */
export function fixture(name) {
  return resolve(FIXTURES_DIR, name);
}

/** The two-deployment layout, as the in-cluster run sets it. */
export const TWO_TARGETS = { PINNED_URL: 'http://lab-pinned:8080', UNPINNED_URL: 'http://lab-unpinned:8080' };
