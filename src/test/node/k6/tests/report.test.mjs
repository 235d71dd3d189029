// handleSummary on k6 2.x summary data: summary.json, report.md and stdout, with the verdict per
// target by the plan's rule, the probe distribution per target and phase and, for the rule's probe,
// per event loop, error rates, throughput and /lab/info facts.

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
 * What a report must state, as problems: one verdict per load, numeric p10/p50/p90/p99/max for
 * every probe row, the /lab/info facts of every target.
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
    if (!cells.slice(4, 9).every((c) => /^\d+(\.\d)?$/.test(c))) {
      problems.push(`probe row without p10/p50/p90/p99/max: ${row}`);
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
  assert.match(md, /^The rule \(plan\.json\): starved when \/probe\/virtual's p50 is at least 20x its baseline on the same JVM and at least 50 ms\. Probes that must not starve: p99 < 200 ms\./m);
  assert.match(md, /^- pinned: STARVED, as expected under \/work\/pinned: \/probe\/virtual p50 1413 ms ≥ 50 ms \(20x its baseline 1\.8 ms, at least 50 ms\)\. Synchronized pins on this JVM \(synchronizedPins=true\)\.$/m);
  assert.match(md, /^- unpinned: HELD, as expected under \/work\/unpinned: \/probe\/virtual p50 1\.8 ms < 50 ms/m);
  assert.match(md, /\| pinned \| http:\/\/lab-pinned:8080 \| 21\.0\.9 \(Eclipse Adoptium\) \| 4 \| 4 \/ 256 \| 2 \| true \| false \| .* \| 64 \| 8 \|$/m);
  assert.match(md, /^\| target \| phase \| probe \| p10 \| p50 \| p90 \| p99 \| max \| over 1 s \| over 3 s \| requests \|$/m);
  assert.match(md, /\| pinned \| load \| \/probe\/virtual \| 735 \| 1413 \| 1805 \| 1893 \| 2210 \| 30\.0% \| 10\.0% \| 100 \|/);
  assert.match(md, /\| pinned \| load \| \/probe\/worker \| 1\.0 \| 1\.8 \| 6\.4 \| 7\.5 \| 15 \| 0\.0% \| 0\.0% \| 100 \|/);
  assert.match(md, /\| unpinned \| baseline \| \/q\/health\/live \| 1\.0 \| 1\.8 \| 6\.4 \| 7\.5 \| 15 \| 0\.0% \| 0\.0% \| 60 \|/);
  assert.match(md, /^- pinned \/ load: 8 of 8 event loops sampled; p50 from 700 ms \(event loop 0\) to 2100 ms \(event loop 7\)\.$/m);
  assert.match(md, /^\| pinned \| load \| 0 \| 364 \| 700 \| 1761 \| 2000 \| 2210 \| 30\.0% \| 10\.0% \| 13 \|$/m);
  assert.match(md, /^\| pinned \| load \| 7 \| 1092 \| 2100 \| 2133 \| 2140 \| 2210 \| 30\.0% \| 10\.0% \| 12 \|$/m);
  assert.equal(md.split('\n').filter((l) => /^\| (pinned|unpinned) \| load \| (\d|other) \|/.test(l)).length, 16);
  assert.match(md, new RegExp(`\\| pinned \\| load \\| \`\\/work\\/pinned\\?ms=100&downstream=sleep&lock=private\` \\| 64 VUs \\| 408 \\| ${throughput(408)} \\| 1503 \\| 1689 \\| 2\\.9% of 420 \\| 0\\.0% of 420 \\|`));
  assert.match(md, /\| unpinned \| load \| 0\.0% of 400 \| 0\.0% of 6280 \| 0\.0% of 6280 \|/);
  assert.match(md, /Thresholds: 115 of 115 as expected/);
  assert.match(md, /- ✓ `http_req_duration\{probe:virtual,target:pinned,phase:load\}`: `med>=50`/);
  assert.match(md, /- ✓ `http_req_duration\{probe:worker,target:pinned,phase:load\}`: `p\(99\)<200`/);
  assert.match(md, /92 more \(`max>=0`, `rate>=0`, `count>=0`\) record values for this report/);
  assert.doesNotMatch(md, /^- ✓ .*`(max|rate|count)>=0`$/m);
  for (const probe of Object.keys(ENDPOINTS)) {
    assert.match(md, new RegExp(`\\| unpinned \\| load \\| ${ENDPOINTS[probe].replace(/\//g, '\\/')} \\|`));
  }
  assert.match(files.stdout, /^ {2}pinned: STARVED, as expected/m);
  assert.match(files.stdout, /^ {2}pinned {4}Java 21\.0\.9, 4 processors, 4 carriers, synchronizedPins=true/m);
  assert.match(files.stdout, /^ {2}pinned \/ load: 8 of 8 event loops sampled; p50 from 700 ms \(event loop 0\) to 2100 ms \(event loop 7\)$/m);
  assert.match(files.stdout, /thresholds: 115 as expected, 0 not/);
  assert.match(files.stdout, /files: summary\.json, report\.md/);
  const json = JSON.parse(files['summary.json']);
  assert.deepEqual(Object.keys(json.metrics).sort(), Object.keys(data.metrics).sort());
  assert.deepEqual(json.setup_data, data.setup_data);
  assert.deepEqual(json.starvationLab.verdicts.map((/** @type {any} */ v) => [v.target, v.expected, v.observed, v.statistic]),
    [['pinned', 'starve', 'starved', 'p50'], ['unpinned', 'hold', 'held', 'p50']]);
  assert.deepEqual(json.starvationLab.rule, { text: 'starved when /probe/virtual\'s p50 is at least 20x its baseline on the same JVM and at least 50 ms',
    probe: 'virtual', percentile: 50, baselineFactor: 20, minimumMillis: 50 });
  assert.equal(json.starvationLab.eventLoops.length, 16);
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
  assert.match(files['report.md'], /- ✗ `http_req_duration\{probe:virtual,target:pinned,phase:load\}`: `med>=50`/);
  assert.match(files.stdout, /thresholds: 114 as expected, 1 not\n {4}✗ http_req_duration\{probe:virtual,target:pinned,phase:load\}: med>=50/);
});

