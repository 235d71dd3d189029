#!/usr/bin/env node
// Checks that every metric the alert rules (PrometheusRule) and the Grafana dashboard of the
// rendered kubernetes/base read exists in a Prometheus text scrape of the service.
//
//   node src/kubernetes-checks/src/test/node/check-metric-names.mjs <scrape-file> [--manifests <rendered.yaml>]
//
// <scrape-file>   the body of GET /q/metrics
// --manifests     read these rendered objects instead of rendering kubernetes/base (the tests use
//                 it with broken fixtures)
// Exit status: 0 every name (and every label matched or grouped on) is in the scrape, 1 some are
// not (listed on stderr), 2 usage or input error. Names that may be absent are in MAY_BE_ABSENT
// (checks/metric-names.mjs). kubernetes/base is rendered with `kubectl kustomize`; without kubectl
// the script reads the files the base's monitoring kustomization lists, and says so.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { checkMetricNames, expressionsOf, MAY_BE_ABSENT, parseScrape } from './checks/metric-names.mjs';
import { findTool, KUBERNETES, parseObjects, render } from './checks/render.mjs';

/** @param {string} message @returns {never} */
function usage(message) {
  process.stderr.write(`check-metric-names: ${message}\n`
    + 'usage: node src/kubernetes-checks/src/test/node/check-metric-names.mjs <scrape-file> [--manifests <rendered.yaml>]\n');
  process.exit(2);
}

/** The monitoring objects straight from their files, as kustomize would include them. */
function monitoringFromFiles() {
  const dir = join(KUBERNETES, 'base', 'monitoring');
  const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'));
  const objects = (kustomization.resources ?? []).flatMap((/** @type {string} */ file) => parseObjects(readFileSync(join(dir, file), 'utf8')));
  for (const generator of kustomization.configMapGenerator ?? []) {
    /** @type {Record<string, string>} */
    const data = {};
    for (const entry of generator.files ?? []) {
      const [key, file] = entry.includes('=') ? entry.split('=') : [entry.split('/').pop(), entry];
      data[key] = readFileSync(join(dir, file), 'utf8');
    }
    objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: generator.name, labels: generator.options?.labels ?? {} }, data });
  }
  return objects;
}

const [scrapeFile, ...rest] = process.argv.slice(2);
const manifests = rest[0] === '--manifests' && rest.length === 2 ? rest[1] : undefined;
if (!scrapeFile || scrapeFile.startsWith('-') || (rest.length && !manifests)) usage('one scrape file, and --manifests <file> at most');
/** @param {() => any} read @param {string} what */
const input = (read, what) => {
  try {
    return read();
  } catch (error) {
    return usage(`cannot read ${what}: ${/** @type {Error} */ (error).message}`);
  }
};
const scrape = parseScrape(input(() => readFileSync(scrapeFile, 'utf8'), scrapeFile));
if (scrape.size === 0) usage(`${scrapeFile} holds no Prometheus samples`);
const kubectl = findTool('kubectl');
if (!manifests && !kubectl) process.stderr.write('check-metric-names: kubectl is not on the PATH; reading kubernetes/base/monitoring files directly\n');
const origin = manifests ?? (kubectl ? 'kubectl kustomize kubernetes/base' : 'kubernetes/base/monitoring');
const objects = input(() => (manifests ? parseObjects(readFileSync(manifests, 'utf8')) : kubectl ? render(kubectl, 'base') : monitoringFromFiles()),
  'the manifests');
const expressions = expressionsOf(objects);
if (expressions.length === 0) usage(`no PrometheusRule expressions or dashboard queries in ${origin}`);
const { problems, names, absentAllowed } = checkMetricNames(expressions, scrape);
if (problems.length > 0) {
  process.stderr.write(`check-metric-names: ${problems.length} problem(s) with ${origin} against ${scrapeFile}:\n`);
  process.stderr.write(problems.map((p) => `  - ${p}\n`).join(''));
  process.exit(1);
}
const allowed = [...absentAllowed].map((n) => `${n} (${MAY_BE_ABSENT[n]})`).join(', ');
process.stdout.write(`check-metric-names: ${names.size} metric names in ${expressions.length} expressions of ${origin} are in ${scrapeFile}`
  + `${allowed ? `; absent but allowed: ${allowed}` : ''}\n`);
