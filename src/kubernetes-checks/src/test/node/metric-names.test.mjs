// check-metric-names.mjs: every metric (and label) the alert rules and the dashboard read exists
// in a scrape of the service. fixtures/scrape-jdk25.txt is GET /q/metrics of the service on
// JDK 25 after every mode, probe and health endpoint was called once, with the lab_container_* and
// lab_jvm_* families as a pod of 4 CPUs and 1 GiB shows them (the quota and memory limit have no
// series outside a container that sets them).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { analyse, expressionsOf, MAY_BE_ABSENT } from './checks/metric-names.mjs';
import { renderFor } from './checks/render.mjs';

const SCRIPT = fileURLToPath(new URL('./check-metric-names.mjs', import.meta.url));
const SCRAPE = fileURLToPath(new URL('./fixtures/scrape-jdk25.txt', import.meta.url));
const fixturePath = (/** @type {string} */ name) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** @param {string[]} args */
function run(...args) {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A scrape file holding the fixture minus the samples whose name matches. */
function scrapeWithout(/** @type {RegExp} */ drop) {
  const text = readFileSync(SCRAPE, 'utf8').split('\n').filter((line) => !drop.test(line.replace(/^# (TYPE|HELP) /, ''))).join('\n');
  const file = join(mkdtempSync(join(tmpdir(), 'starvation-lab-scrape-')), 'scrape.txt');
  writeFileSync(file, text);
  return file;
}

describe('check-metric-names.mjs', () => {
  test('the rendered base reads only metrics the service exports', () => {
    const result = run(SCRAPE);
    assert.equal(result.status, 0, result.output);
    assert.match(result.output, /metric names in \d+ expressions/);
  });

  test('a JDK 21 scrape (no scheduler gauges) before any pinned episode passes through the allow-list', () => {
    const result = run(scrapeWithout(/^(jvm_threads_virtual_(live_threads|parallelism|pool_size_threads)|lab_pinning_events_total)\b/));
    assert.equal(result.status, 0, result.output);
    assert.match(result.output, /absent but allowed: .*jvm_threads_virtual_live_threads/);
  });

  test('the allow-list names only metrics the rules or the dashboard use', (t) => {
    const objects = renderFor(t, 'base');
    if (!objects) return;
    const used = new Set(expressionsOf(objects).flatMap(({ expr }) => analyse(expr).selectors.map((s) => s.name)));
    for (const name of Object.keys(MAY_BE_ABSENT)) {
      assert.ok(used.has(name), `${name} is allowed to be absent but nothing reads it`);
    }
  });

  test('the expressions come from both the alert rules and the dashboard', (t) => {
    const objects = renderFor(t, 'base');
    if (!objects) return;
    const expressions = expressionsOf(objects);
    assert.ok(expressions.filter((e) => e.source.startsWith('PrometheusRule')).length >= 5);
    assert.ok(expressions.filter((e) => e.source.includes('starvation-lab.json panel')).length >= 15);
    assert.ok(expressions.some((e) => e.source.includes('variable $namespace')));
  });
});

describe('broken fixtures fail', () => {
  test('an alert on a metric that does not exist', () => {
    const result = run(SCRAPE, '--manifests', fixturePath('prometheusrule-unknown-metric.yaml'));
    assert.equal(result.status, 1, result.output);
    assert.match(result.output, /unknown metric lab_carrier_scheduling_delay_seconds_buckets \(used by PrometheusRule .* alert CarrierStarvation\)/);
  });

  test('a dashboard with an unknown metric and a misspelled label', () => {
    const result = run(SCRAPE, '--manifests', fixturePath('dashboard-unknown-metric.yaml'));
    assert.equal(result.status, 1, result.output);
    assert.match(result.output, /unknown metric jvm_threads_virtual_mounted/);
    assert.match(result.output, /http_server_requests_seconds_bucket has no label "url"/);
    assert.match(result.output, /grouping label "url"/);
  });

  test('an expression that does not parse', () => {
    const result = run(SCRAPE, '--manifests', fixturePath('prometheusrule-broken-promql.yaml'));
    assert.equal(result.status, 1, result.output);
    assert.match(result.output, /cannot parse/);
  });

  test('a scrape that lacks a metric the rules need', () => {
    const result = run(scrapeWithout(/^lab_carrier_scheduling_stalled_seconds\b/));
    assert.equal(result.status, 1, result.output);
    assert.match(result.output, /unknown metric lab_carrier_scheduling_stalled_seconds/);
  });

  test('no scrape file is a usage error', () => {
    assert.equal(run().status, 2);
    assert.equal(run('/nonexistent/scrape.txt').status, 2);
  });
});