test('the verdict applies the whole rule where the threshold states only its floor', async () => {
  // 80 ms during the load is over the floor (the threshold med>=50 passes) but under 20x a 5 ms baseline.
  const loaded = await script(STARVATION, { env: TWO_TARGETS });
  const model = starvationModel({ starving: () => false });
  /** @type {import('../harness/summary-fixture.mjs').ValueModel} */
  const slowBaseline = (name, tags, type) => (name === 'http_req_duration' && tags.probe === 'virtual' && tags.target === 'pinned'
    ? { trend: tags.phase === 'baseline' ? { p50: 5, p99: 9, max: 12, count: 60 } : { p50: 80, p99: 120, max: 150, count: 100 } }
    : model(name, tags, type));
  const files = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: slowBaseline }));
  assert.match(files['report.md'], /^- pinned: HELD, starvation expected under \/work\/pinned: \/probe\/virtual p50 80 ms < 100 ms \(20x its baseline 5\.0 ms, at least 50 ms\)/m);
  assert.match(files['report.md'], /- ✓ `http_req_duration\{probe:virtual,target:pinned,phase:load\}`: `med>=50`/);
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
  assert.match(md, /Thresholds: 322 of 322 as expected/);
  // Seven load windows, eight event loops each.
  assert.equal(md.split('\n').filter((l) => /^\| base \| [a-z-]+ \| \d \|/.test(l)).length, 7 * 8);
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
  assert.match(files['report.md'], /Run time: 16\.2 s\. Thresholds: 115 of 115 as expected\./);
  assert.match(files['report.md'], /^- pinned \/ load: 8 of 8 event loops sampled; p50 from \d+ ms \(event loop \d\) to \d+ ms \(event loop \d\)\.$/m);
  assert.match(files['report.md'], new RegExp(`\\| pinned \\| load \\| \`\\/work\\/pinned\\?ms=100&downstream=sleep&lock=private\` \\| 64 VUs \\| 405 \\| ${throughput(405)} \\|`));
});

