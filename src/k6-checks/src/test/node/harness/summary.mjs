// handleSummary data as k6 2.x builds it (internal/js/summary.go, its default shape): options, state,
// setup_data and metrics[name] = { type, contains, values, thresholds? }, with trend values for the
// summaryTrendStats only, a tag-filtered sub-metric only where a threshold names it (and none under
// --no-thresholds), and each threshold's { ok } from evaluating its expression, as k6 does at the end
// of the run. The values come from a model of the run the test describes (starvationModel).

/**
 * @typedef {{ p50: number, p99: number, max: number, count: number }} TrendShape
 * @typedef {(name: string, tags: Record<string, string>, type: string) =>
 *   { trend?: TrendShape, count?: number, rate?: { passes: number, fails: number } } | undefined} ValueModel
 */

import { buildLayout } from '../../../../../../k6/lib-layout.js';
import { buildOwnLayout } from '../../../../../../k6/lib-own-service.js';
import { fakeService, JDK21_INFO } from './fake-service.mjs';
import { OWN_SERVICE, PLAN, STARVATION } from './paths.mjs';
import { loadScript } from './runtime.mjs';

/** The built-in metrics the thresholds name, by type (k6's metrics/builtin.go). */
const BUILTIN = { http_req_duration: 'trend', dropped_iterations: 'counter' };
const DURATION_MS = 45000;

function values(type, raw, stats) {
  if (type === 'trend') {
    return Object.fromEntries(stats.map((stat) => [stat, trendStat(raw.trend, stat)]));
  }
  if (type === 'counter') {
    return { count: raw.count || 0, rate: (raw.count || 0) / (DURATION_MS / 1000) };
  }
  const { passes, fails } = raw.rate || { passes: 0, fails: 0 };
  return { rate: passes + fails > 0 ? passes / (passes + fails) : 0, passes, fails };
}

/**
 * A stat of a trend whose shape is given by p50, p99, max and count (k6 reports 0s when empty).
 */
function trendStat(trend, stat) {
  if (!trend || trend.count === 0) {
    return 0;
  }
  const min = trend.p50 * 0.4;
  const p = Number(/^p\((.+)\)$/.exec(stat)?.[1]);
  const fixed = { min, med: trend.p50, max: trend.max, avg: (trend.p50 * 3 + trend.p99) / 4, count: trend.count };
  if (stat in fixed) {
    return fixed[/** @type {keyof typeof fixed} */ (stat)];
  }
  return p <= 50 ? min + ((trend.p50 - min) * p) / 50 : p <= 99 ? trend.p50 + ((trend.p99 - trend.p50) * (p - 50)) / 49 : trend.p99 + (trend.max - trend.p99) * (p - 99);
}

/**
 * Whether a threshold expression (aggregation, operator, number: metrics/thresholds_parser.go) holds.
 *
 * @param {(stat: string) => number} stat the metric's value of an aggregation
 */
function holds(expression, stat) {
  const [, aggregation, operator, number] = /** @type {RegExpExecArray} */ (/^([a-z]+|p\([\d.]+\))(<=|<|>=|>|==|!=)(-?[\d.]+)$/.exec(expression));
  const left = stat(aggregation);
  const right = Number(number);
  return { '<': left < right, '<=': left <= right, '>': left > right, '>=': left >= right, '==': left === right, '!=': left !== right }[operator];
}

