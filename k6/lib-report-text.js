// The plain-text summary on stdout, from the report's model (lib-report-model.js).

import { distribution, fact, ms, pct, spreadSentence, verdictSentence } from './lib-report-words.js';
import { endpointOf } from './lib-rules.js';
import { SLOW_PROBE_SECONDS } from './lib-thresholds.js';

/**
 * @param {import('./lib-report-model.js').Model} model
 */
export function renderText(model) {
  const lines = [];
  const failed = model.thresholds.filter((t) => !t.ok);
  lines.push('', `Starvation Lab: ${{ 'two-targets': 'two targets', 'one-target': 'one target, phase after phase',
    'own-service': `your service, watching ${model.watched.join(', ')}` }[model.layout]}, `
    + `${model.rules.starved.text}; ${model.rules.untouched.text}`, '');
  for (const verdict of model.verdicts) {
    lines.push(`  ${verdictSentence(verdict, model)}`);
  }
  for (const note of model.notes) {
    lines.push(`  Note: ${note}`);
  }
  lines.push('');
  for (const target of model.targets) {
    const f = model.facts[target.name];
    lines.push(f
      ? `  ${pad(target.name, 9)} Java ${fact(f.javaVersion)}, ${fact(f.availableProcessors)} processors, `
        + `${fact(f.carrierParallelism)} carriers, synchronizedPins=${fact(f.synchronizedPins)}, nativePinAvailable=${fact(f.nativePinAvailable)}, `
        + `virtualPollers=${fact(f.virtualPollers)}, ${fact(f.eventLoops)} event loops`
      : `  ${pad(target.name, 9)} no /lab/info facts`);
  }
  const columns = ['p10', 'p50', 'p90', 'p99', 'max', ...SLOW_PROBE_SECONDS.map((s) => `>${s}s`), 'n'];
  lines.push('', `  ${pad('probe wait (ms)', 44)}${columns.map((c) => pad(c, 8)).join('')}`);
  for (const row of model.probes) {
    lines.push(`  ${pad(row.target, 9)}${pad(row.phase, 16)}${pad(row.probe, 19)}${distribution(row.latency, row.over).map((c) => pad(c, 8)).join('')}`);
  }
  if (model.eventLoops.length > 0) {
    lines.push('', `  ${endpointOf(model.rules.starved)} per event loop (report.md has each one's distribution, and every probe's answers per event loop)`);
    for (const s of model.eventLoopSpread) {
      lines.push(`  ${spreadSentence(s)}`);
    }
  }
  lines.push('', `  ${pad('work', 25)}${pad('completed', 11)}${pad('per s', 8)}${pad('p99 ms', 9)}${pad('503', 18)}errors`);
  for (const row of model.work) {
    lines.push(`  ${pad(row.target, 9)}${pad(row.phase, 16)}${pad(row.completed === undefined ? 'n/a' : String(row.completed), 11)}`
      + `${pad(row.perSecond === undefined ? 'n/a' : row.perSecond.toFixed(1), 8)}${pad(ms(row.latency && row.latency.p99), 9)}`
      + `${pad(pct(row.overloaded), 18)}${pct(row.workErrors)}`);
  }
  lines.push('', `  thresholds: ${model.thresholds.length - failed.length} as expected, ${failed.length} not`);
  for (const t of failed) {
    lines.push(`    ✗ ${t.metric}: ${t.expression}`);
  }
  return lines.join('\n');
}

/**
 * @param {string} value
 * @param {number} width
 */
function pad(value, width) {
  return value.length >= width ? `${value} ` : value + ' '.repeat(width - value.length);
}
