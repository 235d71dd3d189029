// The suite as ConfigMap k6-scripts holds it: flat files, built-in k6 modules and ./lib-*.js siblings
// only, no remote imports, open() only of plan.json beside an entry script; every knob the scripts
// read is documented in the header comment of a script that reads it and in k6/README.md; the
// scripts type-check against @types/k6.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { fixture, K6_DIR } from '../harness/paths.mjs';

const SCRIPTS = readdirSync(K6_DIR).filter((f) => f.endsWith('.js'));
const ENTRIES = ['starvation.js', 'own-service.js', 'smoke.js'];
const source = (/** @type {string} */ name) => readFileSync(resolve(K6_DIR, name), 'utf8');

/**
 * What a ConfigMap mount (flat keys) or an egress-less runner pod could not load.
 */
function importProblems(text) {
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]).flatMap((specifier) => {
    if (/^[a-z]+:\/\//i.test(specifier)) return [`${specifier}: remote import`];
    if (specifier.startsWith('.')) {
      if (!/^\.\/lib-[a-z0-9-]+\.js$/.test(specifier)) return [`${specifier}: not a flat ./lib-*.js sibling (a ConfigMap key cannot hold '/')`];
      return SCRIPTS.includes(specifier.slice(2)) ? [] : [`${specifier}: not in k6/`];
    }
    return ['k6', 'k6/http', 'k6/metrics', 'k6/execution'].includes(specifier) ? [] : [`${specifier}: not a k6 built-in module the suite uses`];
  });
}

test('every script imports only k6 built-ins and flat ./lib-*.js siblings that exist; fixtures/broken-imports.js is refused', () => {
  for (const name of SCRIPTS) {
    assert.deepEqual(importProblems(source(name)), [], name);
  }
  assert.deepEqual(importProblems(readFileSync(fixture('broken-imports.js'), 'utf8')), [
    "./lib/probes.js: not a flat ./lib-*.js sibling (a ConfigMap key cannot hold '/')",
    'https://jslib.k6.io/k6-summary/0.0.2/index.js: remote import',
  ]);
});

test('open() reads only plan.json, from the entry scripts', () => {
  for (const name of SCRIPTS) {
    const opens = [...source(name).matchAll(/\bopen\(([^)]*)\)/g)].map((m) => m[1]);
    assert.deepEqual(opens, ENTRIES.includes(name) ? ["'./plan.json'"] : [], name);
  }
});

test('every knob the scripts read is in the header comment of a script and in k6/README.md', () => {
  const readme = source('README.md');
  const headers = ENTRIES.map((name) => source(name).split('\nimport')[0]).join('\n');
  const knobs = new Set(SCRIPTS.flatMap((name) => [...source(name).matchAll(
    /(?:env|__ENV)(?:\.|\[')([A-Z][A-Z0-9_]+)|\((?:env|__ENV), '([A-Z][A-Z0-9_]+)'|'((?:UN)?PINNED_MODE|LOAD_[A-Z_]+|WATCH[A-Z_]*|EXPECT_STARVED)'/g)]
    .map((m) => m.slice(1).find((k) => k !== undefined))));
  assert.ok(knobs.size >= 30, `found only ${[...knobs].join(', ')}`);
  for (const knob of knobs) {
    assert.match(headers, new RegExp(`\\b${knob}\\b`), `${knob} is not in a script's header comment`);
    assert.match(readme, new RegExp(`\\| \`${knob}\` \\|`), `${knob} is not in the README's knob table`);
  }
});

/**
 * The type errors of k6 scripts under tsconfig.json (checkJs, strict, @types/k6): the suite, or fixtures in its place.
 */
function typeErrors(files) {
  const config = ts.getParsedCommandLineOfConfigFile(fileURLToPath(new URL('../tsconfig.json', import.meta.url)), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  assert.ok(config, 'tsconfig.json reads');
  for (const name of SCRIPTS) {
    assert.ok(config.fileNames.map((f) => resolve(f)).includes(resolve(K6_DIR, name)), `${name} is not included by tsconfig.json`);
  }
  const rootNames = files ? [...files, ...config.fileNames.filter((f) => f.endsWith('.d.ts'))] : config.fileNames;
  return ts.getPreEmitDiagnostics(ts.createProgram({ rootNames, options: config.options }))
    .map((d) => `${d.file ? d.file.fileName.split('/').pop() : ''} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

test('the k6 scripts type-check against @types/k6; an option typo and an unknown executor are refused', () => {
  assert.deepEqual(typeErrors(), []);
  for (const [broken, wrong] of [['broken-option-typo.js', "'summaryTrendStat'"], ['broken-unknown-executor.js', 'constant-arrivals-rate']]) {
    const errors = typeErrors([fixture(broken)]);
    assert.ok(errors.some((e) => e.startsWith(broken) && e.includes(wrong)), `${broken}: ${JSON.stringify(errors)}`);
  }
});
