// handleSummary on k6 2.x summary data: summary.json, report.md and stdout, with the verdict per
// window by the plan's rules against the JVM's prediction, whether the probes were all sent and
// came evenly through the event loops, the probe distribution per target and phase and, for the
// rule's probe, per event loop, error rates, throughput and /lab/info facts. Summary data a real
// run does not produce on demand (a JVM that pins, a collapse, dropped probes, an event loop not
// reached, an older service) comes from fixtures.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JDK21_INFO, JDK25_INFO } from '../harness/fake-service.mjs';
import { fixture, PLAN, TWO_TARGETS } from '../harness/paths.mjs';
import { report } from '../harness/summary.mjs';

const ENDPOINTS = PLAN.probes.endpoints;
const BOUND = PLAN.untouched.maximumMillis;

/**
 * What a report must state, as problems: one verdict per load, numeric p10/p50/p90/p99/max for
 * every probe row, the /lab/info facts of every target.
 */
function reportProblems(markdown, loaded) {
  const problems = [];
  const loads = Object.entries(loaded.options.scenarios).filter(([, s]) => s.exec === 'load');
  const verdicts = markdown.split('\n').filter((l) => /^- \S.*: (STARVES|COLLAPSES|FREE|SKIPPED|NO DATA)/.test(l));
  if (verdicts.length !== loads.length) {
    problems.push(`${verdicts.length} verdict lines for ${loads.length} loads`);
  }
  const rows = markdown.split('\n').filter((l) => /^\| \S+ \| \S+ \| \/(probe|q)\//.test(l));
  problems.push(...rows.filter((row) => !row.split('|').map((c) => c.trim()).slice(4, 9).every((c) => /^\d+(\.\d)?$/.test(c)))
    .map((row) => `probe row without p10/p50/p90/p99/max: ${row}`));
  if (rows.length === 0) {
    problems.push('no probe rows');
  }
  if (/\| n\/a \| n\/a \| n\/a \| n\/a/.test(markdown)) {
    problems.push('a target without /lab/info facts');
  }
  return problems;
}

const PINNED_STARVES = { starving: (/** @type {string} */ target, /** @type {string} */ phase) => target === 'pinned' && phase === 'load', overloaded: 12 };

test('two targets, pinned starving on JDK 21: verdicts, facts, latency, event loops, errors and throughput', async () => {
  const { loaded, data, files, md, json, thresholds, missing } = await report({ env: TWO_TARGETS }, PINNED_STARVES);
  assert.deepEqual(Object.keys(files).sort(), ['report.md', 'stdout', 'summary.json']);
  assert.deepEqual(reportProblems(md, loaded), []);
  assert.deepEqual([...missing], [], 'every sub-metric the report reads is named by a threshold, so k6 puts it in the summary');
  assert.deepEqual(md.split('\n').filter((l) => l.startsWith('#')), ['# Starvation Lab: k6 report', '## Verdict', '## The JVMs (/lab/info)',
    '## Probe wait (ms)', '## Answers per event loop', '## /probe/virtual per event loop (ms)', '## Work', '## Error rates', '## Thresholds']);
  assert.doesNotMatch(md, /[^\n]\n#|^#.*\n(?!\n)/m, 'a blank line before and after each heading');
  assert.match(md, new RegExp(`^The rules \\(plan\\.json\\): starved when /probe/virtual's p50 is at least 20x its baseline on the same JVM and at least 50 ms; `
    + `untouched when the worker, event-loop and health-live probes keep their p99 under ${BOUND} ms; every event loop answers at least a quarter of its even part `
    + 'of each probe\'s answers\\.', 'm'));
  assert.match(md, /^- pinned: STARVES, as predicted under \/work\/pinned \(sleep\): \/probe\/virtual p50 1413 ms ≥ 50 ms \(20x its baseline 1\.8 ms, at least 50 ms\); 38\.0\/s \(carrier model 40\.0\/s\)\. Synchronized pins on this JVM \(synchronizedPins=true\)\. Untouched \(p99\): worker 7\.5, event-loop 7\.5, health-live 7\.5 ms\. Probes: 450 sent in the window of 450 planned, none dropped; every event loop reached evenly by virtual, worker, event-loop\.$/m);
  assert.match(md, /^- unpinned: FREE, as predicted under \/work\/unpinned \(sleep\): \/probe\/virtual p50 1\.8 ms < 50 ms .*; 500\.0\/s\. A blocked virtual thread unmounts\./m);
  assert.match(md, /\| pinned \| http:\/\/lab-pinned:8080 \| 21\.0\.9 \(Eclipse Adoptium\) \| 4 \| 4 \/ 256 \| 2 \| true \| false \| false \| .* \| 64 \| 8 \|$/m);
  assert.match(md, /^\| target \| phase \| probe \| p10 \| p50 \| p90 \| p99 \| max \| over 1 s \| over 3 s \| requests \|$/m);
  assert.match(md, /\| pinned \| load \| \/probe\/virtual \| 735 \| 1413 \| 1805 \| 1893 \| 2210 \| 30\.0% \| 10\.0% \| 270 \|/);
  assert.match(md, /\| pinned \| load \| \/probe\/worker \| 1\.0 \| 1\.8 \| 6\.4 \| 7\.5 \| 15 \| 0\.0% \| 0\.0% \| 60 \|/);
  assert.match(md, /\| unpinned \| baseline \| \/q\/health\/live \| 1\.0 \| 1\.8 \| 6\.4 \| 7\.5 \| 15 \| 0\.0% \| 0\.0% \| 20 \|/);
  // every probe's answers per event loop; the health checks name none
  assert.match(md, /^\| target \| phase \| probe \| 0 \| 1 \| 2 \| 3 \| 4 \| 5 \| 6 \| 7 \| other \| at least \| even \|$/m);
  assert.match(md, /^\| pinned \| load \| virtual \| 34 \| 34 \| 34 \| 34 \| 34 \| 34 \| 33 \| 33 \| 0 \| 8\.4 \| yes \|$/m);
  assert.match(md, /^\| unpinned \| baseline \| worker \| 3 \| 3 \| 3 \| 3 \| 2 \| 2 \| 2 \| 2 \| 0 \| 0\.6 \| yes \|$/m);
  assert.doesNotMatch(md, /^\| \S+ \| \S+ \| health-live \|/m);
  assert.match(md, /^- pinned \/ load: 8 of 8 event loops sampled; p50 from 700 ms \(event loop 0\) to 2100 ms \(event loop 7\)\.$/m);
  assert.match(md, /^\| pinned \| load \| 0 \| 364 \| 700 \| 1761 \| 2000 \| 2210 \| 29\.4% \| 8\.8% \| 34 \|$/m);
  assert.equal(md.split('\n').filter((l) => /^\| (pinned|unpinned) \| load \| (\d|other) \|/.test(l)).length, 16);
  // 228 completed over the plan's load window with two targets (the phase named like PINNED_MODE)
  const perSecond = (228 / PLAN.phases.find((/** @type {any} */ p) => p.name === 'pinned').seconds).toFixed(1).replace('.', '\\.');
  assert.match(md, new RegExp(`\\| pinned \\| load \\| \`\\/work\\/pinned\\?ms=100&downstream=sleep&lock=private\` \\| 64 VUs \\| 228 \\| ${perSecond} \\| 1503 \\| 1689 \\| 5\\.0% of 240 \\| 0\\.0% of 240 \\|`));
  assert.match(md, /\| unpinned \| load \| 0\.0% of 450 \| 0\.0% of 3000 \| 0\.0% of 3000 \|/);
  assert.match(md, /^\| pinned \| baseline \| 0\.0% of 150 \| - \| - \|$/m, 'no work in the baseline');
  assert.match(md, new RegExp(`Thresholds: ${thresholds} of ${thresholds} as expected`));
  assert.match(md, /- ✓ `http_req_duration\{probe:virtual,target:pinned,phase:load\}`: `med>=50`/);
  assert.match(md, new RegExp(`- ✓ \`http_req_duration\\{probe:worker,target:pinned,phase:load\\}\`: \`p\\(99\\)<${BOUND}\``));
  assert.doesNotMatch(md, /^- ✓ .*`(max|rate|count)>=0`$/m);
  for (const probe of Object.keys(ENDPOINTS)) {
    assert.match(md, new RegExp(`\\| unpinned \\| load \\| ${ENDPOINTS[probe].replace(/\//g, '\\/')} \\|`));
  }
  assert.match(files.stdout, /^ {2}pinned: STARVES, as predicted/m);
  assert.match(files.stdout, /^ {2}pinned {4}Java 21\.0\.9, 4 processors, 4 carriers, synchronizedPins=true, nativePinAvailable=false, virtualPollers=false, 8 event loops$/m);
  assert.match(files.stdout, /^ {2}pinned \/ load: 8 of 8 event loops sampled; p50 from 700 ms \(event loop 0\) to 2100 ms \(event loop 7\)$/m);
  assert.match(files.stdout, new RegExp(`thresholds: ${thresholds} as expected, 0 not`));
  assert.match(files.stdout, /files: summary\.json, report\.md/);
  assert.deepEqual(Object.keys(json.metrics).sort(), Object.keys(data.metrics).sort());
  assert.deepEqual(json.setup_data, data.setup_data);
  assert.deepEqual(json.starvationLab.verdicts.map((/** @type {any} */ v) => [v.target, v.expected, v.observed, v.agrees, v.statistic, v.sampling.complete]),
    [['pinned', 'starves', 'starves', true, 'p50', true], ['unpinned', 'free', 'free', true, 'p50', true]]);
  assert.deepEqual(json.starvationLab.rules.starved, { text: 'starved when /probe/virtual\'s p50 is at least 20x its baseline on the same JVM and at least 50 ms',
    probe: 'virtual', percentile: 50, baselineFactor: 20, minimumMillis: 50 });
  assert.equal(json.starvationLab.eventLoops.length, 16);
  assert.ok(json.starvationLab.coverage.filter((/** @type {any} */ c) => c.probe !== 'health-live').every((/** @type {any} */ c) => c.even === true));
  assert.ok(json.starvationLab.coverage.filter((/** @type {any} */ c) => c.probe === 'health-live').every((/** @type {any} */ c) => c.even === null));
});

test('REPORT_DIR puts summary.json and report.md in that folder', async () => {
  for (const [dir, prefix] of [['/reports', '/reports/'], ['/reports/', '/reports/'], ['out', 'out/'], ['.', '']]) {
    const { files } = await report({ env: { ...TWO_TARGETS, REPORT_DIR: dir } }, PINNED_STARVES);
    assert.deepEqual(Object.keys(files).sort(), [`${prefix}report.md`, `${prefix}summary.json`, 'stdout'].sort());
  }
});

test('a pinned target that holds when /lab/info says it pins is reported, with the failed threshold; the verdict applies the whole rule', async () => {
  const { md, files, thresholds } = await report({ env: TWO_TARGETS }, { starving: () => false });
  assert.match(md, /^- pinned: FREE, predicted starves under \/work\/pinned/m);
  assert.match(md, /- ✗ `http_req_duration\{probe:virtual,target:pinned,phase:load\}`: `med>=50`/);
  assert.match(files.stdout, new RegExp(`thresholds: ${thresholds - 1} as expected, 1 not\\n {4}✗ http_req_duration\\{probe:virtual,target:pinned,phase:load\\}: med>=50`));
  // 80 ms during the load is over the floor (the threshold med>=50 passes) but under 20x a 5 ms baseline.
  const floorOnly = await report({ env: TWO_TARGETS }, { starving: () => false }, (model) => (name, tags, type) =>
    (name === 'http_req_duration' && tags.probe === 'virtual' && tags.target === 'pinned'
      ? { trend: tags.phase === 'baseline' ? { p50: 5, p99: 9, max: 12, count: 90 } : { p50: 80, p99: 120, max: 150, count: 270 } }
      : model(name, tags, type)));
  assert.match(floorOnly.md, /^- pinned: FREE, predicted starves under \/work\/pinned \(sleep\): \/probe\/virtual p50 80 ms < 100 ms \(20x its baseline 5\.0 ms, at least 50 ms\)/m);
  assert.match(floorOnly.md, /- ✓ `http_req_duration\{probe:virtual,target:pinned,phase:load\}`: `med>=50`/);
});

test('BASE_URL on JDK 21: pinned and cpu starve, native is skipped (501), the rest are free, all as predicted', async () => {
  const { loaded, md, json, thresholds, missing } = await report({ info: JDK21_INFO },
    { starving: (_t, phase) => ['pinned', 'cpu'].includes(phase), skipped: (_t, phase) => phase.startsWith('native') });
  assert.deepEqual(reportProblems(md, loaded), []);
  assert.deepEqual([...missing], [], 'every sub-metric the report reads is named by a threshold, so k6 puts it in the summary');
  assert.match(md, /^- base \/ pinned: STARVES, as predicted under \/work\/pinned/m);
  assert.match(md, /^- base \/ cpu: STARVES, as predicted under \/work\/cpu .*Untouched \(p99\): worker 7\.5 \(recorded: the work shares its threads\)/m);
  assert.match(md, /^- base \/ native: SKIPPED \(501\), as predicted under \/work\/native\. Native needs FFM \(JDK 22\+\): this JVM answers 501\.$/m);
  assert.match(md, /^- base \/ native-db: SKIPPED \(501\), as predicted/m);
  for (const phase of ['unpinned', 'reentrant', 'unpinned-db']) {
    assert.match(md, new RegExp(`^- base / ${phase}: FREE, as predicted`, 'm'));
  }
  assert.match(md, new RegExp(`Thresholds: ${thresholds} of ${thresholds} as expected`));
  assert.ok(json.starvationLab.verdicts.every((/** @type {any} */ v) => v.agrees === true));
  // Seven load windows, eight event loops each.
  assert.equal(md.split('\n').filter((l) => /^\| base \| [a-z-]+ \| \d \|/.test(l)).length, 7 * 8);
});

test('BASE_URL on JDK 25: pinned is free, native starves and native-db collapses, as predicted', async () => {
  const { md, json } = await report({ info: JDK25_INFO },
    { starving: (_t, phase) => ['native', 'native-db', 'cpu'].includes(phase), collapsing: (_t, phase) => phase === 'native-db' });
  assert.match(md, /^- base \/ pinned: FREE, as predicted under \/work\/pinned \(sleep\): .* Synchronized does not pin on this JVM/m);
  assert.match(md, /^- base \/ native: STARVES, as predicted under \/work\/native \(sleep\): .* The wait inside an FFM upcall pins its carrier\./m);
  assert.match(md, /^- base \/ native-db: COLLAPSES, as predicted under \/work\/native \(db\): .*; 0\.7\/s \(carrier model 40\.0\/s\)\. .*the I\/O pollers are virtual threads/m);
  assert.ok(json.starvationLab.verdicts.every((/** @type {any} */ v) => v.agrees === true));
});

test('a load that starves where a collapse is predicted (throughput at the carrier model) disagrees', async () => {
  const { md, json } = await report({ info: JDK25_INFO, env: { PHASES: 'native-db' } }, { starving: (_t, phase) => phase === 'native-db' });
  assert.match(md, /^- base \/ native-db: STARVES, predicted collapses under \/work\/native \(db\): .*; 40\.0\/s \(carrier model 40\.0\/s\)/m);
  assert.deepEqual(json.starvationLab.verdicts.map((/** @type {any} */ v) => [v.expected, v.observed, v.agrees]), [['collapses', 'starves', false]]);
});

test('an untouched probe that is slow under the load is reported TOUCHED, with the failed threshold', async () => {
  const { md } = await report({ env: TWO_TARGETS },
    { ...PINNED_STARVES, slowProbe: (t, p, probe) => (t === 'pinned' && p === 'load' && probe === 'health-live' ? 377 : undefined) });
  assert.match(md, new RegExp(`^- pinned: STARVES, as predicted .* TOUCHED: health-live p99 377 ms ≥ ${BOUND} ms \\(p99: worker 7\\.5, event-loop 7\\.5, health-live 377 ms\\)\\.`, 'm'));
  assert.match(md, new RegExp(`- ✗ \`http_req_duration\\{probe:health-live,target:pinned,phase:load\\}\`: \`p\\(99\\)<${BOUND}\``));
});

test('probes k6 dropped are reported in the verdicts of the target\'s windows (a lower bound); those it started late fall in the window they started in', async () => {
  const { md, json } = await report({ env: TWO_TARGETS }, { ...PINNED_STARVES, dropped: { 'probe-pinned': 37 } });
  assert.match(md, /^- pinned: STARVES, as predicted .* Probes INCOMPLETE: 450 sent in the window of 450 planned, and k6 dropped 37 of this target's probes in the run \(every probe VU busy\): the latencies are a lower bound;/m);
  assert.match(md, /^- unpinned: FREE, as predicted .* Probes: 450 sent in the window of 450 planned, none dropped;/m);
  assert.match(md, /^- Note: k6 dropped 37 probe iterations on pinned: every probe VU was busy; k6 counts them per run, so every window of the target says so in its verdict\.$/m);
  assert.deepEqual(json.starvationLab.verdicts.map((/** @type {any} */ v) => v.sampling), [
    { sent: 450, planned: 450, dropped: 37, complete: false }, { sent: 450, planned: 450, dropped: 0, complete: true }]);
  const late = await report({ env: TWO_TARGETS }, { ...PINNED_STARVES, sent: (t, p, probe) => (t === 'pinned' && p === 'load' && probe === 'virtual' ? 264 : undefined) });
  assert.match(late.md, /^- pinned: STARVES, as predicted .* Probes: 444 sent in the window of 450 planned, none dropped;/m);
  assert.equal(late.json.starvationLab.verdicts[0].sampling.complete, true);
});

test('an event loop that answered fewer than its least share makes the window UNEVEN, in its verdict and in the model', async () => {
  const { md, json } = await report({ env: TWO_TARGETS },
    { ...PINNED_STARVES, shunned: (t, p, probe) => (t === 'pinned' && p === 'load' && probe === 'virtual' ? ['3', '5'] : []) });
  assert.match(md, /^- pinned: STARVES, as predicted .* Probes: 450 sent in the window of 450 planned, none dropped; event loops UNEVEN: virtual reached event loops 3, 5 fewer than 8\.4 times of 270\.$/m);
  assert.match(md, /^\| pinned \| load \| virtual \| 45 \| 45 \| 45 \| 1 \| 45 \| 1 \| 44 \| 44 \| 0 \| 8\.4 \| \*\*no\*\*: 3, 5 \|$/m);
  const pinned = json.starvationLab.verdicts.find((/** @type {any} */ v) => v.target === 'pinned');
  assert.deepEqual(pinned.eventLoops.find((/** @type {any} */ c) => c.probe === 'virtual').short, ['3', '5']);
});

test('without the optional sub-metrics (k6 --no-thresholds), or in another summary shape, the report says so instead of failing', async () => {
  const { loaded, data, files } = await report({ env: TWO_TARGETS, thresholds: false }, PINNED_STARVES);
  assert.ok(!Object.keys(data.metrics).some((k) => k.includes('probe:')));
  assert.match(files['report.md'], /^- pinned: NO DATA under \/work\/pinned\./m);
  assert.match(files['report.md'], /No probe sub-metrics in the summary: k6 creates them only for thresholds/);
  assert.match(files['report.md'], /\| pinned \| load \| \/probe\/virtual \| n\/a \| n\/a \| n\/a \| n\/a \| n\/a \| n\/a \| n\/a \| n\/a \|/);
  assert.match(files['report.md'], /Thresholds: 0 of 0 as expected/);
  assert.match(files['report.md'], /\| pinned \| http:\/\/lab-pinned:8080 \| 21\.0\.9/);
  // k6's --new-machine-readable-summary shape has no data.metrics
  assert.match(loaded.module.handleSummary({ version: '1.0.0', results: { metrics: [] } })['report.md'], /The summary is not k6's default one .*--new-machine-readable-summary/);
});

test('without setup data the verdict states what was seen, without a prediction to compare', async () => {
  const { md } = await report({ env: TWO_TARGETS, setup: false }, PINNED_STARVES);
  assert.match(md, /^- pinned: STARVES under \/work\/pinned \(sleep\): .* No \/lab\/info facts for this target\./m);
  assert.match(md, /^- unpinned: FREE under \/work\/unpinned/m);
  assert.match(md, /\| pinned \| http:\/\/lab-pinned:8080 \| n\/a \|/);
  assert.match(md, /^\| pinned \| load \| virtual \| .* \| not judged \|$/m, 'no event-loop count to judge against');
});

test('answers from event loops past EVENT_LOOPS, a service that does not count its event loops, or answers that name none: the report says so', async () => {
  const past = await report({ env: TWO_TARGETS }, { ...PINNED_STARVES, eventLoops: ['0', '1', '2', '3', '4', '5', '6', '7', 'other'] });
  assert.match(past.md, /^- Note: pinned \/ load: 30 probes came through event loops past EVENT_LOOPS \(8\), counted as 'other': set EVENT_LOOPS to the service's event loops\.$/m);
  assert.match(past.md, /^- pinned \/ load: 8 of 8 event loops sampled/m);
  const uncounted = await report({ env: TWO_TARGETS, info: (({ eventLoops, ...older }) => older)(JDK21_INFO) }, { ...PINNED_STARVES, eventLoops: ['0', '1', '2', '3'] });
  assert.match(uncounted.md, /^- pinned \/ load: 4 event loops sampled; p50 from 700 ms \(event loop 0\) to 1300 ms \(event loop 3\)\.$/m);
  assert.ok(uncounted.json.starvationLab.coverage.every((/** @type {any} */ c) => c.even === null), 'not judged');
  const { md } = await report({ env: TWO_TARGETS }, { ...PINNED_STARVES, eventLoops: [] });
  assert.match(md, /^No probe answer named its event loop\.$/m);
  assert.match(md, /^- Note: No probe answer named its event loop \(eventLoop\): the probes are not broken down by event loop\.$/m);
  assert.match(md, /^- pinned: STARVES, as predicted .* Probes: 450 sent in the window of 450 planned, none dropped; the answers name no event loop\.$/m);
});

test('the report checks refuse fixtures/broken-trend-stats.js (no p(10), no p(99)) and fixtures/broken-unthresholded.js (an unthresholded sub-metric read)', async () => {
  const trendStats = await report({ path: fixture('broken-trend-stats.js') }, PINNED_STARVES);
  const problems = reportProblems(trendStats.md, trendStats.loaded);
  assert.ok(problems.some((p) => /probe row without p10\/p50\/p90\/p99\/max/.test(p)), JSON.stringify(problems));
  const { missing } = await report({ path: fixture('broken-unthresholded.js') }, PINNED_STARVES);
  assert.deepEqual([...missing], ['http_req_duration{probe:virtual,target:base,phase:baseline}']);
});
