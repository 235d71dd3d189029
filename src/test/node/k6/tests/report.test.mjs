// handleSummary on k6 2.x summary data: summary.json, report.md and stdout, with the verdict per
// target, probe p50/p99/max per target and phase, error rates, throughput and /lab/info facts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fakeService, JDK21_INFO, JDK25_INFO } from '../harness/fake-service.mjs';
import { fixture, plan, STARVATION, TWO_TARGETS } from '../harness/paths.mjs';
import { loadScript } from '../harness/runtime.mjs';
import { summaryFixture, traceMetricReads } from '../harness/summary-fixture.mjs';
import { starvationModel } from '../harness/value-models.mjs';

const ENDPOINTS = plan().probes.endpoints;
/** The plan's load window with two targets (the phase named like PINNED_MODE): throughput is requests / it. */
const LOAD_SECONDS = plan().phases.find((/** @type {any} */ p) => p.name === 'pinned').seconds;
/** @param {number} requests */
const throughput = (requests) => (requests / LOAD_SECONDS).toFixed(1).replace('.', '\\.');
const PINNED_STARVES = starvationModel({ starving: (target, phase) => target === 'pinned' && phase === 'load', overloaded: 12 });

/**
 * @param {string} path
 * @param {{ env?: Record<string, string>, info?: Record<string, unknown> }} [settings]
 */
async function script(path, settings = {}) {
  return loadScript(path, { env: settings.env || {}, transport: fakeService({ info: settings.info || JDK21_INFO }) });
}

/**
 * What a report must state, as problems: one verdict per load, numeric p50/p99/max for every
 * probe row, the /lab/info facts of every target.
 *
 * @param {string} markdown
 * @param {import('../harness/runtime.mjs').LoadedScript} loaded
 */
function reportProblems(markdown, loaded) {
  const problems = [];
  const loads = Object.entries(loaded.options.scenarios).filter(([, s]) => s.exec === 'load');
  const verdicts = markdown.split('\n').filter((l) => /^- \S.*: (STARVED|HELD|SKIPPED|NO DATA)/.test(l));
  if (verdicts.length !== loads.length) {
    problems.push(`${verdicts.length} verdict lines for ${loads.length} loads`);
  }
  const rows = markdown.split('\n').filter((l) => /^\| \S+ \| \S+ \| \/(probe|q)\//.test(l));
  for (const row of rows) {
    const cells = row.split('|').map((c) => c.trim());
    if (!cells.slice(4, 7).every((c) => /^\d+(\.\d)?$/.test(c))) {
      problems.push(`probe row without p50/p99/max: ${row}`);
    }
  }
  if (rows.length === 0) {
    problems.push('no probe rows');
  }
  if (/\| n\/a \| n\/a \| n\/a \| n\/a/.test(markdown)) {
    problems.push('a target without /lab/info facts');
  }
  return problems;
}

test('two targets, pinned starving on JDK 21: verdicts, facts, latency, errors and throughput', async () => {
  const loaded = await script(STARVATION, { env: TWO_TARGETS });
  const data = summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: PINNED_STARVES });
  const files = loaded.handleSummary(data);
  assert.deepEqual(Object.keys(files).sort(), ['report.md', 'stdout', 'summary.json']);
  const md = files['report.md'];
  assert.deepEqual(reportProblems(md, loaded), []);
  assert.match(md, /^- pinned: STARVED, as expected under \/work\/pinned: \/probe\/virtual p99 1893 ms ≥ 200 ms \(baseline 7\.5 ms\)\. Synchronized pins on this JVM \(synchronizedPins=true\)\.$/m);
  assert.match(md, /^- unpinned: HELD, as expected under \/work\/unpinned: \/probe\/virtual p99 7\.5 ms < 200 ms/m);
  assert.match(md, /\| pinned \| http:\/\/lab-pinned:8080 \| 21\.0\.9 \(Eclipse Adoptium\) \| 4 \| 4 \/ 256 \| 2 \| true \| false \|/);
  assert.match(md, /\| pinned \| load \| \/probe\/virtual \| 1413 \| 1893 \| 2210 \| 100 \|/);
  assert.match(md, /\| pinned \| load \| \/probe\/worker \| 1\.8 \| 7\.5 \| 15 \| 100 \|/);
  assert.match(md, /\| unpinned \| baseline \| \/q\/health\/live \| 1\.8 \| 7\.5 \| 15 \| 60 \|/);
  assert.match(md, new RegExp(`\\| pinned \\| load \\| \`\\/work\\/pinned\\?ms=100&downstream=sleep&lock=private\` \\| 64 VUs \\| 408 \\| ${throughput(408)} \\| 1503 \\| 1689 \\| 2\\.9% of 420 \\| 0\\.0% of 420 \\|`));
  assert.match(md, /\| unpinned \| load \| 0\.0% of 400 \| 0\.0% of 6280 \| 0\.0% of 6280 \|/);
  assert.match(md, /Thresholds: 29 of 29 as expected/);
  assert.match(md, /- ✓ `http_req_duration\{probe:virtual,target:pinned,phase:load\}`: `p\(99\)>=200`/);
  for (const probe of Object.keys(ENDPOINTS)) {
    assert.match(md, new RegExp(`\\| unpinned \\| load \\| ${ENDPOINTS[probe].replace(/\//g, '\\/')} \\|`));
  }
  assert.match(files.stdout, /^ {2}pinned: STARVED, as expected/m);
  assert.match(files.stdout, /^ {2}pinned {4}Java 21\.0\.9, 4 processors, 4 carriers, synchronizedPins=true/m);
  assert.match(files.stdout, /thresholds: 29 as expected, 0 not/);
  assert.match(files.stdout, /files: summary\.json, report\.md/);
  const json = JSON.parse(files['summary.json']);
  assert.deepEqual(Object.keys(json.metrics).sort(), Object.keys(data.metrics).sort());
  assert.deepEqual(json.setup_data, data.setup_data);
  assert.deepEqual(json.starvationLab.verdicts.map((/** @type {any} */ v) => [v.target, v.expected, v.observed]),
    [['pinned', 'starve', 'starved'], ['unpinned', 'hold', 'held']]);
});

