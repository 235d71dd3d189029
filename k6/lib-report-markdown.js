// report.md from the report's model (lib-report-model.js), section by section.

import { RECORDED } from './lib-report-model.js';
import { distribution, fact, ms, pct, spreadSentence, verdictSentence } from './lib-report-words.js';
import { endpointOf, statOf } from './lib-rules.js';
import { SLOW_PROBE_SECONDS } from './lib-thresholds.js';

/** @typedef {import('./lib-report-model.js').Model} Model */

/**
 * @param {Model} model
 */
export function renderMarkdown(model) {
  return [
    ...header(model),
    ...section('Verdict', verdicts(model)),
    ...section('The JVMs (/lab/info)', jvms(model)),
    ...section('Probe wait (ms)', distributions('probe', model.probes, (row) => row.probe)),
    ...section('Answers per event loop', answersPerEventLoop(model)),
    ...section(`${endpointOf(model.rules.starved)} per event loop (ms)`, starvedPerEventLoop(model)),
    ...section('Work', work(model)),
    ...section('Error rates', errorRates(model)),
    ...section('Thresholds', thresholds(model)),
  ].join('\n');
}

/** @param {string} title @param {string[]} lines */
function section(title, lines) {
  return [`## ${title}`, '', ...lines, ''];
}

/** What ran, the rules, how long, and how many thresholds went as expected. @param {Model} model */
function header(model) {
  const rules = model.rules;
  return ['# Starvation Lab: k6 report', '', {
    'two-targets': `Two targets side by side under the same load: ${model.targets.map((t) => `**${t.name}** ${t.url}`).join(', ')}.`,
    'one-target': `One target, ${model.targets[0].url}: the plan's default-JVM phases one after another.`,
    'own-service': `Your service, ${model.targets[0].url}: your load after a baseline, watching ${model.watched.join(', ')}.`,
  }[model.layout] || '',
  `The rules (plan.json): ${rules.starved.text}; ${rules.untouched.text}; ${rules.eventLoops.text}. `
    + `Run time: ${model.runSeconds === undefined ? 'n/a' : `${model.runSeconds.toFixed(1)} s`}. `
    + `Thresholds: ${model.thresholds.filter((t) => t.ok).length} of ${model.thresholds.length} as expected.`, ''];
}

/** @param {Model} model */
function verdicts(model) {
  return [...model.verdicts.map((verdict) => `- ${verdictSentence(verdict, model)}`), ...model.notes.map((note) => `- Note: ${note}`)];
}

/** @param {Model} model */
function jvms(model) {
  return ['| target | URL | Java | processors | carriers (parallelism / max pool) | LockingMode | synchronized pins | native pin | virtual pollers | permits | pool max | event loops |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...model.targets.map((target) => {
      const f = model.facts[target.name];
      return f
        ? `| ${target.name} | ${target.url} | ${fact(f.javaVersion)} (${fact(f.javaVendor)}) | ${fact(f.availableProcessors)} | `
          + `${fact(f.carrierParallelism)} / ${fact(f.carrierMaxPoolSize)} | ${fact(f.lockingMode)} | ${fact(f.synchronizedPins)} | `
          + `${fact(f.nativePinAvailable)} | ${fact(f.virtualPollers)} | ${fact(f.downstreamPermits)} ${fact(f.permits)} | ${fact(f.poolMaxSize)} | ${fact(f.eventLoops)} |`
        : `| ${target.name} | ${target.url} | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a |`;
    })];
}

/**
 * A table of wait distributions, one row per target, phase and `column`.
 *
 * @template {{ target: string, phase: string, latency: import('./lib-report-model.js').Latency | undefined,
 *              over: import('./lib-report-model.js').Over }} Row
 * @param {string} column
 * @param {Row[]} rows
 * @param {(row: Row) => string} nameOf the row's `column`
 */
function distributions(column, rows, nameOf) {
  const overHeads = SLOW_PROBE_SECONDS.map((s) => `over ${s} s`);
  return [`| target | phase | ${column} | p10 | p50 | p90 | p99 | max | ${overHeads.join(' | ')} | requests |`,
    `|---|---|---|---:|---:|---:|---:|---:|${overHeads.map(() => '---:|').join('')}---:|`,
    ...rows.map((row) => `| ${row.target} | ${row.phase} | ${nameOf(row)} | ${distribution(row.latency, row.over).join(' | ')} |`)];
}

