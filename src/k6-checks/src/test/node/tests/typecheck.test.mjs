// The k6 scripts type-check with TypeScript's checkJs against @types/k6; option typos and unknown
// executors fail the check.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fixture, K6_DIR } from '../harness/paths.mjs';
import { readConfig, typecheck } from '../harness/typecheck.mjs';
import { requireTool } from '../harness/tools.mjs';

const typescript = (/** @type {import('node:test').TestContext} */ t) =>
  requireTool(t, 'typescript and @types/k6 (devDependencies)', async () => {
    const ts = (await import('typescript')).default;
    createRequire(import.meta.url).resolve('@types/k6/package.json');
    return ts;
  });

test('every script in k6/ is in the type check', async (t) => {
  const ts = await typescript(t);
  if (!ts) return;
  const checked = readConfig(ts).fileNames.map((f) => resolve(f));
  for (const name of readdirSync(K6_DIR).filter((f) => f.endsWith('.js'))) {
    assert.ok(checked.includes(resolve(K6_DIR, name)), `${name} is not included by tsconfig.json`);
  }
});

test('the k6 scripts type-check against @types/k6 (checkJs, strict)', async (t) => {
  const ts = await typescript(t);
  if (!ts) return;
  const errors = typecheck(ts);
  assert.deepEqual(errors.map((e) => `${e.file}:${e.line} TS${e.code} ${e.message}`), []);
});

test('the type check refuses an option typo (fixtures/broken-option-typo.js)', async (t) => {
  const ts = await typescript(t);
  if (!ts) return;
  const errors = typecheck(ts, [fixture('broken-option-typo.js')]);
  assert.ok(errors.some((e) => e.file.endsWith('broken-option-typo.js') && /summaryTrendStat'/.test(e.message)),
    `expected an error on 'summaryTrendStat', got ${JSON.stringify(errors)}`);
});

test('the type check refuses an unknown executor (fixtures/broken-unknown-executor.js)', async (t) => {
  const ts = await typescript(t);
  if (!ts) return;
  const errors = typecheck(ts, [fixture('broken-unknown-executor.js')]);
  assert.ok(errors.some((e) => e.file.endsWith('broken-unknown-executor.js') && /constant-arrivals-rate/.test(e.message)),
    `expected an error on 'constant-arrivals-rate', got ${JSON.stringify(errors)}`);
});
