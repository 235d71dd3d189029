// The monitoring objects of the rendered base as the cluster reads them: the intervals kube-prometheus-
// stack and Grafana would run them at (checks/monitoring.mjs), the dashboard's layout, the alert rules
// through promtool (check rules, and the unit tests in promtool/alerts.test.yaml) with what their
// annotations promise the on-call, the PromQL docs/ shows as what they run, and checks/metric-names.mjs:
// every metric and label the rules and the dashboard read exists in a live scrape of the packaged service
// (LIVE_SCRAPE: ObservabilityIT writes it after every mode, probe and health endpoint was called once,
// earlier in ./mvnw verify) and in fixtures/scrape-jdk25.txt, the same on JDK 25 with its lab_container_*
// and lab_jvm_* families as a pod of 4 CPUs and 1 GiB shows them.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { brokenRender, fixture } from './checks/fixtures.mjs';
import { checkMetricNames, checkPerInstance, expressionsOf, MAY_BE_ABSENT, metricsOf, parseScrape } from './checks/metric-names.mjs';
import { checkDashboard, checkIntervals, dashboards, effectiveIntervals, emptyLabels, grafanaQuery, seconds, stackIntervals } from './checks/monitoring.mjs';
import { KUBERNETES, missing, onRenders, REPO, requireTool } from './checks/render.mjs';

const README = readFileSync(join(KUBERNETES, 'README.md'), 'utf8');
const UNIT_TESTS = fileURLToPath(new URL('./promtool/alerts.test.yaml', import.meta.url));
const RULES = join(KUBERNETES, 'base/monitoring/prometheusrule.yaml');
/** Labels a cluster's service discovery adds to a target; a plain scrape has only `job` and `instance`. */
const CLUSTER_LABELS = ['namespace', 'service', 'pod', 'container', 'endpoint'];
const SCRAPE = fileURLToPath(new URL('./fixtures/scrape-jdk25.txt', import.meta.url));
const LIVE_SCRAPE = join(REPO, 'src/service/target/it-logs/scrape.txt');
/** The experiment's Prometheus scrapes and evaluates every INTERVAL, the intervals its detection was measured with. */
const MEASURED = Number(/INTERVAL = Duration\.ofSeconds\((\d+)\)/.exec(readFileSync(join(REPO,
  'src/experiment/src/main/java/io/starvationlab/experiment/prometheus/PrometheusServer.java'), 'utf8'))?.[1]);

/** A rule on the carrier-wait meter's series alone: it fires on any service that binds the meter. @param {any} rule */
const onAnyService = (rule) => metricsOf(String(rule.expr)).every((name) => name.startsWith('virtual_threads_carrier_'));
const alertsOf = (objects) => objects.filter((o) => o.kind === 'PrometheusRule').flatMap((o) => o.spec.groups.flatMap((/** @type {any} */ g) => g.rules))
  .filter((/** @type {any} */ r) => r.alert);

/**
 * promtool on the PrometheusRule's groups as a plain rules file, with the unit tests beside it.
 */
