// ConfigMap k6-scripts must carry the whole k6 suite: kustomize cannot glob, so its generator
// lists the files, and this check compares the list with k6/ on disk.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { KUBERNETES, REPO } from './render.mjs';

export const SCRIPTS_KUSTOMIZATION = join(KUBERNETES, 'k6', 'scripts', 'kustomization.yaml');
export const K6_DIR = join(REPO, 'k6');

/** The suite's files on disk: every k6/*.js and k6/plan.json. */
export function suiteFiles(dir = K6_DIR) {
  return readdirSync(dir).filter((f) => f.endsWith('.js') || f === 'plan.json').sort();
}

/**
 * The files the k6-scripts generator lists, resolved against its kustomization.
 *
 * @param {string} kustomizationFile
 * @returns {string[]} absolute paths
 */
export function listedFiles(kustomizationFile = SCRIPTS_KUSTOMIZATION) {
  const kustomization = parse(readFileSync(kustomizationFile, 'utf8'));
  const generator = (kustomization.configMapGenerator ?? []).find((/** @type {any} */ g) => g.name === 'k6-scripts');
  if (!generator) {
    throw new Error(`${kustomizationFile} has no configMapGenerator named k6-scripts`);
  }
  return (generator.files ?? []).map((/** @type {string} */ entry) => {
    const file = entry.includes('=') ? entry.slice(entry.indexOf('=') + 1) : entry;
    return resolve(join(kustomizationFile, '..'), file);
  });
}

/**
 * @param {string[]} listed absolute paths from the generator
 * @param {string[]} present file names in k6/
 * @param {string} dir the k6 directory
 * @returns {string[]} violations
 */
export function checkK6Scripts(listed, present, dir = K6_DIR) {
  const violations = [];
  for (const file of listed) {
    if (resolve(join(file, '..')) !== resolve(dir)) {
      violations.push(`k6-scripts lists ${file}, which is not in ${dir} (a ConfigMap key cannot hold "/")`);
    } else if (!existsSync(file)) {
      violations.push(`k6-scripts lists ${basename(file)}, which does not exist in k6/`);
    }
  }
  const names = new Set(listed.map((f) => basename(f)));
  for (const file of present) {
    if (!names.has(file)) {
      violations.push(`k6/${file} is missing from the k6-scripts ConfigMap generator (${SCRIPTS_KUSTOMIZATION.slice(REPO.length + 1)})`);
    }
  }
  return violations;
}
