// Writes fixtures/summary-*.json: handleSummary data as k6 2.x hands it over, for a two-target
// run on JDK 21 where the pinned target starves (legacy shape, the default) and for the same run
// exported in the opt-in machine-readable shape. Rerun after changing the threshold layout:
//   npm run fixtures

import { writeFileSync } from 'node:fs';
import { fixture, STARVATION, TWO_TARGETS } from './paths.mjs';
import { fakeService, JDK21_INFO } from './fake-service.mjs';
import { loadScript } from './runtime.mjs';
import { summaryFixture } from './summary-fixture.mjs';

/** Measured-looking numbers: every probe, phase and target a little different. */
function realisticModel() {
  let seed = 7;
  const jitter = () => {
    seed = (seed * 16807) % 2147483647;
    return 0.85 + (seed / 2147483647) * 0.3;
  };
  /** @type {import('./summary-fixture.mjs').ValueModel} */
  const model = (name, tags, type) => {
    const starving = tags.target === 'pinned' && tags.phase === 'load';
    if (name === 'http_req_duration' && tags.probe) {
      const slow = starving && tags.probe === 'virtual';
      const p50 = slow ? 1387.4 * jitter() : 1.6 * jitter();
      return { trend: { p50, p99: slow ? 1952.8 * jitter() : 6.9 * jitter(), max: slow ? 2231.5 : 18.4 * jitter(),
        count: tags.phase === 'baseline' ? 60 : 100 } };
    }
    if (name === 'probe_wait' && tags.event_loop !== undefined) {
      // Every event loop but 'other' served about an eighth of the probes; under starvation some waited far longer.
      const loop = Number(tags.event_loop);
      const count = tags.event_loop === 'other' ? 0 : loop < 4 ? 13 : 12;
      const slow = starving && tags.probe === 'virtual';
      const p50 = slow ? (loop % 3 === 0 ? 2915.2 : 1104.7) * jitter() : 1.6 * jitter();
      return { trend: { p50, p99: slow ? p50 * 1.4 : 6.9 * jitter(), max: slow ? p50 * 1.5 : 18.4, count } };
    }
    const over = /^probe_over_(\d+)s$/.exec(name);
    if (over && tags.probe) {
      const total = tags.event_loop === undefined ? (tags.phase === 'baseline' ? 60 : 100) : tags.event_loop === 'other' ? 0 : 12;
      const slow = starving && tags.probe === 'virtual';
      const passes = !slow ? 0 : over[1] === '1' ? Math.round(total * 0.82) : Math.round(total * 0.31);
      return { rate: { passes, fails: total - passes } };
    }
    if (name === 'http_req_duration' && tags.kind === 'work') {
      return { trend: starving ? { p50: 1498.3, p99: 1702.6, max: 1811.9, count: 412 } : { p50: 100.9, p99: 117.4, max: 139.2, count: 6251 } };
    }
    if (name === 'work_completed') {
      return { count: starving ? 405 : 6251 };
    }
    if (name === 'work_overloaded') {
      return { rate: starving ? { passes: 7, fails: 405 } : { passes: 0, fails: 6251 } };
    }
    if (name === 'work_errors') {
      return { rate: starving ? { passes: 0, fails: 412 } : { passes: 0, fails: 6251 } };
    }
    if (name === 'probe_errors') {
      return { rate: { passes: 0, fails: tags.phase === 'baseline' ? 240 : 400 } };
    }
    if (name === 'dropped_iterations') {
      return { count: 0 };
    }
    if (type === 'trend') {
      const whole = ['http_req_duration', 'http_req_waiting', 'iteration_duration'].includes(name);
      return { trend: whole ? { p50: 3.4, p99: 1688.1, max: 2231.5, count: 7743 } : { p50: 0.011, p99: 0.412, max: 3.06, count: 7743 } };
    }
    if (type === 'counter') {
      return { count: name.startsWith('data_') ? 2791044 : 7743 };
    }
    if (type === 'rate') {
      return { rate: { passes: name === 'http_req_failed' ? 0 : 7743, fails: name === 'http_req_failed' ? 7743 : 0 } };
    }
    return { gauge: name === 'vus' ? 0 : 172 };
  };
  return model;
}

const script = await loadScript(STARVATION, { env: TWO_TARGETS, transport: fakeService({ info: JDK21_INFO }) });
const data = summaryFixture(script.options, script, { setupData: script.setup(), model: realisticModel(), durationMs: 16214.6 });
writeFileSync(fixture('summary-two-targets-jdk21.json'), `${JSON.stringify(data, null, 2)}\n`);

// The same run in k6's machine-readable shape (--new-machine-readable-summary): no p(99), no
// thresholds, no setup data (internal/lib/summary/machine_readable.go).
const machineReadable = {
  version: '1.0.0',
  metadata: { generatedAt: '2026-11-30T10:00:00Z', k6Version: '2.3.0' },
  config: { duration: 16.2146, execution: 'local', script: 'starvation.js' },
  results: {
    checks: { metrics: [], results: [] },
    metrics: Object.entries(data.metrics).map(([name, metric]) => ({
      name, type: metric.type, contains: metric.contains,
      values: metric.type === 'rate'
        ? { rate: metric.values.rate, matches: metric.values.passes, total: metric.values.passes + metric.values.fails }
        : metric.type === 'trend'
          ? Object.fromEntries(['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'].map((s) => [s, metric.values[s]]))
          : metric.type === 'counter' ? { count: metric.values.count } : metric.values,
    })),
  },
};
writeFileSync(fixture('summary-machine-readable.json'), `${JSON.stringify(machineReadable, null, 2)}\n`);
console.log('wrote fixtures/summary-two-targets-jdk21.json and fixtures/summary-machine-readable.json');