function promtool(tool, objects, what) {
  const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-rules-'));
  writeFileSync(join(dir, 'rules.yaml'), stringify({ groups: objects.find((o) => o.kind === 'PrometheusRule').spec.groups }));
  copyFileSync(UNIT_TESTS, join(dir, 'alerts.test.yaml'));
  const run = spawnSync(tool, [what, 'rules', join(dir, what === 'check' ? 'rules.yaml' : 'alerts.test.yaml')], { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ?? ''}` };
}

/** What checks/metric-names.mjs finds of `objects`' metric names in a scrape file. @param {string} file @param {any[]} objects */
const namesIn = (file, objects) => checkMetricNames(expressionsOf(objects), parseScrape(readFileSync(file, 'utf8')));

/** A scrape file holding the fixture minus the samples whose name matches. @param {RegExp} drop */
function scrapeWithout(drop) {
  const file = join(mkdtempSync(join(tmpdir(), 'starvation-lab-scrape-')), 'scrape.txt');
  writeFileSync(file, readFileSync(SCRAPE, 'utf8').split('\n').filter((line) => !drop.test(line.replace(/^# (TYPE|HELP) /, ''))).join('\n'));
  return file;
}

describe('the dashboard and the intervals', () => {
  test("the base at kube-prometheus-stack's defaults hides no starvation as long as the plan's phases, at the intervals the experiment measured with",
    onRenders(['base'], (objects) => {
    assert.deepEqual(checkIntervals(objects, {}), []);
    const { scrapes, groups, queries } = effectiveIntervals(objects, {});
    assert.equal(MEASURED, 1, 'PrometheusServer.INTERVAL, read from its source');
    for (const s of [...scrapes, ...groups]) assert.equal(seconds(s.interval), MEASURED, s.where);
    assert.ok(queries.filter((q) => q.rate).length >= 16, 'the rate queries');
    // docs/alerts.md: the experiment runs the dashboard's queries with $__rate_interval = 4 s, as Grafana does here
    for (const q of queries) assert.deepEqual([q.step, q.rate ? q.rateInterval : 4 * MEASURED], [MEASURED, 4 * MEASURED], q.where);
    const found = dashboards(objects);
    assert.equal(found.length, 1);
    assert.deepEqual(checkDashboard(found[0].dashboard, README), [], 'well-formed, on the variables, and the README names only its panels');
    assert.match(checkDashboard(found[0].dashboard, 'See **Carrier heat map**.').join('\n'), /names "Carrier heat map", which is no panel/);
  }));

  test("the stack's own defaults, and Grafana's $__rate_interval as its Prometheus backend computes it", () => {
    assert.deepEqual(stackIntervals({}), { scrape: '30s', evaluation: '30s', dataSource: '30s' });
    assert.deepEqual(stackIntervals({ 'prometheus.prometheusSpec.scrapeInterval': '10s' }), { scrape: '10s', evaluation: '30s', dataSource: '10s' });
    assert.equal(stackIntervals({ 'grafana.sidecar.datasources.defaultDatasourceScrapeInterval': '5s' }).dataSource, '5s');
    assert.deepEqual([seconds('1s'), seconds('2m'), seconds('1m30s'), seconds('500ms')], [1, 120, 90, 0.5]);
    // pkg/promlib/models/query_test.go TestCalculateRateInterval: a 30s scrape term and a 60s interval give 120s, a 100s one 130s
    assert.equal(grafanaQuery({ interval: '60s' }, { interval: '30s' }, '15s').rateInterval, 120);
    assert.equal(grafanaQuery({ interval: '100s' }, { interval: '30s' }, '15s').rateInterval, 130);
  });
});

describe('alert rules', () => {
  test('promtool check rules accepts the rendered rules, and its unit tests pass: each alert fires on a starving series, stays quiet on a healthy one',
    onRenders(['base'], (objects, t) => {
    const tool = requireTool(t, 'promtool');
    if (!tool) return;
    for (const what of /** @type {const} */ (['check', 'test'])) {
      const result = promtool(tool, objects, what);
      assert.ok(result.ok, result.output);
    }
    const unitTests = parse(readFileSync(UNIT_TESTS, 'utf8')).tests;
    for (const alert of alertsOf(objects)) {
      // quiet: a pod with series the alert reads in a test where it fires, which none of its firing alerts names (promtool's list is exact)
      const quietPods = unitTests.flatMap((/** @type {any} */ u) => {
        const fired = u.alert_rule_test.filter((/** @type {any} */ c) => c.alertname === alert.alert).flatMap((/** @type {any} */ c) => c.exp_alerts ?? []);
        const pods = new Set(u.input_series.filter((/** @type {any} */ s) => alert.expr.includes(s.series.split('{')[0]))
          .map((/** @type {any} */ s) => /pod="([^"]+)"/.exec(s.series)?.[1]).filter(Boolean));
        return fired.length === 0 ? [] : [...pods].filter((pod) => !fired.some((/** @type {any} */ a) => a.exp_labels?.pod === pod));
      });
      assert.ok(unitTests.some((/** @type {any} */ u) => u.alert_rule_test.some((/** @type {any} */ c) => c.alertname === alert.alert
        && c.exp_alerts?.length > 0)), `${alert.alert} never fires in a unit test`);
      assert.ok(quietPods.length > 0, `${alert.alert} is never shown quiet on a healthy pod beside a firing one`);
    }
  }));

  test('on a plain scrape (job and instance alone) every alert fires once per instance and renders no empty label; every aggregation keeps job and instance',
    onRenders(['base'], (objects) => {
    assert.deepEqual(checkPerInstance(expressionsOf(objects)), []);
    // promtool matches each expected alert's labels and annotations exactly (the test above runs it), so these are what the rules render
    const unitTests = parse(readFileSync(UNIT_TESTS, 'utf8')).tests;
    const plain = unitTests.filter((/** @type {any} */ u) => u.input_series.every((/** @type {any} */ s) => CLUSTER_LABELS.every((l) => !s.series.includes(`${l}=`))));
    for (const { alert } of alertsOf(objects)) {
      const fired = plain.flatMap((/** @type {any} */ u) => u.alert_rule_test.filter((/** @type {any} */ c) => c.alertname === alert && c.exp_alerts?.length));
      assert.ok(fired.length > 0, `${alert} never fires in a unit test of a plain scrape`);
      for (const { exp_alerts: expected } of fired) {
        assert.equal(new Set(expected.map((/** @type {any} */ a) => a.exp_labels.instance)).size, 2, `${alert}: one alert for each of two instances`);
        assert.equal(new Set(expected.map((/** @type {any} */ a) => a.exp_labels.job)).size, 1, `${alert}: of one job`);
        for (const { exp_labels: labels, exp_annotations: text } of expected) {
          assert.ok(text.summary.includes(`${labels.job} at ${labels.instance}`), `${alert}: the summary names ${labels.job} at ${labels.instance}`);
        }
      }
    }
    for (const u of unitTests) {
      for (const c of u.alert_rule_test) {
        for (const [key, text] of (c.exp_alerts ?? []).flatMap((/** @type {any} */ a) => Object.entries(a.exp_annotations ?? {}))) {
          assert.deepEqual(emptyLabels(text), [], `${c.alertname} ${key} in "${u.name}"`);
        }
      }
    }
  }));

  test('every alert links its runbook by an absolute URL, names nothing only the lab has where it claims any service, and the docs show the PromQL it runs',
    onRenders(['base'], (objects) => {
    // GitHub's heading anchors of docs/runbook.md's "## Alerts": lower case, punctuation dropped, spaces to hyphens
    const runbook = readFileSync(join(REPO, 'docs/runbook.md'), 'utf8').split(/^## /m).find((s) => s.startsWith('Alerts\n')) ?? '';
    const anchors = new Set([...runbook.matchAll(/^### (.*?)\s*$/gm)].map((m) => m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')));
    const alerts = alertsOf(objects);
    assert.ok(alerts.length >= 5);
    // the file as it is, as a plain Prometheus and the experiment load it: the render must not be what makes the links absolute
    assert.deepEqual(alertsOf([parse(readFileSync(RULES, 'utf8'))]), alerts, 'the render is the file');
    for (const { alert, expr, annotations: { summary, description, runbook_url: url } = {}, labels } of alerts) {
      assert.ok(summary && description && url && labels?.severity, `${alert}: summary, description, runbook_url and severity`);
      // Alertmanager and Grafana link it as is
      const [, anchor] = /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/blob\/main\/docs\/runbook\.md#(.+)$/.exec(url) ?? [];
      assert.ok(anchor, `${alert}: runbook_url ${url} is no absolute link to the repository's docs/runbook.md`);
      assert.ok(anchors.has(anchor), `${alert}: ${url} is no subsection of docs/runbook.md's "## Alerts" (${[...anchors].join(', ')})`);
      if (onAnyService({ expr })) {
        assert.doesNotMatch(`${summary}\n${description}`, /\/lab\/|kubectl|port-forward|lab-(un)?pinned|LAB_|Starvation Lab/, `${alert} names what only the lab has`);
      }
    }
    assert.equal(new Set(alerts.map((a) => a.annotations.runbook_url.split('#')[0])).size, 1, 'one runbook');
    assert.deepEqual(alerts.filter(onAnyService).map((a) => a.alert), ['CarrierStarvation', 'CarrierStall'], 'the rules on the meter alone');
    // the PromQL the docs show is what the rules and the dashboard run
    const bare = (/** @type {string} */ promql) => promql.replace(/\s+/g, '');
    const run = expressionsOf(objects).map(({ expr }) => bare(expr));
    for (const doc of ['observability.md', 'alerts.md', 'runbook.md']) {
      const blocks = [...readFileSync(join(REPO, 'docs', doc), 'utf8').matchAll(/^\s*```promql\n([\s\S]*?)^\s*```/gm)].map((m) => m[1]);
      assert.ok(blocks.length > 0, `docs/${doc} shows the PromQL it means`);
      for (const block of blocks) assert.ok(run.some((expr) => expr.includes(bare(block))), `docs/${doc}: no rule or dashboard query runs ${block}`);
    }
  }));
});

