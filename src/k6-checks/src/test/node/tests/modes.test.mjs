// The work modes are stated once, by the service's enum (Mode.java); every other list of them is read
// against it here, so a new mode cannot be forgotten by the k6 suite, the harness, the README or the
// Kubernetes settings.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MODES } from '../../../../../../k6/lib-layout.js';
import { MODES as STAND_IN_MODES } from '../harness/fake-service.mjs';
import { K6_DIR, PLAN } from '../harness/paths.mjs';

const ROOT = resolve(K6_DIR, '..');
const MODE_JAVA = resolve(ROOT, 'src/service/src/main/java/io/starvationlab/service/Mode.java');

/**
 * The labels of the enum's constants, in order, as Mode.labels() returns them.
 *
 * @param {string} source Mode.java
 */
function enumLabels(source) {
  if (!/name\(\)\.toLowerCase\(Locale\.ROOT\)/.test(source)) {
    throw new Error('Mode.label() is no longer name().toLowerCase(Locale.ROOT): update this reading of Mode.java');
  }
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const body = code.slice(code.indexOf('{', code.search(/\benum\s+Mode\b/)) + 1);
  const constants = body.slice(0, body.indexOf(';'));
  const labels = [...constants.matchAll(/\b([A-Z][A-Z0-9_]*)\s*(?:\([^)]*\))?\s*(?=,|$)/g)].map((m) => m[1].toLowerCase());
  if (labels.length === 0) {
    throw new Error('no enum constants found in Mode.java');
  }
  return labels;
}

function readmeModes(readme) {
  const table = readme.split(/\n(?=\| mode \|)/)[1];
  assert.ok(table, 'README.md has no table whose first column is "mode"');
  return [...table.split('\n\n')[0].matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
}

/** Values of the mode knobs (PINNED_MODE, UNPINNED_MODE, STARVING_MODES) set in the Kubernetes files. */
function kubernetesModeSettings() {
  const dir = resolve(ROOT, 'kubernetes');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => /\.ya?ml$/.test(name)).flatMap((name) => {
    // settings, not the comments that show a mistyped one
    const text = readFileSync(join(dir, name), 'utf8').split('\n').filter((line) => !/^\s*#/.test(line)).join('\n');
    return [...text.matchAll(/\b(PINNED_MODE|UNPINNED_MODE|STARVING_MODES)(?:=|:[ \t]*)["']?([a-z0-9,-]*)/g)].flatMap((m) =>
      m[2].split(',').filter((v) => v !== '').map((mode) => ({ file: `kubernetes/${name}`, key: m[1], mode })));
  });
}

const LABELS = enumLabels(readFileSync(MODE_JAVA, 'utf8'));

test('k6/lib-layout.js, the service\'s stand-in and the README\'s table list the enum\'s modes, in its order; plan.json\'s phases run them', () => {
  // deepEqual compares in order: another order is a difference too
  assert.deepEqual(MODES, LABELS, 'k6/lib-layout.js MODES');
  assert.deepEqual(STAND_IN_MODES, LABELS, 'harness/fake-service.mjs MODES');
  assert.deepEqual(readmeModes(readFileSync(resolve(ROOT, 'README.md'), 'utf8')), LABELS, 'README.md mode table');
  assert.deepEqual(PLAN.phases.filter((/** @type {any} */ p) => !LABELS.includes(p.mode)).map((/** @type {any} */ p) => `${p.name}: ${p.mode}`), []);
});

test('the Kubernetes settings name only modes of the enum', () => {
  const settings = kubernetesModeSettings();
  assert.ok(settings.some((s) => s.key === 'PINNED_MODE'), 'no PINNED_MODE found in kubernetes/: the reading of the files is broken');
  assert.deepEqual(settings.filter((s) => !LABELS.includes(s.mode)), []);
});

test('a mode added to the enum, past comments and arguments, is one more label, which every copy above then misses; a changed label() stops the reading', () => {
  const source = readFileSync(MODE_JAVA, 'utf8');
  const patched = source.replace(/(\bPLATFORM\(true\));/,
    '$1,\n    // SECOND_NOT(true), commented out\n    /** A new way to wait, CPU(false); in the comment. */\n    STRUCTURED_ONE(true, "a");\n    static final Mode LATER = CPU;');
  assert.notEqual(patched, source, 'the fixture patch no longer applies to Mode.java');
  const labels = enumLabels(patched);
  assert.deepEqual(labels, [...LABELS, 'structured_one']);
  assert.throws(() => enumLabels(source.replace('name().toLowerCase(Locale.ROOT)', 'code')), /update this reading/);
});
