// The rendered PrometheusRule through promtool (check rules, and the unit tests in
// promtool/alerts.test.yaml), and what its annotations promise the on-call.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { promtool, rulesFileOf, stage, UNIT_TESTS } from './checks/promtool.mjs';
import { KUBERNETES, parseObjects, renderFor } from './checks/render.mjs';
import { requireTool } from './checks/tools.mjs';

/** The repository's runbook, the default base of every runbook_url. */
const RUNBOOK_BASE = parse(readFileSync(join(KUBERNETES, 'base', 'monitoring', 'runbook.yaml'), 'utf8')).data.base;

/** @param {any[]} objects */
function alertsOf(objects) {
  return objects.filter((o) => o.kind === 'PrometheusRule').flatMap((o) => o.spec.groups.flatMap((/** @type {any} */ g) => g.rules))
    .filter((/** @type {any} */ r) => r.alert);
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsUnder(markdown, section) {
  const anchors = new Set();
  let inside = false;
  for (const line of markdown.split('\n')) {
    const heading = /^(#{1,6})\s+(.*?)\s*$/.exec(line);
    if (!heading) continue;
    if (heading[1].length === 2) inside = heading[2] === section;
    if (inside && heading[1].length === 3) {
      anchors.add(heading[2].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-'));
    }
  }
  return anchors;
}

describe('alert rules', () => {
  test('promtool check rules accepts the rendered rules', (t) => {
    const tool = requireTool(t, 'promtool');
    const objects = renderFor(t, 'base');
    if (!tool || !objects) return;
    const { rulesFile } = stage(rulesFileOf(objects));
    const result = promtool(tool, ['check', 'rules', rulesFile]);
    assert.ok(result.ok, result.output);
  });

  test('promtool test rules: each alert fires on a starving series and stays quiet on a healthy one', (t) => {
    const tool = requireTool(t, 'promtool');
    const objects = renderFor(t, 'base');
    if (!tool || !objects) return;
    const { testsFile } = stage(rulesFileOf(objects));
    const result = promtool(tool, ['test', 'rules', testsFile]);
    assert.ok(result.ok, result.output);
  });

  test('every alert has a unit test that fires it and one that keeps it quiet', (t) => {
    const objects = renderFor(t, 'base');
    if (!objects) return;
    const unitTests = parse(readFileSync(UNIT_TESTS, 'utf8')).tests.flatMap((/** @type {any} */ u) => u.alert_rule_test);
    for (const alert of alertsOf(objects)) {
      const cases = unitTests.filter((/** @type {any} */ c) => c.alertname === alert.alert);
      assert.ok(cases.some((/** @type {any} */ c) => c.exp_alerts?.length > 0), `${alert.alert} never fires in a unit test`);
      assert.ok(cases.some((/** @type {any} */ c) => (c.exp_alerts ?? []).length === 0), `${alert.alert} is never shown quiet`);
    }
  });

  test('every alert tells the on-call where to look, and its runbook exists', (t) => {
    const objects = renderFor(t, 'base');
    if (!objects) return;
    const runbook = anchorsUnder(readFileSync(join(KUBERNETES, '..', 'docs', 'runbook.md'), 'utf8'), 'Alerts');
    const alerts = alertsOf(objects);
    assert.ok(alerts.length >= 5);
    for (const alert of alerts) {
      const { summary, description, runbook_url: url } = alert.annotations ?? {};
      assert.ok(summary && description && url, `${alert.alert}: summary, description and runbook_url`);
      assert.match(description, /\/lab\/pinning/, `${alert.alert}: description names /lab/pinning`);
      const [, path, anchor] = /^https:\/\/[^\s#]+\/(docs\/runbook\.md)#(.+)$/.exec(url) ?? [];
      assert.ok(path, `${alert.alert}: runbook_url ${url} is no absolute link to docs/runbook.md (Alertmanager links it as is)`);
      assert.equal(url.split('#')[0], RUNBOOK_BASE, `${alert.alert}: the base of runbook.yaml`);
      assert.ok(description.includes(`${path}#${anchor}`), `${alert.alert}: description names the runbook ${path}#${anchor}`);
      assert.ok(anchor && runbook.has(anchor), `${alert.alert}: ${url} is no subsection of docs/runbook.md's "## Alerts" (${[...runbook].join(', ')})`);
      assert.ok(alert.labels?.severity, `${alert.alert}: severity`);
    }
  });
});

describe('runbook links', () => {
  test('a kustomization of your own points every runbook_url at its own base (kubernetes/README.md, "Runbook links")', (t) => {
    const kubectl = requireTool(t, 'kubectl');
    if (!kubectl) return;
    const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-runbook-'));
    const base = 'https://git.example.com/team/starvation-lab/-/blob/main/kubernetes/README.md';
    writeFileSync(join(dir, 'kustomization.yaml'), stringify({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: [relative(dir, join(KUBERNETES, 'overlays', 'jdk21'))],
      components: [relative(dir, join(KUBERNETES, 'components', 'runbook-base'))],
      configMapGenerator: [{ name: 'starvation-lab-runbook', behavior: 'replace', literals: [`base=${base}`] }],
    }));
    const objects = parseObjects(execFileSync(kubectl, ['kustomize', dir], { encoding: 'utf8' }));
    const urls = alertsOf(objects).map((/** @type {any} */ a) => a.annotations.runbook_url);
    assert.ok(urls.length >= 5);
    for (const url of urls) assert.match(url, new RegExp(`^${base.replace(/[.]/g, '\\.')}#[a-z]+$`));
    assert.ok(!objects.some((o) => o.metadata?.name === 'starvation-lab-runbook'), 'local config stays out of the render');
  });
});

describe('broken fixtures fail', () => {
  test('promtool check rules rejects a broken expression', (t) => {
    const tool = requireTool(t, 'promtool');
    if (!tool) return;
    const broken = parseObjects(readFileSync(new URL('./fixtures/prometheusrule-broken-promql.yaml', import.meta.url), 'utf8'));
    const { rulesFile } = stage(rulesFileOf(broken));
    const result = promtool(tool, ['check', 'rules', rulesFile]);
    assert.equal(result.ok, false, result.output);
    assert.match(result.output, /parse error|unexpected/i);
  });

  test('the unit tests catch an alert that no longer fires (threshold raised)', (t) => {
    const tool = requireTool(t, 'promtool');
    const objects = renderFor(t, 'base');
    if (!tool || !objects) return;
    const starvation = alertsOf(objects).find((/** @type {any} */ a) => a.alert === 'CarrierStarvation');
    starvation.expr = String(starvation.expr).replaceAll(/> 0\.[15]\b/g, '> 100');
    const { testsFile } = stage(rulesFileOf(objects));
    const result = promtool(tool, ['test', 'rules', testsFile]);
    assert.equal(result.ok, false, result.output);
    assert.match(result.output, /CarrierStarvation/);
  });
});