test('without the optional sub-metrics (k6 --no-thresholds) the report says so instead of failing', async () => {
  const loaded = await script(STARVATION, { env: TWO_TARGETS });
  const data = summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: PINNED_STARVES, thresholds: false });
  assert.ok(!Object.keys(data.metrics).some((k) => k.includes('probe:')));
  const files = loaded.handleSummary(data);
  assert.match(files['report.md'], /^- pinned: NO DATA under \/work\/pinned\./m);
  assert.match(files['report.md'], /No probe sub-metrics in the summary: k6 creates them only for thresholds/);
  assert.match(files['report.md'], /\| pinned \| load \| \/probe\/virtual \| n\/a \| n\/a \| n\/a \| n\/a \| n\/a \| n\/a \| n\/a \| n\/a \|/);
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

test('event loops the probes did not reach, or answers from a loop past EVENT_LOOPS, are reported', async () => {
  const loaded = await script(STARVATION, { env: TWO_TARGETS });
  const model = starvationModel({ starving: (t, p) => t === 'pinned' && p === 'load', eventLoops: ['0', '2', '5', 'other'] });
  const files = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model }));
  const md = files['report.md'];
  assert.match(md, /^- pinned \/ load: 3 of 8 event loops sampled; p50 from 700 ms \(event loop 0\) to 1700 ms \(event loop 5\)\.$/m);
  assert.match(md, /^- Note: pinned \/ load: the probes reached 3 of the 8 event loops\.$/m);
  assert.match(md, /^- Note: pinned \/ load: 25 probes came through event loops past EVENT_LOOPS \(8\), counted as 'other': set EVENT_LOOPS to the service's event loops\.$/m);
  assert.deepEqual(md.split('\n').filter((l) => /^\| pinned \| load \| (\d|other) \|/.test(l)).map((l) => l.split(' | ')[2]), ['0', '2', '5', 'other']);
});

test('a service that does not count its event loops gets no "of N" and no note on the ones not reached', async () => {
  const loaded = await script(STARVATION, { env: TWO_TARGETS, info: (({ eventLoops, ...older }) => older)(JDK21_INFO) });
  const model = starvationModel({ starving: (t, p) => t === 'pinned' && p === 'load', eventLoops: ['0', '1', '2', '3'] });
  const md = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model }))['report.md'];
  assert.match(md, /^- pinned \/ load: 4 event loops sampled; p50 from 700 ms \(event loop 0\) to 1300 ms \(event loop 3\)\.$/m);
  assert.doesNotMatch(md, /reached/);
});

test('a service whose answers name no event loop gets a report that says so', async () => {
  const loaded = await script(STARVATION, { env: TWO_TARGETS });
  const model = starvationModel({ starving: (t, p) => t === 'pinned' && p === 'load', eventLoops: [] });
  const files = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model }));
  assert.match(files['report.md'], /^No probe answer named its event loop\.$/m);
  assert.match(files['report.md'], /^- Note: No probe answer named its event loop \(eventLoop\): the probes are not broken down by event loop\.$/m);
  assert.match(files['report.md'], /^- pinned: STARVED, as expected/m);
  assert.doesNotMatch(files.stdout, /per event loop/);
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

test('the report check refuses fixtures/broken-trend-stats.js (no p(10), no p(99) in the summary)', async () => {
  const loaded = await script(fixture('broken-trend-stats.js'));
  const md = loaded.handleSummary(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: PINNED_STARVES }))['report.md'];
  const problems = reportProblems(md, loaded);
  assert.ok(problems.some((p) => /probe row without p10\/p50\/p90\/p99\/max/.test(p)), JSON.stringify(problems));
});

test('the sub-metric check refuses fixtures/broken-unthresholded.js (report reads an unthresholded sub-metric)', async () => {
  const loaded = await script(fixture('broken-unthresholded.js'));
  const traced = traceMetricReads(summaryFixture(loaded.options, loaded, { setupData: loaded.setup(), model: PINNED_STARVES }));
  loaded.handleSummary(traced.data);
  assert.deepEqual([...traced.missing], ['http_req_duration{probe:virtual,target:base,phase:baseline}']);
});