test('REPORT_DIR puts summary.json and report.md in that folder', async () => {
  for (const [dir, prefix] of [['/reports', '/reports/'], ['/reports/', '/reports/'], ['out', 'out/'], ['.', '']]) {
    const loaded = await script(STARVATION, { env: { ...TWO_TARGETS, REPORT_DIR: dir } });
    const files = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: PINNED_STARVES }));
    assert.deepEqual(Object.keys(files).sort(), [`${prefix}report.md`, `${prefix}summary.json`, 'stdout'].sort());
  }
});

test('a pinned target that holds when /lab/info says it pins is reported, with the failed threshold', async () => {
  const loaded = await script(STARVATION, { env: TWO_TARGETS });
  const data = summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: starvationModel({ starving: () => false }) });
  const files = loaded.handleSummary(data);
  assert.match(files['report.md'], /^- pinned: HELD, starvation expected under \/work\/pinned/m);
  assert.match(files['report.md'], /- ✗ `http_req_duration\{probe:virtual,target:pinned,phase:load\}`: `p\(99\)>=200`/);
  assert.match(files.stdout, /thresholds: 28 as expected, 1 not\n {4}✗ http_req_duration\{probe:virtual,target:pinned,phase:load\}: p\(99\)>=200/);
});

test('BASE_URL on JDK 21: pinned and cpu starve, native is skipped, the rest hold', async () => {
  const loaded = await script(STARVATION, { info: JDK21_INFO });
  const model = starvationModel({ starving: (_t, phase) => ['pinned', 'cpu'].includes(phase), skipped: (_t, phase) => phase.startsWith('native') });
  const files = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model }));
  const md = files['report.md'];
  assert.deepEqual(reportProblems(md, loaded), []);
  assert.match(md, /^- base \/ pinned: STARVED, as expected under \/work\/pinned/m);
  assert.match(md, /^- base \/ cpu: STARVED, as expected under \/work\/cpu/m);
  assert.match(md, /^- base \/ native: SKIPPED under \/work\/native\. Native needs FFM \(JDK 22\+\): this JVM answers 501\.$/m);
  assert.match(md, /^- base \/ native-db: SKIPPED/m);
  for (const phase of ['unpinned', 'reentrant', 'unpinned-db']) {
    assert.match(md, new RegExp(`^- base / ${phase}: HELD, as expected`, 'm'));
  }
  assert.match(md, /Thresholds: 69 of 69 as expected/);
});

test('BASE_URL on JDK 25: pinned holds as expected, native starves as expected', async () => {
  const loaded = await script(STARVATION, { info: JDK25_INFO });
  const model = starvationModel({ starving: (_t, phase) => ['native', 'native-db', 'cpu'].includes(phase) });
  const md = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model }))['report.md'];
  assert.match(md, /^- base \/ pinned: HELD, as expected under \/work\/pinned: .* Synchronized does not pin on this JVM/m);
  assert.match(md, /^- base \/ native: STARVED, as expected under \/work\/native: .* The wait inside an FFM upcall pins its carrier/m);
  assert.match(md, /^- base \/ native-db: STARVED, as expected/m);
});