/** Every probe's answers counted per event loop, judged by the plan's rule. @param {Model} model */
function answersPerEventLoop(model) {
  const intro = ['Each probe opens a connection of its own, the service deals connections out over its event loops in turn, and the '
    + `endpoints take turns so that each reaches every event loop: ${model.rules.eventLoops.text}. Probes whose answers name no event loop `
    + '(the health checks) are not counted.', ''];
  const counted = model.coverage.filter((c) => c.total > 0);
  if (counted.length === 0) {
    return [...intro, 'No probe answer named its event loop.'];
  }
  const tags = Object.keys(counted[0].answers);
  return [...intro, `| target | phase | probe | ${tags.join(' | ')} | at least | even |`, `|---|---|---|${tags.map(() => '---:|').join('')}---:|---|`,
    ...counted.map((c) => `| ${c.target} | ${c.window} | ${c.probe} | ${tags.map((t) => String(c.answers[t])).join(' | ')} | `
      + `${c.leastAnswers === undefined ? 'n/a' : c.leastAnswers.toFixed(1)} | ${c.even === null ? 'not judged' : c.even ? 'yes' : `**no**: ${c.short.join(', ')}`} |`)];
}

/** The starved rule's probe's wait per event loop it came through. @param {Model} model */
function starvedPerEventLoop(model) {
  const intro = ['A virtual thread reaches the carriers through the queue of the event loop that accepted its connection: '
    + 'the rows show how the wait differs with the event loop a probe came through.', ''];
  if (model.eventLoops.length === 0) {
    return [...intro, 'No probe answer named its event loop.'];
  }
  return [...intro, ...model.eventLoopSpread.map((s) => `- ${spreadSentence(s)}.`), '',
    ...distributions('event loop', model.eventLoops, (row) => row.eventLoop)];
}

/** @param {Model} model */
function work(model) {
  return ['| target | phase | request | load | completed | per second | p50 ms | p99 ms | 503 (overloaded) | errors |',
    '|---|---|---|---|---:|---:|---:|---:|---:|---:|',
    ...model.work.map((row) => {
      const l = row.latency;
      return `| ${row.target} | ${row.phase} | \`${row.request}\` | ${row.load} | ${row.completed === undefined ? 'n/a' : row.completed} | `
        + `${row.perSecond === undefined ? 'n/a' : row.perSecond.toFixed(1)} | ${ms(l && l.p50)} | ${ms(l && l.p99)} | ${pct(row.overloaded)} | ${pct(row.workErrors)} |`;
    })];
}

/** @param {Model} model */
function errorRates(model) {
  return ['| target | phase | probe errors | work 503 (overloaded) | work errors |', '|---|---|---:|---:|---:|',
    ...model.errors.map((row) => `| ${row.target} | ${row.phase} | ${pct(row.probeErrors)} | `
      + `${row.overloaded === undefined && row.phase === 'baseline' ? '-' : pct(row.overloaded)} | `
      + `${row.workErrors === undefined && row.phase === 'baseline' ? '-' : pct(row.workErrors)} |`)];
}

/** What each kind of threshold states, then every judging one; those that only record are counted. @param {Model} model */
function thresholds(model) {
  const rules = model.rules;
  const judging = model.thresholds.filter((t) => !RECORDED.test(t.expression));
  const stat = statOf(rules.starved.percentile);
  return ['Each threshold states the expected outcome, so ✓ means "as expected": '
    + `\`${stat}>=${rules.starved.minimumMillis}\` and \`${stat}<${rules.starved.minimumMillis}\` ${endpointOf(rules.starved)} starving `
    + 'or not by the starved rule\'s floor (a threshold cannot see the baseline: the verdict above applies the whole rule), '
    + `\`${statOf(rules.untouched.percentile)}<${rules.untouched.maximumMillis}\` the untouched rule, \`rate<0.01\` answers within the contract. `
    + `${model.thresholds.length - judging.length} more (\`max>=0\`, \`rate>=0\`, \`count>=0\`) record values for this report.`, '',
  ...judging.map((t) => `- ${t.ok ? '✓' : '✗'} \`${t.metric}\`: \`${t.expression}\``)];
}
