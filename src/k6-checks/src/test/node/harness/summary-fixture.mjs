// Builds handleSummary data the way k6 2.x does (internal/js/summary.go, legacy shape, the
// default): root_group, options, state, setup_data and metrics[name] = { type, contains, values,
// thresholds? }. Trend values hold only the summaryTrendStats columns; a tag-filtered sub-metric
// is there only when a threshold names it (and not at all under --no-thresholds); thresholds
// report { ok } from evaluating the expression, as k6 does at the end of the run.

import { BUILTIN_METRICS, parseMetricKey, parseThreshold } from './k6-grammar.mjs';

const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

/**
 * @typedef {(name: string, tags: Record<string, string>, type: string) =>
 *   { trend?: { p50: number, p99: number, max: number, count: number }, count?: number,
 *     rate?: { passes: number, fails: number }, gauge?: number } | undefined} ValueModel
 */

/**
 * @param {any} options the script's options
 * @param {{ metrics: Map<string, { type: string, contains: string }> }} script
 * @param {{ model: ValueModel, setupData?: unknown, durationMs?: number, thresholds?: boolean }} settings
 */
export function summaryFixture(options, script, settings) {
  const stats = options.summaryTrendStats || DEFAULT_TREND_STATS;
  const durationMs = settings.durationMs || 45000;
  const withThresholds = settings.thresholds !== false;
  /** @type {Record<string, any>} */
  const metrics = {};

  /**
   * @param {string} key
   * @param {string} type
   * @param {string} contains
   */
  const add = (key, type, contains) => {
    const parsed = /** @type {{ name: string, tags: Record<string, string> }} */ (parseMetricKey(key));
    const raw = settings.model(parsed.name, parsed.tags, type) || {};
    metrics[key] = { type, contains, values: values(type, raw, stats, durationMs) };
    const list = withThresholds ? (options.thresholds || {})[key] : undefined;
    if (list) {
      /** @type {Record<string, { ok: boolean }>} */
      const results = {};
      for (const entry of list) {
        const expression = typeof entry === 'string' ? entry : entry.threshold;
        results[expression] = { ok: evaluate(expression, type, raw, durationMs) };
      }
      metrics[key].thresholds = results;
    }
  };

  for (const name of ['http_reqs', 'http_req_duration', 'http_req_failed', 'http_req_blocked', 'http_req_connecting',
    'http_req_tls_handshaking', 'http_req_sending', 'http_req_waiting', 'http_req_receiving', 'iterations',
    'iteration_duration', 'vus', 'vus_max', 'data_sent', 'data_received']) {
    add(name, BUILTIN_METRICS[/** @type {keyof typeof BUILTIN_METRICS} */ (name)], containsOf(name));
  }
  for (const [name, metric] of script.metrics) {
    add(name, metric.type, metric.contains);
  }
  // k6 tracks this sub-metric by default (the expected_response system tag).
  add('http_req_duration{expected_response:true}', 'trend', 'time');
  if (withThresholds) {
    for (const key of Object.keys(options.thresholds || {})) {
      const parsed = /** @type {{ name: string }} */ (parseMetricKey(key));
      const type = BUILTIN_METRICS[/** @type {keyof typeof BUILTIN_METRICS} */ (parsed.name)] || script.metrics.get(parsed.name)?.type;
      if (type && !metrics[key]) {
        add(key, type, containsOf(parsed.name, script));
      }
    }
  }

  return {
    root_group: { name: '', path: '', id: 'd41d8cd98f00b204e9800998ecf8427e', groups: [], checks: [] },
    options: { summaryTrendStats: stats, summaryTimeUnit: '', noColor: false },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: durationMs },
    metrics,
    setup_data: settings.setupData,
  };
}

/**
 * @param {string} name
 * @param {{ metrics: Map<string, { contains: string }> }} [script]
 */
function containsOf(name, script) {
  if (script && script.metrics.has(name)) {
    return /** @type {{ contains: string }} */ (script.metrics.get(name)).contains;
  }
  if (name === 'data_sent' || name === 'data_received') {
    return 'data';
  }
  return BUILTIN_METRICS[/** @type {keyof typeof BUILTIN_METRICS} */ (name)] === 'trend' ? 'time' : 'default';
}

/**
 * @param {string} type
 * @param {any} raw
 * @param {string[]} stats
 * @param {number} durationMs
 */
function values(type, raw, stats, durationMs) {
  if (type === 'trend') {
    /** @type {Record<string, number>} */
    const result = {};
    for (const stat of stats) {
      result[stat] = trendStat(raw.trend, stat);
    }
    return result;
  }
  if (type === 'counter') {
    const count = raw.count || 0;
    return { count, rate: count / (durationMs / 1000) };
  }
  if (type === 'rate') {
    const passes = raw.rate ? raw.rate.passes : 0;
    const fails = raw.rate ? raw.rate.fails : 0;
    return { rate: passes + fails > 0 ? passes / (passes + fails) : 0, passes, fails };
  }
  const value = raw.gauge || 0;
  return { value, min: value, max: value };
}

/**
 * A stat of a trend whose shape is given by p50, p99, max and count (k6 reports 0s when empty).
 *
 * @param {{ p50: number, p99: number, max: number, count: number } | undefined} trend
 * @param {string} stat
 */
function trendStat(trend, stat) {
  if (!trend || trend.count === 0) {
    return 0;
  }
  const min = trend.p50 * 0.4;
  switch (stat) {
    case 'min': return min;
    case 'max': return trend.max;
    case 'med': return trend.p50;
    case 'avg': return (trend.p50 * 3 + trend.p99) / 4;
    case 'count': return trend.count;
    default: {
      const p = Number(/^p\((.+)\)$/.exec(stat)?.[1]);
      if (p <= 50) {
        return min + ((trend.p50 - min) * p) / 50;
      }
      if (p <= 99) {
        return trend.p50 + ((trend.p99 - trend.p50) * (p - 50)) / 49;
      }
      return trend.p99 + ((trend.max - trend.p99) * (p - 99));
    }
  }
}

/**
 * @param {string} expression
 * @param {string} type
 * @param {any} raw
 * @param {number} durationMs
 */
function evaluate(expression, type, raw, durationMs) {
  const parsed = parseThreshold(expression);
  if ('error' in parsed) {
    throw new Error(parsed.error);
  }
  let left;
  if (type === 'trend') {
    left = trendStat(raw.trend, parsed.method === 'p' ? `p(${parsed.percentile})` : parsed.method);
  } else {
    const v = values(type, raw, [], durationMs);
    left = /** @type {Record<string, number>} */ (v)[parsed.method];
  }
  switch (parsed.operator) {
    case '<': return left < parsed.value;
    case '<=': return left <= parsed.value;
    case '>': return left > parsed.value;
    case '>=': return left >= parsed.value;
    case '!=': return left !== parsed.value;
    default: return left === parsed.value;
  }
}

/**
 * Wraps data.metrics so every key handleSummary looks up is recorded, and those it looked up in
 * vain: a sub-metric the report reads must be named by a threshold, or k6 leaves it out.
 *
 * @param {any} data
 */
export function traceMetricReads(data) {
  /** @type {Set<string>} */
  const read = new Set();
  /** @type {Set<string>} */
  const missing = new Set();
  const metrics = new Proxy(data.metrics, {
    get(target, key, receiver) {
      if (typeof key === 'string') {
        read.add(key);
        if (key.includes('{') && !(key in target)) {
          missing.add(key);
        }
      }
      return Reflect.get(target, key, receiver);
    },
  });
  return { data: { ...data, metrics }, read, missing };
}
