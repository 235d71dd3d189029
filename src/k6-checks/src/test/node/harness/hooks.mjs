// Module hooks: 'k6', 'k6/http', 'k6/metrics' and 'k6/execution' resolve to the stand-ins; a k6
// script and its relative imports load as ES modules and share the script's generation (?k6gen=N),
// so each load of a script gets fresh module instances built from its own __ENV.

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** @type {Record<string, string>} */
let standins = {};

/** @param {{ standins: Record<string, string> }} data */
export async function initialize(data) {
  standins = data.standins;
}

/**
 * @param {string} specifier
 * @param {{ parentURL?: string }} context
 * @param {Function} next
 */
export async function resolve(specifier, context, next) {
  if (standins[specifier]) {
    return { url: standins[specifier], shortCircuit: true };
  }
  const parent = context.parentURL;
  const fromScript = parent !== undefined && new URL(parent).searchParams.has('k6gen');
  if (fromScript && (specifier === 'k6' || specifier.startsWith('k6/'))) {
    throw new Error(`k6 module '${specifier}' (imported by ${parent}) has no stand-in in the harness`);
  }
  if (fromScript && /^[a-z]+:\/\//i.test(specifier)) {
    throw new Error(`remote import '${specifier}' in ${parent}: the k6 scripts must not import over the network`);
  }
  if (fromScript && (specifier.startsWith('./') || specifier.startsWith('../'))) {
    const url = new URL(specifier, parent);
    url.search = new URL(parent).search;
    return { url: url.href, shortCircuit: true };
  }
  return next(specifier, context);
}

/**
 * @param {string} url
 * @param {object} context
 * @param {Function} next
 */
export async function load(url, context, next) {
  if (url.startsWith('file:') && new URL(url).searchParams.has('k6gen')) {
    const path = fileURLToPath(url.replace(/\?.*$/, ''));
    return { format: 'module', source: await readFile(path, 'utf8'), shortCircuit: true };
  }
  return next(url, context);
}
