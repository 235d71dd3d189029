// report.md from the report's model (lib-report-model.js).

import { RECORDED } from './lib-report-model.js';
import { distribution, fact, ms, pct, spreadSentence, verdictSentence } from './lib-report-words.js';
import { endpointOf, statOf } from './lib-rules.js';
import { SLOW_PROBE_SECONDS } from './lib-thresholds.js';

/**
 * @param {import('./lib-report-model.js').Model} model
 */
export function renderMarkdown(model) {
  const lines = [];
  const passed = model.thresholds.filter((t) => t.ok).length;
  const rules = model.rules;
  lines.push('# Starvation Lab: k6 report', '');
  lines.push({
    'two-targets': `Two targets side by side under the same load: ${model.targets.map((t) => `**${t.name}** ${t.url}`).join(', ')}.`,
    'one-target': `One target, ${model.targets[0].url}: the plan's default-JVM phases one after another.`,
    'own-service': `Your service, ${model.targets[0].url}: your load after a baseline, watching ${model.watched.join(', ')}.`,
  }[model.layout] || '');
  lines.push(`The rules (plan.json): ${rules.starved.text}; ${rules.untouched.text}; ${rules.eventLoops.text}. `
    + `Run time: ${model.runSeconds === undefined ? 'n/a' : `${model.runSeconds.toFixed(1)} s`}. `
    + `Thresholds: ${passed} of ${model.thresholds.length} as expected.`, '');

  lines.push('## Verdict', '');
  for (const verdict of model.verdicts) {
    lines.push(`- ${verdictSentence(verdict, model)}`);
  }
  for (const note of model.notes) {
    lines.push(`- Note: ${note}`);
  }
  lines.push('');

  lines.push('## The JVMs (/lab/info)', '');
  lines.push('| target | URL | Java | processors | carriers (parallelism / max pool) | LockingMode | synchronized pins | native pin | virtual pollers | permits | pool max | event loops |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const target of model.targets) {
    const f = model.facts[target.name];
    lines.push(f
      ? `| ${target.name} | ${target.url} | ${fact(f.javaVersion)} (${fact(f.javaVendor)}) | ${fact(f.availableProcessors)} | `
        + `${fact(f.carrierParallelism)} / ${fact(f.carrierMaxPoolSize)} | ${fact(f.lockingMode)} | ${fact(f.synchronizedPins)} | `
        + `${fact(f.nativePinAvailable)} | ${fact(f.virtualPollers)} | ${fact(f.downstreamPermits)} ${fact(f.permits)} | ${fact(f.poolMaxSize)} | ${fact(f.eventLoops)} |`
      : `| ${target.name} | ${target.url} | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a |`);
  }
  lines.push('');

  const overHeads = SLOW_PROBE_SECONDS.map((s) => `over ${s} s`);
  lines.push('## Probe wait (ms)', '');
  lines.push(`| target | phase | probe | p10 | p50 | p90 | p99 | max | ${overHeads.join(' | ')} | requests |`);
  lines.push(`|---|---|---|---:|---:|---:|---:|---:|${overHeads.map(() => '---:|').join('')}---:|`);
  for (const row of model.probes) {
    lines.push(`| ${row.target} | ${row.phase} | ${row.probe} | ${distribution(row.latency, row.over).join(' | ')} |`);
  }
  lines.push('');

  lines.push('## Answers per event loop', '');
  lines.push('Each probe opens a connection of its own, the service deals connections out over its event loops in turn, and the '
    + `endpoints take turns so that each reaches every event loop: ${rules.eventLoops.text}. Probes whose answers name no event loop `
    + '(the health checks) are not counted.', '');
  const counted = model.coverage.filter((c) => c.total > 0);
  if (counted.length === 0) {
    lines.push('No probe answer named its event loop.');
  } else {
    const tags = Object.keys(counted[0].answers);
    lines.push(`| target | phase | probe | ${tags.join(' | ')} | at least | even |`);
    lines.push(`|---|---|---|${tags.map(() => '---:|').join('')}---:|---|`);
    for (const c of counted) {
      lines.push(`| ${c.target} | ${c.window} | ${c.probe} | ${tags.map((t) => String(c.answers[t])).join(' | ')} | `
        + `${c.leastAnswers === undefined ? 'n/a' : c.leastAnswers.toFixed(1)} | ${c.even === null ? 'not judged' : c.even ? 'yes' : `**no**: ${c.short.join(', ')}`} |`);
    }
  }
  lines.push('');

  lines.push(`## ${endpointOf(rules.starved)} per event loop (ms)`, '');
  lines.push('A virtual thread reaches the carriers through the queue of the event loop that accepted its connection: '
    + 'the rows show how the wait differs with the event loop a probe came through.', '');
  if (model.eventLoops.length === 0) {
    lines.push('No probe answer named its event loop.');
  } else {
    for (const s of model.eventLoopSpread) {
      lines.push(`- ${spreadSentence(s)}.`);
    }
    lines.push('', `| target | phase | event loop | p10 | p50 | p90 | p99 | max | ${overHeads.join(' | ')} | requests |`);
    lines.push(`|---|---|---|---:|---:|---:|---:|---:|${overHeads.map(() => '---:|').join('')}---:|`);
    for (const row of model.eventLoops) {
      lines.push(`| ${row.target} | ${row.phase} | ${row.eventLoop} | ${distribution(row.latency, row.over).join(' | ')} |`);
    }
  }
  lines.push('');

  lines.push('## Work', '');
  lines.push('| target | phase | request | load | completed | per second | p50 ms | p99 ms | 503 (overloaded) | errors |');
  lines.push('|---|---|---|---|---:|---:|---:|---:|---:|---:|');
  for (const row of model.work) {
    const l = row.latency;
    lines.push(`| ${row.target} | ${row.phase} | \`${row.request}\` | ${row.load} | ${row.completed === undefined ? 'n/a' : row.completed} | `
      + `${row.perSecond === undefined ? 'n/a' : row.perSecond.toFixed(1)} | ${ms(l && l.p50)} | ${ms(l && l.p99)} | ${pct(row.overloaded)} | ${pct(row.workErrors)} |`);
  }
  lines.push('');

  lines.push('## Error rates', '');
  lines.push('| target | phase | probe errors | work 503 (overloaded) | work errors |');
  lines.push('|---|---|---:|---:|---:|');
  for (const row of model.errors) {
    lines.push(`| ${row.target} | ${row.phase} | ${pct(row.probeErrors)} | ${row.overloaded === undefined && row.phase === 'baseline' ? '-' : pct(row.overloaded)} | `
      + `${row.workErrors === undefined && row.phase === 'baseline' ? '-' : pct(row.workErrors)} |`);
  }
  lines.push('');

  const judging = model.thresholds.filter((t) => !RECORDED.test(t.expression));
  const stat = statOf(rules.starved.percentile);
  lines.push('## Thresholds', '');
  lines.push('Each threshold states the expected outcome, so ✓ means "as expected": '
    + `\`${stat}>=${rules.starved.minimumMillis}\` and \`${stat}<${rules.starved.minimumMillis}\` ${endpointOf(rules.starved)} starving `
    + 'or not by the starved rule\'s floor (a threshold cannot see the baseline: the verdict above applies the whole rule), '
    + `\`${statOf(rules.untouched.percentile)}<${rules.untouched.maximumMillis}\` the untouched rule, \`rate<0.01\` answers within the contract. `
    + `${model.thresholds.length - judging.length} more (\`max>=0\`, \`rate>=0\`, \`count>=0\`) record values for this report.`, '');
  for (const t of judging) {
    lines.push(`- ${t.ok ? '✓' : '✗'} \`${t.metric}\`: \`${t.expression}\``);
  }
  lines.push('');
  return lines.join('\n');
}
