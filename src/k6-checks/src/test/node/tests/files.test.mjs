// The suite as ConfigMap k6-scripts holds it: flat files, built-in k6 modules and ./lib-*.js
// siblings only, no remote imports, open() only of plan.json beside the script; every knob the
// scripts read is documented in the header comment and in k6/README.md.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fixture, K6_DIR } from '../harness/paths.mjs';

const BUILTIN = ['k6', 'k6/http', 'k6/metrics', 'k6/execution'];
const SCRIPTS = readdirSync(K6_DIR).filter((f) => f.endsWith('.js'));

/**
 * @param {string} source
 * @returns {string[]}
 */
function importsOf(source) {
  return [...source.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm), ...source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)]
    .map((m) => m[1]);
}

/**
 * What a ConfigMap mount (flat keys) or an egress-less runner pod could not load.
 *
 * @param {string} file
 */
function importProblems(file) {
  const problems = [];
  for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
    if (/^[a-z]+:\/\//i.test(specifier)) {
      problems.push(`${specifier}: remote import`);
    } else if (specifier.startsWith('.')) {
      if (!/^\.\/lib-[a-z0-9-]+\.js$/.test(specifier)) {
        problems.push(`${specifier}: not a flat ./lib-*.js sibling (a ConfigMap key cannot hold '/')`);
      }
    } else if (!BUILTIN.includes(specifier)) {
      problems.push(`${specifier}: not a k6 built-in module the suite uses`);
    }
  }
  return problems;
}

test('every script imports only k6 built-ins and flat ./lib-*.js siblings that exist', () => {
  for (const name of SCRIPTS) {
    const file = resolve(K6_DIR, name);
    assert.deepEqual(importProblems(file), [], name);
    for (const sibling of importsOf(readFileSync(file, 'utf8')).filter((s) => s.startsWith('./'))) {
      assert.ok(SCRIPTS.includes(sibling.slice(2)), `${name} imports ${sibling}, which is not in k6/`);
    }
  }
});

test('the import check refuses fixtures/broken-imports.js (subfolder and remote imports)', () => {
  assert.deepEqual(importProblems(fixture('broken-imports.js')), [
    "./lib/probes.js: not a flat ./lib-*.js sibling (a ConfigMap key cannot hold '/')",
    'https://jslib.k6.io/k6-summary/0.0.2/index.js: remote import',
  ]);
});

test('open() reads only plan.json, from the entry scripts', () => {
  for (const name of SCRIPTS) {
    const opens = [...readFileSync(resolve(K6_DIR, name), 'utf8').matchAll(/\bopen\(([^)]*)\)/g)].map((m) => m[1]);
    assert.deepEqual(opens, name.startsWith('lib-') ? [] : ["'./plan.json'"], name);
  }
});

test('every knob the scripts read is in the header comment of its script and in k6/README.md', () => {
  const readme = readFileSync(resolve(K6_DIR, 'README.md'), 'utf8');
  const all = new Set();
  for (const name of SCRIPTS) {
    const source = readFileSync(resolve(K6_DIR, name), 'utf8');
    const knobs = [...source.matchAll(/(?:env|__ENV)(?:\.|\[')([A-Z][A-Z0-9_]+)/g), ...source.matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g),
      ...source.matchAll(/whole\('([A-Z][A-Z0-9_]+)'/g), ...source.matchAll(/'((?:UN)?PINNED_MODE)'/g)].map((m) => m[1]);
    knobs.forEach((k) => all.add(k));
  }
  assert.ok(all.size >= 20, `found only ${[...all].join(', ')}`);
  const header = (/** @type {string} */ name) => readFileSync(resolve(K6_DIR, name), 'utf8').split('\nimport')[0];
  for (const knob of all) {
    assert.ok(header('starvation.js').includes(knob) || header('smoke.js').includes(knob), `${knob} is not in a script's header comment`);
    assert.match(readme, new RegExp(`\\| \`${knob}\` \\|`), `${knob} is not in the README's knob table`);
  }
});
