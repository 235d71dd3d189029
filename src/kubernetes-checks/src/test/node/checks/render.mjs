// Renders the kustomizations with `kubectl kustomize`, the way `kubectl apply -k` would.

import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { requireTool } from './tools.mjs';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../../..');
export const KUBERNETES = join(REPO, 'kubernetes');
export const NAMESPACE = 'starvation-lab';

/** Every overlay directory, found on disk so that a new one is checked without listing it here. */
export const OVERLAYS = readdirSync(join(KUBERNETES, 'overlays'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `overlays/${entry.name}`)
  .sort();

/** The lab's kustomizations: they must render with kustomize's default load restrictor. */
export const LAB_KUSTOMIZATIONS = ['base', ...OVERLAYS];

/** The in-cluster load reads ../../k6, outside its root: rendered with LoadRestrictionsNone. */
export const K6_KUSTOMIZATIONS = ['k6', 'k6/job', 'k6/scripts'];

/**
 * @param {string} kubectl path of kubectl
 * @param {string} kustomization directory under kubernetes/
 * @returns {any[]} the rendered objects
 */
export function render(kubectl, kustomization) {
  const args = ['kustomize'];
  if (K6_KUSTOMIZATIONS.includes(kustomization)) {
    args.push('--load-restrictor=LoadRestrictionsNone');
  }
  args.push(join(KUBERNETES, kustomization));
  const text = execFileSync(kubectl, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  return parseObjects(text);
}

/**
 * @param {string} text one or more YAML documents
 * @returns {any[]}
 */
export function parseObjects(text) {
  const objects = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) {
      throw new Error(`YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
    }
    const value = doc.toJS();
    if (value !== null && value !== undefined) {
      objects.push(value);
    }
  }
  return objects;
}

/**
 * @param {any} object
 * @returns {string} e.g. "Deployment starvation-lab/lab-pinned"
 */
export function describe(object) {
  const ns = object?.metadata?.namespace ? `${object.metadata.namespace}/` : '';
  return `${object?.kind} ${ns}${object?.metadata?.name}`;
}

/** @type {Map<string, any[]>} */
const renders = new Map();

/**
 * A kustomization's objects for a test, rendered once per test file; null when the test was
 * skipped for want of kubectl (checks/tools.mjs).
 *
 * @param {import('node:test').TestContext} t
 * @param {string} kustomization
 * @returns {any[] | null}
 */
export function renderFor(t, kustomization) {
  const kubectl = requireTool(t, 'kubectl');
  if (!kubectl) {
    return null;
  }
  if (!renders.has(kustomization)) {
    renders.set(kustomization, render(kubectl, kustomization));
  }
  return structuredClone(renders.get(kustomization) ?? []);
}
