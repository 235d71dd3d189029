// Writes fixtures/summary-*.json: handleSummary data as k6 2.x hands it over, for a two-target
// run on JDK 21 where the pinned target starves (legacy shape, the default) and for the same run
// exported in the opt-in machine-readable shape. Rerun after changing the threshold layout:
//   npm run fixtures

import { writeFileSync } from 'node:fs';
import { fixture, plan, STARVATION, TWO_TARGETS } from './paths.mjs';
import { fakeService, JDK21_INFO } from './fake-service.mjs';
import { loadScript } from './runtime.mjs';
import { summaryFixture } from './summary-fixture.mjs';
import { starvationModel } from './value-models.mjs';
import { buildLayout } from '../../../../../../k6/lib-config.js';

/** Measured-looking numbers: the fixtures' world, every probe, phase and target a little different. */
function realisticModel() {
  let seed = 7;
  const jitter = () => {
    seed = (seed * 16807) % 2147483647;
    return 0.85 + (seed / 2147483647) * 0.3;
  };
  const world = starvationModel(buildLayout(TWO_TARGETS, plan()),
    { starving: (target, phase) => target === 'pinned' && phase === 'load', overloaded: 12 });
  /** @type {import('./summary-fixture.mjs').ValueModel} */
  const model = (name, tags, type) => {
    const values = world(name, tags, type);
    if (values && values.trend && values.trend.count > 0 && name !== 'iteration_duration') {
      const p50 = values.trend.p50 * jitter();
      const p99 = Math.max(p50, values.trend.p99 * jitter());
      return { trend: { ...values.trend, p50, p99, max: Math.max(p99, values.trend.max) } };
    }
    return values;
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
  metadata: { generatedAt: '2026-12-01T10:00:00Z', k6Version: '2.2.0' },
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
