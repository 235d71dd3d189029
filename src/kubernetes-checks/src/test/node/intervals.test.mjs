// The intervals a cluster would scrape, evaluate and draw at (checks/intervals.mjs): the rendered
// base with kube-prometheus-stack's defaults and the README's install values hides no starvation as
// long as the plan's phases, at the intervals the experiment measured detection with; each defect
// fails once, on a one-defect patch of the render.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { brokenRender } from './checks/fixtures.mjs';
import { checkIntervals, effectiveIntervals, seconds, shortestPhase, stackInstallValues, stackIntervals } from './checks/intervals.mjs';
import { REPO, renderFor } from './checks/render.mjs';

/** The experiment's Prometheus scrapes and evaluates every INTERVAL; Grafana's $__rate_interval is four of them. */
const MEASURED = Number(/INTERVAL = Duration\.ofSeconds\((\d+)\)/.exec(readFileSync(join(REPO,
  'src/experiment/src/main/java/io/starvationlab/experiment/prometheus/PrometheusServer.java'), 'utf8'))?.[1]);

describe('intervals in a cluster', () => {
  test('the base, with the stack as the README installs it, hides no starvation as long as the plan\'s phases', (t) => {
    const objects = renderFor(t, 'base');
    if (!objects) return;
    const values = stackInstallValues();
    const { stack, scrapes, groups, panels } = effectiveIntervals(objects, values);
    t.diagnostic(`kube-prometheus-stack with ${JSON.stringify(values)}: scrape ${stack.scrape}, evaluation ${stack.evaluation}, data source ${stack.dataSource}`);
    t.diagnostic(`shortest phase: ${JSON.stringify(shortestPhase())}`);
    t.diagnostic(`scrapes ${scrapes.map((s) => s.interval)}, groups ${groups.map((g) => g.interval)}, panels' $__rate_interval ${[...new Set(panels.map((p) => p.rateInterval))]} s`);
    assert.deepEqual(checkIntervals(objects, values), []);
  });

  test('at the intervals the experiment measured detection with', (t) => {
    const objects = renderFor(t, 'base');
    if (!objects) return;
    assert.equal(MEASURED, 1, 'PrometheusServer.INTERVAL, read from its source');
    const { scrapes, groups, panels } = effectiveIntervals(objects, stackInstallValues());
    for (const s of scrapes) assert.equal(seconds(s.interval), MEASURED, s.where);
    for (const g of groups) assert.equal(seconds(g.interval), MEASURED, g.where);
    assert.ok(panels.length >= 10, 'the rate panels');
    for (const p of panels) assert.equal(p.rateInterval, 4 * MEASURED, p.where);
  });

  test('the stack\'s own defaults: 30 s everywhere, the data source following the scrape interval', () => {
    assert.deepEqual(stackIntervals({}), { scrape: '30s', evaluation: '30s', dataSource: '30s' });
    assert.deepEqual(stackIntervals({ 'prometheus.prometheusSpec.scrapeInterval': '10s' }), { scrape: '10s', evaluation: '30s', dataSource: '10s' });
    assert.equal(stackIntervals({ 'grafana.sidecar.datasources.defaultDatasourceScrapeInterval': '5s' }).dataSource, '5s');
    assert.deepEqual([seconds('1s'), seconds('2m'), seconds('1m30s'), seconds('500ms')], [1, 120, 90, 0.5]);
  });
});

describe('broken fixtures fail', () => {
  /** @type {[string, RegExp][]} */
  const cases = [
    ['prometheusrule-group-without-interval',
      /group starvation-lab\.carriers CarrierStall: evaluated every 30s \(kube-prometheus-stack \(prometheusSpec\.evaluationInterval\)\): a starvation of 4 s .* leaves its shortest window \[15s\] 11 s before the next evaluation/],
    ['servicemonitor-scrape-5s', /endpoint http: scraped every 5s \(the endpoint\): a starvation of 4 s .* can fall between two scrapes/],
    ['dashboard-panel-without-min-interval',
      /panel "Canary: wait for a carrier \(p99, p50\)": \$__rate_interval is at least 120 s \(4 x the 30s step of the data source/],
  ];
  for (const [name, message] of cases) {
    test(`broken/${name}.yaml`, (t) => {
      const objects = renderFor(t, 'base');
      if (!objects) return;
      const violations = checkIntervals(brokenRender(name, objects), stackInstallValues());
      assert.match(violations.join('\n'), message);
    });
  }

  test('the install line can fix what the manifests leave to the stack', (t) => {
    const objects = renderFor(t, 'base');
    if (!objects) return;
    const broken = brokenRender('prometheusrule-group-without-interval', objects);
    assert.deepEqual(checkIntervals(broken, { 'prometheus.prometheusSpec.evaluationInterval': '1s' }), []);
  });
});