/**
 * Plausible measurements: a probe or a work request is slow exactly in the windows `world` says
 * starve, the rest look like a healthy service. Every probe sends its rate x the window's seconds,
 * spread evenly over the event loops that serve it; under starvation the starved rule's probe's event loop
 * n waits about 700 + 200 n ms at the median, and 30 % of its probes wait over 1 s, 10 % over 3 s.
 *
 * @param {import('../../../../../../k6/lib-layout.js').Layout} layout the run's layout
 * @param {{ starving: (target: string, phase: string) => boolean,
 *           skipped?: (target: string, phase: string) => boolean, collapsing?: (target: string, phase: string) => boolean,
 *           overloaded?: number, dropped?: Record<string, number>, eventLoops?: string[],
 *           sent?: (target: string, phase: string, probe: string) => number | undefined,
 *           shunned?: (target: string, phase: string, probe: string) => string[],
 *           slowProbe?: (target: string, phase: string, probe: string) => number | undefined }} world
 *   skipped: windows whose work does not run; collapsing: starving windows whose work completes 4 requests;
 *   overloaded: 503s of a starving window; dropped: iterations k6 dropped, per scenario; eventLoops: the
 *   event_loop tags that serve probes (default 0 to 7); sent: probes sent instead of the planned ones;
 *   shunned: event loops that answer only one of the probe's answers; slowProbe: a p99 in ms
 * @returns {ValueModel}
 */
export function starvationModel(layout, world) {
  const served = world.eventLoops || ['0', '1', '2', '3', '4', '5', '6', '7'];
  const seconds = (/** @type {string} */ phase) => {
    const window = layout.windows.find((w) => w.name === phase);
    return window ? window.end - window.start : 0;
  };
  const sent = (tags) => {
    const override = world.sent ? world.sent(tags.target, tags.phase, tags.probe) : undefined;
    const rate = (layout.probes.find((p) => p.probe === tags.probe) || { rate: 0 }).rate;
    return override !== undefined ? override : Math.round(rate * seconds(tags.phase));
  };
  /** The answers of one event loop: the rest spread evenly, a shunned loop answers one; health checks name none. */
  const answersOf = (/** @type {Record<string, string>} */ tags) => {
    const shunned = world.shunned ? world.shunned(tags.target, tags.phase, tags.probe) : [];
    if (tags.probe === 'health-live' || !served.includes(tags.event_loop)) {
      return 0;
    }
    if (shunned.includes(tags.event_loop)) {
      return 1;
    }
    const others = served.filter((l) => !shunned.includes(l));
    const rest = sent(tags) - shunned.filter((l) => served.includes(l)).length;
    return Math.floor(rest / others.length) + (others.indexOf(tags.event_loop) < rest % others.length ? 1 : 0);
  };
  return (name, tags) => {
    const inWindow = tags.target !== undefined && tags.phase !== undefined;
    const starving = inWindow && world.starving(tags.target, tags.phase);
    const idle = inWindow && world.skipped !== undefined && world.skipped(tags.target, tags.phase);
    const slow = starving && tags.probe === layout.rules.starved.probe;
    if (name === 'http_req_duration' && tags.probe !== undefined) {
      const p99 = world.slowProbe ? world.slowProbe(tags.target, tags.phase, tags.probe) : undefined;
      return { trend: slow ? { p50: 1412.6, p99: 1893.2, max: 2210.4, count: sent(tags) }
        : { p50: 1.84, p99: p99 !== undefined ? p99 : 7.46, max: p99 !== undefined ? p99 * 1.1 : 14.9, count: sent(tags) } };
    }
    if (name === 'probe_wait' && tags.event_loop !== undefined) {
      const loop = /^\d+$/.test(tags.event_loop) ? Number(tags.event_loop) : 8;
      return { trend: slow ? { p50: 700 + 200 * loop, p99: 2000 + 20 * loop, max: 2210.4, count: answersOf(tags) }
        : { p50: 1.84, p99: 7.46, max: 14.9, count: answersOf(tags) } };
    }
    const over = /^probe_over_(\d+)s$/.exec(name);
    if (over && tags.probe !== undefined) {
      const share = !slow ? 0 : over[1] === '1' ? 0.3 : 0.1;
      const total = tags.event_loop === undefined ? sent(tags) : answersOf(tags);
      return { rate: { passes: Math.round(share * total), fails: total - Math.round(share * total) } };
    }
    if (name === 'probe_errors' && tags.probe !== undefined) {
      return { rate: { passes: 0, fails: sent(tags) } };
    }
    if (name === 'http_req_duration' && tags.kind === 'work') {
      return { trend: idle ? { p50: 0, p99: 0, max: 0, count: 0 }
        : starving ? { p50: 1503.2, p99: 1688.7, max: 1804.1, count: 240 } : { p50: 101.3, p99: 118.2, max: 131.6, count: 3000 } };
    }
    const collapsing = starving && world.collapsing !== undefined && world.collapsing(tags.target, tags.phase);
    const requests = idle ? 0 : collapsing ? 4 : starving ? 240 : 3000;
    const overloaded = starving ? world.overloaded || 0 : 0;
    if (name === 'work_completed' && tags.phase !== undefined) {
      return { count: requests - overloaded };
    }
    if (name === 'work_overloaded' && tags.phase !== undefined) {
      return { rate: { passes: overloaded, fails: requests - overloaded } };
    }
    if (name === 'work_errors' && tags.phase !== undefined) {
      return { rate: { passes: 0, fails: requests } };
    }
    if (name === 'dropped_iterations') {
      return { count: tags.scenario !== undefined && world.dropped ? world.dropped[tags.scenario] || 0 : 0 };
    }
    return undefined;
  };
}