test('the committed k6 2.x summary fixture renders the full report', async () => {
  const data = JSON.parse(readFileSync(fixture('summary-two-targets-jdk21.json'), 'utf8'));
  const loaded = await script(STARVATION, { env: TWO_TARGETS });
  const files = loaded.handleSummary(data);
  assert.deepEqual(reportProblems(files['report.md'], loaded), []);
  assert.match(files['report.md'], /^- pinned: STARVED, as expected/m);
  assert.match(files['report.md'], /^- unpinned: HELD, as expected/m);
  assert.match(files['report.md'], /Run time: 16\.2 s\. Thresholds: 29 of 29 as expected\./);
  assert.match(files['report.md'], new RegExp(`\\| pinned \\| load \\| \`\\/work\\/pinned\\?ms=100&downstream=sleep&lock=private\` \\| 64 VUs \\| 405 \\| ${throughput(405)} \\|`));
});

test('without the optional sub-metrics (k6 --no-thresholds) the report says so instead of failing', async () => {
  const loaded = await script(STARVATION, { env: TWO_TARGETS });
  const data = summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: PINNED_STARVES, thresholds: false });
  assert.ok(!Object.keys(data.metrics).some((k) => k.includes('probe:')));
  const files = loaded.handleSummary(data);
  assert.match(files['report.md'], /^- pinned: NO DATA under \/work\/pinned\./m);
  assert.match(files['report.md'], /No probe sub-metrics in the summary: k6 creates them only for thresholds/);
  assert.match(files['report.md'], /\| pinned \| load \| \/probe\/virtual \| n\/a \| n\/a \| n\/a \| n\/a \|/);
  assert.match(files['report.md'], /Thresholds: 0 of 0 as expected/);
  assert.match(files['report.md'], /\| pinned \| http:\/\/lab-pinned:8080 \| 21\.0\.9/);
});

test('without setup data the verdict states what was seen, without an expectation to compare', async () => {
  const loaded = await script(STARVATION, { env: TWO_TARGETS });
  const files = loaded.handleSummary(summaryFixture(loaded.options, loaded, { model: PINNED_STARVES }));
  assert.match(files['report.md'], /^- pinned: STARVED under \/work\/pinned: .* No \/lab\/info facts for this target\.$/m);
  assert.match(files['report.md'], /^- unpinned: HELD, as expected/m);
  assert.match(files['report.md'], /\| pinned \| http:\/\/lab-pinned:8080 \| n\/a \|/);
});

test('the machine-readable summary shape gets a note on how to get the full report', async () => {
  const data = JSON.parse(readFileSync(fixture('summary-machine-readable.json'), 'utf8'));
  const loaded = await script(STARVATION, { env: TWO_TARGETS });
  const files = loaded.handleSummary(data);
  assert.match(files['report.md'], /--new-machine-readable-summary=false/);
  assert.match(files['report.md'], /\| pinned \| load \| `\/work\/pinned\?ms=100&downstream=sleep&lock=private` \| 64 VUs \| 405 \|/);
  assert.match(files.stdout, /Note: This summary came in k6's machine-readable shape/);
});

test('dropped probe iterations are reported: the latencies are then a lower bound', async () => {
  const loaded = await script(STARVATION, { env: TWO_TARGETS });
  const model = starvationModel({ starving: (t, p) => t === 'pinned' && p === 'load', dropped: 37 });
  const md = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model }))['report.md'];
  assert.match(md, /k6 dropped 37 iterations: every probe VU was busy \(raise PROBE_MAX_VUS\)/);
});

for (const [name, env] of [['two targets', TWO_TARGETS], ['BASE_URL', {}]]) {
  test(`every sub-metric the report reads is named by a threshold, so k6 puts it in the summary (${name})`, async () => {
    const loaded = await script(STARVATION, { env });
    const traced = traceMetricReads(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: PINNED_STARVES }));
    loaded.handleSummary(traced.data);
    assert.deepEqual([...traced.missing], []);
    const probeKeys = [...traced.read].filter((k) => k.includes('probe:'));
    assert.ok(probeKeys.length > 0 && probeKeys.every((k) => k in loaded.options.thresholds));
  });
}

test('the report check refuses fixtures/broken-trend-stats.js (no p(99) in the summary)', async () => {
  const loaded = await script(fixture('broken-trend-stats.js'));
  const md = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: PINNED_STARVES }))['report.md'];
  const problems = reportProblems(md, loaded);
  assert.ok(problems.some((p) => /probe row without p50\/p99\/max/.test(p)), JSON.stringify(problems));
});

test('the sub-metric check refuses fixtures/broken-unthresholded.js (report reads an unthresholded sub-metric)', async () => {
  const loaded = await script(fixture('broken-unthresholded.js'));
  const traced = traceMetricReads(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: PINNED_STARVES }));
  loaded.handleSummary(traced.data);
  assert.deepEqual([...traced.missing], ['http_req_duration{probe:virtual,target:base,phase:baseline}']);
});