describe('metric names (checks/metric-names.mjs)', () => {
  test('the rendered base reads only metrics the packaged service exports, in a live scrape', onRenders(['base'], (objects, t) => {
    if (!existsSync(LIVE_SCRAPE)) return missing(t, `no live scrape at ${LIVE_SCRAPE} (the service's ObservabilityIT writes it, earlier in ./mvnw verify)`);
    return assert.deepEqual(namesIn(LIVE_SCRAPE, objects).problems, []);
  }));

  test('the rendered base reads only metrics the service exports; a JDK 21 scrape before any pinned episode passes through the allow-list, '
    + 'which names only metrics the rules and the dashboard read', onRenders(['base'], (objects) => {
    assert.deepEqual(namesIn(SCRAPE, objects).problems, []);
    const jdk21 = namesIn(scrapeWithout(new RegExp(`^(${Object.keys(MAY_BE_ABSENT).join('|')})\\b`)), objects);
    assert.deepEqual(jdk21.problems, []);
    assert.deepEqual([...jdk21.absentAllowed].sort(), Object.keys(MAY_BE_ABSENT).sort(), 'each allowed absence is read, and passes');
  }));
});

describe('broken fixtures fail', () => {
  const cases = [
    ['prometheusrule-group-without-interval', new RegExp('group starvation-lab\\.carriers CarrierStall: evaluated every 30s \\(kube-prometheus-stack '
      + '\\(prometheusSpec\\.evaluationInterval\\)\\): a starvation of 4 s .* leaves its shortest window \\[15s\\] 11 s before the next evaluation')],
    ['servicemonitor-scrape-5s', /endpoint http: scraped every 5s \(the endpoint\): a starvation of 4 s .* can fall between two scrapes/],
    // today's dashboard: a panel Min interval of 1 s, no query interval
    ['dashboard-query-without-interval', /panel "Canary: wait for a carrier \(p99, p50\)" A: \$__rate_interval is at least 120 s \(.*data source's 30s/],
    ['dashboard-panel-without-min-interval', /panel "Canary: wait for a carrier \(p99, p50\)" A: \$__rate_interval is at least 31 s \(.* from the query\)/],
    ['dashboard-without-intervals', /panel "Canary: current stall" A: a step of at least 30 s: it can step over a starvation of 4 s/],
    ['dashboard-malformed', [/"Canary: current stall" overlaps/, /does not use \$\{datasource\}/, /ignores \$namespace/]],
  ];
  for (const [name, messages] of cases) {
    test(`broken/${name}.yaml`, onRenders(['base'], (objects) => {
      const broken = brokenRender(name, objects);
      const violations = [...checkIntervals(broken, {}), ...checkDashboard(dashboards(broken)[0].dashboard, README)].join('\n');
      for (const message of [messages].flat()) assert.match(violations, message);
      if (name === 'prometheusrule-group-without-interval') {
        assert.deepEqual(checkIntervals(broken, { 'prometheus.prometheusSpec.evaluationInterval': '1s' }), [], 'the install can fix it');
      }
    }));
  }

  test('promtool refuses a broken expression, and the unit tests catch an alert that no longer fires (threshold raised)', onRenders(['base'], (objects, t) => {
    const tool = requireTool(t, 'promtool');
    if (!tool) return;
    const broken = promtool(tool, fixture('prometheusrule-broken-promql.yaml'), 'check');
    assert.equal(broken.ok, false, broken.output);
    assert.match(broken.output, /parse error|unexpected/i);
    const starvation = alertsOf(objects).find((/** @type {any} */ a) => a.alert === 'CarrierStarvation');
    starvation.expr = String(starvation.expr).replaceAll(/> 0\.[15]\b/g, '> 100');
    const quiet = promtool(tool, objects, 'test');
    assert.equal(quiet.ok, false, quiet.output);
    assert.match(quiet.output, /CarrierStarvation/);
  }));

  test('the checks catch an alert that merges the instances of a job or renders an empty label on a plain scrape', onRenders(['base'], (objects, t) => {
    // the texts the first release rendered on a plain scrape
    for (const text of ['New virtual threads on  wait 524.9ms', 'No carrier was free for 524.9ms on .', '(kubectl -n  port-forward pod/ 8080)']) {
      assert.notDeepEqual(emptyLabels(text), [], text);
    }
    const merged = structuredClone(objects);
    const stall = alertsOf(merged).find((/** @type {any} */ a) => a.alert === 'CarrierStall');
    stall.expr = String(stall.expr).replace('job, instance, ', 'job, ');
    assert.match(checkPerInstance(expressionsOf(merged)).join('\n'), /alert CarrierStall: by \(job, namespace, service, pod\) merges the instances of a job/);
    const empty = structuredClone(objects);
    const starvation = alertsOf(empty).find((/** @type {any} */ a) => a.alert === 'CarrierStarvation');
    // the same text where the target has a pod, "(pod /)" where it has none
    const summary = String(starvation.annotations.summary);
    starvation.annotations.summary = summary.replace(/\{\{ with \$labels\.pod \}\}.*?\)\{\{ end \}\}/, ' (pod {{ $labels.namespace }}/{{ $labels.pod }})');
    assert.notEqual(starvation.annotations.summary, summary);
    const tool = requireTool(t, 'promtool');
    if (!tool) return;
    for (const [broken, alert] of /** @type {const} */ ([[merged, 'CarrierStall'], [empty, 'CarrierStarvation']])) {
      const result = promtool(tool, broken, 'test');
      assert.equal(result.ok, false, result.output);
      assert.match(result.output, new RegExp(`name: plain scrape: [^\\n]*\\n\\s*alertname: ${alert},`), result.output);
    }
  }));

  const nameCases = [
    ['prometheusrule-unknown-metric.yaml', [/unknown metric virtual_threads_carrier_wait_seconds_buckets \(used by PrometheusRule .* alert CarrierStarvation\)/]],
    ['dashboard-unknown-metric.yaml', [/unknown metric jvm_threads_virtual_mounted/, /http_server_requests_seconds_bucket has no label "url"/, /grouping label "url"/,
      /unknown metric lab_info \(used by .* variable \$namespace\)/]],
    ['prometheusrule-broken-promql.yaml', [/cannot parse/]],
  ];
  for (const [name, messages] of nameCases) {
    test(`metric names of fixtures/${name}`, () => {
      const { problems } = namesIn(SCRAPE, fixture(name));
      for (const message of messages) assert.match(problems.join('\n'), message);
    });
  }
});