/**
 * The report of a run whose world the test describes (`adjust` changes the model's values), with the
 * sub-metrics it looked up in vain: one the report reads must be named by a threshold, or k6 leaves it out.
 *
 * @param {{ env?: Record<string, string>, info?: Record<string, unknown>, setup?: boolean, thresholds?: boolean, path?: string,
 *           transport?: import('./runtime.mjs').Transport }} settings
 * @param {(model: ValueModel) => ValueModel} [adjust]
 */
export async function report(settings, world, adjust = (model) => model) {
  const env = settings.env || {};
  const path = settings.path || STARVATION;
  const loaded = await loadScript(path, { env, transport: settings.transport || fakeService({ info: settings.info || JDK21_INFO }) });
  const model = adjust(starvationModel((path === OWN_SERVICE ? buildOwnLayout : buildLayout)(env, PLAN), world));
  const stats = loaded.options.summaryTrendStats;
  const thresholds = settings.thresholds === false ? {} : loaded.options.thresholds;
  const types = { ...BUILTIN };
  loaded.ctx.metrics.forEach((m, name) => { types[name] = m.type; });
  const all = {};
  for (const key of [...Object.keys(types), ...Object.keys(thresholds)]) {
    const [, name, tagList] = /** @type {RegExpExecArray} */ (/^([^{]+)(?:\{(.*)\})?$/.exec(key));
    const tags = Object.fromEntries((tagList ? tagList.split(',') : []).map((t) => t.split(':')));
    const raw = model(name, tags, types[name]) || {};
    const summary = values(types[name], raw, stats);
    const stat = (/** @type {string} */ s) => (types[name] === 'trend' ? trendStat(raw.trend, s) : summary[s]);
    all[key] = { type: types[name], contains: types[name] === 'trend' ? 'time' : 'default', values: summary,
      thresholds: thresholds[key] && Object.fromEntries(thresholds[key].map((/** @type {any} */ t) => [t.threshold, { ok: holds(t.threshold, stat) }])) };
  }
  const data = { options: { summaryTrendStats: stats }, state: { testRunDurationMs: DURATION_MS }, metrics: all,
    setup_data: settings.setup === false ? undefined : loaded.setup() };
  const missing = new Set();
  const metrics = new Proxy(data.metrics, {
    get: (target, key) => (typeof key === 'string' && key.includes('{') && !(key in target) && missing.add(key), target[/** @type {string} */ (key)]),
  });
  const files = /** @type {Record<string, string>} */ (loaded.module.handleSummary({ ...data, metrics }));
  const file = (/** @type {string} */ name) => files[Object.keys(files).find((k) => k.endsWith(name)) || ''];
  return { loaded, data, files, missing, md: file('report.md'), json: JSON.parse(file('summary.json')),
    thresholds: Object.values(loaded.options.thresholds).flat().length };
}
