// Renders the kustomizations with `kubectl kustomize`, the way `kubectl apply -k` would, and finds
// the programs the checks run: missing in CI (CI=true) a check fails, elsewhere it is skipped, loudly.

import { execFileSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../../..');
export const KUBERNETES = join(REPO, 'kubernetes');
export const NAMESPACE = 'starvation-lab';
/** k6/plan.json: the phases, probes and rules the suite runs. */
export const PLAN = JSON.parse(readFileSync(join(REPO, 'k6', 'plan.json'), 'utf8'));
/** Every overlay on disk, so that a new one is checked without listing it here. */
export const OVERLAYS = readdirSync(join(KUBERNETES, 'overlays'), { withFileTypes: true })
  .filter((e) => e.isDirectory()).map((e) => `overlays/${e.name}`).sort();
/** The lab's kustomizations: they render with kustomize's default load restrictor. */
export const LAB_KUSTOMIZATIONS = ['base', ...OVERLAYS];
/** The in-cluster load reads ../../k6, outside its root: rendered with LoadRestrictionsNone. */
export const K6_KUSTOMIZATIONS = ['k6', 'k6/job', 'k6/scripts'];

const HINTS = /** @type {Record<string, string>} */ ({
  kubectl: 'kubectl 1.27+ with kustomize v5: the kubectl package, or a release from kubernetes.io',
  promtool: "promtool 2.x, e.g. the Debian package 'prometheus'",
});

/** @param {string} name @returns {string | null} the program's path on the PATH */
function findTool(name) {
  for (const dir of (process.env.PATH || '').split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * What a check needs and the machine lacks: in CI (CI=true) the check fails, elsewhere it is skipped, loudly.
 *
 * @param {string} message what is missing
 * @returns {null} the test was skipped: return at once
 */
export function missing(t, message) {
  if (process.env.CI === 'true') throw new Error(`${message}: required in CI`);
  process.stderr.write(`\nSKIPPED (${t.name}): ${message}\n`);
  t.skip(message);
  return null;
}

/** @param {import('node:test').TestContext} t @param {string} name @returns {string | null} the program's path, or null: skipped */
export function requireTool(t, name) {
  return findTool(name) ?? missing(t, `${name} is not on the PATH (${HINTS[name] ?? 'install it'})`);
}

/**
 * @param {string} kustomization a directory under kubernetes/, or an absolute one
 * @param {boolean} [unrestricted] whether it reads files outside its root (the k6 suite)
 * @returns {any[]} the rendered objects
 */
export function render(kubectl, kustomization, unrestricted = K6_KUSTOMIZATIONS.includes(kustomization)) {
  const args = ['kustomize', ...(unrestricted ? ['--load-restrictor=LoadRestrictionsNone'] : [])];
  const text = execFileSync(kubectl, [...args, resolve(KUBERNETES, kustomization)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  return parseObjects(text);
}

/** @param {string} text one or more YAML documents @returns {any[]} */
export function parseObjects(text) {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS();
  }).filter((value) => value !== null && value !== undefined);
}

/** @param {any} object @returns {string} e.g. "Deployment starvation-lab/lab-pinned" */
export function describe(object) {
  return `${object?.kind} ${object?.metadata?.namespace ? `${object.metadata.namespace}/` : ''}${object?.metadata?.name}`;
}

/**
 * A kustomization's objects, rendered once (a copy each time).
 */
export function renderer(kubectl) {
  const renders = new Map();
  return (kustomization) => structuredClone(renders.get(kustomization) ?? renders.set(kustomization, render(kubectl, kustomization)).get(kustomization) ?? []);
}

let rendered;

/**
 * A test's body on the objects of `kustomizations`, each rendered once per test file, then the test
 * context; the test is skipped (or fails in CI) for want of kubectl.
 */
export const onRenders = (kustomizations, body) => (t) => {
  const kubectl = requireTool(t, 'kubectl');
  if (!kubectl) return undefined;
  rendered ??= renderer(kubectl);
  return body(...kustomizations.map(rendered), t);
};
