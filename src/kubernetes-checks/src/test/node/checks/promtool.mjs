// Runs promtool on the alert rules exactly as the rendered PrometheusRule carries them.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

export const UNIT_TESTS = new URL('../promtool/alerts.test.yaml', import.meta.url);

/**
 * The PrometheusRule's spec as a plain Prometheus rules file.
 *
 * @param {any[]} objects
 * @returns {string}
 */
export function rulesFileOf(objects) {
  const rules = objects.filter((o) => o.kind === 'PrometheusRule');
  if (rules.length !== 1) {
    throw new Error(`expected one PrometheusRule, found ${rules.length}`);
  }
  return stringify({ groups: rules[0].spec.groups });
}

/**
 * Writes rules.yaml (and the unit tests beside it) into a fresh directory.
 *
 * @param {string} rules
 * @returns {{ dir: string, rulesFile: string, testsFile: string }}
 */
export function stage(rules) {
  const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-rules-'));
  const rulesFile = join(dir, 'rules.yaml');
  const testsFile = join(dir, 'alerts.test.yaml');
  writeFileSync(rulesFile, rules);
  copyFileSync(UNIT_TESTS, testsFile);
  return { dir, rulesFile, testsFile };
}

/**
 * @param {string} promtool
 * @param {string[]} args
 * @returns {{ ok: boolean, output: string }}
 */
export function promtool(promtool, args) {
  const run = spawnSync(promtool, args, { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? String(run.error) : ''}` };
}
