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
import { KUBERNETES, parseObjects, render } from './checks/render.mjs';
import { findTool } from './checks/tools.mjs';

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

const args = process.argv.slice(2);
let scrapeFile;
let manifests;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--manifests') {
    manifests = args[++i] ?? usage('--manifests needs a file');
  } else if (args[i].startsWith('-')) {
    usage(`unknown option ${args[i]}`);
  } else if (scrapeFile === undefined) {
    scrapeFile = args[i];
  } else {
    usage('one scrape file only');
  }
}
if (!scrapeFile) {
  usage('no scrape file given');
}

let scrapeText;
try {
  scrapeText = readFileSync(scrapeFile, 'utf8');
} catch (error) {
  usage(`cannot read ${scrapeFile}: ${error.message}`);
}
const scrape = parseScrape(scrapeText);
if (scrape.size === 0) {
  usage(`${scrapeFile} holds no Prometheus samples`);
}

let objects;
let origin;
try {
  if (manifests) {
    objects = parseObjects(readFileSync(manifests, 'utf8'));
    origin = manifests;
  } else {
    const kubectl = findTool('kubectl');
    if (kubectl) {
      objects = render(kubectl, 'base');
      origin = 'kubectl kustomize kubernetes/base';
    } else {
      process.stderr.write('check-metric-names: kubectl is not on the PATH; reading kubernetes/base/monitoring files directly\n');
      objects = monitoringFromFiles();
      origin = 'kubernetes/base/monitoring';
    }
  }
} catch (error) {
  usage(`cannot read the manifests: ${error.message}`);
}

const expressions = expressionsOf(objects);
if (expressions.length === 0) {
  usage(`no PrometheusRule expressions or dashboard queries in ${origin}`);
}
const { problems, names, absentAllowed } = checkMetricNames(expressions, scrape);
if (problems.length > 0) {
  process.stderr.write(`check-metric-names: ${problems.length} problem(s) with ${origin} against ${scrapeFile}:\n`);
  for (const problem of problems) {
    process.stderr.write(`  - ${problem}\n`);
  }
  process.exit(1);
}
process.stdout.write(`check-metric-names: ${names.size} metric names in ${expressions.length} expressions of ${origin} are in ${scrapeFile}`
  + (absentAllowed.size > 0 ? `; absent but allowed: ${[...absentAllowed].map((n) => `${n} (${MAY_BE_ABSENT[n]})`).join(', ')}` : '') + '\n');
