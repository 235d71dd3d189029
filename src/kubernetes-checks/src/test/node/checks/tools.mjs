// The programs the checks run (kubectl, promtool). Missing in CI (CI=true) a check fails; missing
// on a developer's machine it is skipped, loudly: never a silent pass.

import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** @type {Record<string, string>} */
export const INSTALL_HINTS = {
  kubectl: 'kubectl 1.27+ with kustomize v5: the kubectl package, or a release from kubernetes.io',
  promtool: "promtool 2.x, e.g. the Debian package 'prometheus'",
};

/**
 * @param {string} name
 * @returns {string | null} the program's path, or null when it is not on the PATH
 */
export function findTool(name) {
  for (const dir of (process.env.PATH || '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Returns the program's path, or skips the test with the reason (outside CI), or throws (in CI).
 *
 * @param {import('node:test').TestContext} t
 * @param {string} name
 * @returns {string | null} null when the test was skipped: return at once
 */
export function requireTool(t, name) {
  const found = findTool(name);
  if (found) {
    return found;
  }
  const message = `${name} is not on the PATH (${INSTALL_HINTS[name] || 'install it'})`;
  if (process.env.CI === 'true') {
    throw new Error(`${message}: required in CI`);
  }
  process.stderr.write(`\nSKIPPED (${t.name}): ${message}\n`);
  t.skip(message);
  return null;
}
