// Validates a script's exported options the way k6 does before it runs anything: known options,
// known executors with their required fields, duration strings, exec functions that exist, and
// thresholds whose expressions parse and whose metrics (built-in, custom, tag-filtered) exist.

/** Options k6 reads from a script (the Options interface of @types/k6, plus summaryTimeUnit). */
export const KNOWN_OPTIONS = ['batch', 'batchPerHost', 'blacklistIPs', 'blockHostnames', 'discardResponseBodies', 'dns',
  'duration', 'executionSegment', 'executionSegmentSequence', 'ext', 'cloud', 'handleSummaryTimeout', 'hosts',
  'httpDebug', 'insecureSkipTLSVerify', 'iterations', 'linger', 'maxRedirects', 'minIterationDuration',
  'noConnectionReuse', 'noCookiesReset', 'noUsageReport', 'noVUConnectionReuse', 'paused', 'rps', 'scenarios',
  'setupTimeout', 'stages', 'summaryTimeUnit', 'summaryTrendStats', 'systemTags', 'tags', 'teardownTimeout',
  'thresholds', 'throw', 'tlsAIAFetch', 'tlsAuth', 'tlsCipherSuites', 'tlsVersion', 'userAgent', 'vus', 'vusMax'];

const COMMON_SCENARIO_FIELDS = ['executor', 'startTime', 'gracefulStop', 'exec', 'env', 'tags', 'options'];

/** Per executor: required fields, then optional ones. */
export const EXECUTORS = {
  'shared-iterations': { required: [], optional: ['vus', 'iterations', 'maxDuration'] },
  'per-vu-iterations': { required: [], optional: ['vus', 'iterations', 'maxDuration'] },
  'constant-vus': { required: ['duration'], optional: ['vus'] },
  'ramping-vus': { required: ['stages'], optional: ['startVUs', 'gracefulRampDown'] },
  'constant-arrival-rate': { required: ['duration', 'rate', 'preAllocatedVUs'], optional: ['timeUnit', 'maxVUs'] },
  'ramping-arrival-rate': { required: ['stages', 'preAllocatedVUs'], optional: ['startRate', 'timeUnit', 'maxVUs'] },
};

const DURATION_FIELDS = ['startTime', 'gracefulStop', 'duration', 'maxDuration', 'timeUnit', 'gracefulRampDown'];
const INTEGER_FIELDS = ['vus', 'iterations', 'rate', 'preAllocatedVUs', 'maxVUs', 'startVUs', 'startRate'];

/** k6's built-in metrics and their types (metrics/builtin.go). */
export const BUILTIN_METRICS = {
  vus: 'gauge', vus_max: 'gauge', iterations: 'counter', iteration_duration: 'trend', dropped_iterations: 'counter',
  checks: 'rate', group_duration: 'trend', http_reqs: 'counter', http_req_failed: 'rate', http_req_duration: 'trend',
  http_req_blocked: 'trend', http_req_connecting: 'trend', http_req_tls_handshaking: 'trend', http_req_sending: 'trend',
  http_req_waiting: 'trend', http_req_receiving: 'trend', ws_sessions: 'counter', ws_msgs_sent: 'counter',
  ws_msgs_received: 'counter', ws_ping: 'trend', ws_session_duration: 'trend', ws_connecting: 'trend',
  grpc_req_duration: 'trend', data_sent: 'counter', data_received: 'counter',
};

/** Aggregation methods a threshold may use, per metric type (metrics/metric_type.go). */
const AGGREGATIONS = {
  counter: ['count', 'rate'],
  gauge: ['value'],
  rate: ['rate'],
  trend: ['avg', 'min', 'max', 'med', 'p'],
};

const SCENARIO_NAME = /^[0-9A-Za-z_-]+$/;
const DURATION = /^(?:0|(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+)$/;
const OPERATORS = ['<=', '<', '>=', '>', '===', '==', '!='];

/**
 * @param {string} value
 */
export function isDuration(value) {
  return typeof value === 'string' && DURATION.test(value);
}

/**
 * Parses "metric{tag:value,...}" as k6's ParseMetricName does.
 *
 * @param {string} key
 * @returns {{ name: string, tags: Record<string, string> } | { error: string }}
 */
export function parseMetricKey(key) {
  const open = key.indexOf('{');
  const close = key.lastIndexOf('}');
  if (open === -1 && close === -1) {
    return { name: key, tags: {} };
  }
  if (open === -1 || close === -1 || close < open || close !== key.length - 1) {
    return { error: `malformed sub-metric '${key}': expected metric{tag:value,...}` };
  }
  /** @type {Record<string, string>} */
  const tags = {};
  for (const part of key.slice(open + 1, close).split(',')) {
    const [tag, value] = part.split(/:(.*)/s, 2);
    if (value === undefined || value.trim() === '' || tag.trim() === '') {
      return { error: `malformed tag expression '${part}' in '${key}'` };
    }
    tags[tag.trim()] = value.trim();
  }
  return { name: key.slice(0, open), tags };
}

/**
 * Parses a threshold expression (metrics/thresholds_parser.go): aggregation, operator, number.
 *
 * @param {string} expression
 * @returns {{ method: string, percentile?: number, operator: string, value: number } | { error: string }}
 */
export function parseThreshold(expression) {
  if (typeof expression !== 'string') {
    return { error: `threshold ${JSON.stringify(expression)} is not a string` };
  }
  for (const operator of OPERATORS) {
    const at = expression.indexOf(operator);
    if (at === -1) {
      continue;
    }
    const left = expression.slice(0, at).trim();
    const right = expression.slice(at + operator.length).trim();
    if (!/^-?\d+(\.\d+)?$/.test(right)) {
      return { error: `threshold '${expression}': '${right}' is not a number` };
    }
    if (['value', 'count', 'rate', 'avg', 'min', 'med', 'max'].includes(left)) {
      return { method: left, operator, value: Number(right) };
    }
    const percentile = /^p\((\d+(?:\.\d+)?)\)$/.exec(left);
    if (percentile && Number(percentile[1]) <= 100) {
      return { method: 'p', percentile: Number(percentile[1]), operator, value: Number(right) };
    }
    return { error: `threshold '${expression}': unknown aggregation '${left}'` };
  }
  return { error: `threshold '${expression}': no operator (${OPERATORS.join(' ')})` };
}

/**
 * Every problem k6 would refuse the options for (or silently misread), as sentences.
 *
 * @param {any} options
 * @param {{ functions: string[], metrics: Map<string, { type: string }> }} script
 * @returns {string[]}
 */
export function checkOptions(options, script) {
  const problems = [];
  if (!options || typeof options !== 'object') {
    return ['the script exports no options object'];
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.includes(key)) {
      problems.push(`unknown option '${key}'`);
    }
  }
  const scenarios = options.scenarios || {};
  for (const [name, scenario] of Object.entries(scenarios)) {
    problems.push(...checkScenario(name, /** @type {any} */ (scenario), script.functions));
  }
  if (options.summaryTrendStats !== undefined) {
    for (const stat of options.summaryTrendStats) {
      if (!['avg', 'min', 'med', 'max', 'count'].includes(stat) && !/^p\(\d+(\.\d+)?\)$/.test(stat)) {
        problems.push(`summaryTrendStats: unknown stat '${stat}'`);
      }
    }
  }
  for (const field of ['setupTimeout', 'teardownTimeout', 'handleSummaryTimeout']) {
    if (options[field] !== undefined && !isDuration(options[field])) {
      problems.push(`${field}: '${options[field]}' is not a duration like 30s`);
    }
  }
  for (const [key, list] of Object.entries(options.thresholds || {})) {
    problems.push(...checkThreshold(key, list, script.metrics));
  }
  return problems;
}

/**
 * @param {string} name
 * @param {any} scenario
 * @param {string[]} functions
 */
function checkScenario(name, scenario, functions) {
  const problems = [];
  const where = `scenario '${name}'`;
  if (!SCENARIO_NAME.test(name)) {
    problems.push(`${where}: a scenario name may hold letters, digits, '-' and '_' only`);
  }
  const executor = /** @type {keyof typeof EXECUTORS} */ (scenario.executor);
  const spec = EXECUTORS[executor];
  if (!spec) {
    return [...problems, `${where}: unknown executor '${scenario.executor}' (executors: ${Object.keys(EXECUTORS).join(', ')})`];
  }
  for (const field of spec.required) {
    if (scenario[field] === undefined) {
      problems.push(`${where}: executor ${executor} needs '${field}'`);
    }
  }
  for (const field of Object.keys(scenario)) {
    if (!COMMON_SCENARIO_FIELDS.includes(field) && !spec.required.includes(field) && !spec.optional.includes(field)) {
      problems.push(`${where}: '${field}' is not a field of executor ${executor}`);
    }
  }
  for (const field of DURATION_FIELDS) {
    if (scenario[field] !== undefined && !isDuration(scenario[field])) {
      problems.push(`${where}: ${field} '${scenario[field]}' is not a duration like 10s or 1m30s`);
    }
  }
  if (scenario.duration !== undefined && isDuration(scenario.duration) && /^0+(\D|$)/.test(scenario.duration)) {
    problems.push(`${where}: duration must be more than 0`);
  }
  for (const field of INTEGER_FIELDS) {
    if (scenario[field] !== undefined && (!Number.isInteger(scenario[field]) || scenario[field] < 0)) {
      problems.push(`${where}: ${field} must be a whole number >= 0, not ${JSON.stringify(scenario[field])}`);
    }
  }
  if (Number.isInteger(scenario.maxVUs) && Number.isInteger(scenario.preAllocatedVUs) && scenario.maxVUs < scenario.preAllocatedVUs) {
    problems.push(`${where}: maxVUs (${scenario.maxVUs}) is below preAllocatedVUs (${scenario.preAllocatedVUs})`);
  }
  if (['rate', 'preAllocatedVUs'].some((f) => scenario[f] === 0) || scenario.vus === 0) {
    problems.push(`${where}: a scenario with 0 VUs or rate 0 does nothing`);
  }
  const exec = scenario.exec === undefined ? 'default' : scenario.exec;
  if (!functions.includes(exec)) {
    problems.push(`${where}: exec '${exec}' is not an exported function of the script`);
  }
  for (const field of ['tags', 'env']) {
    for (const [k, v] of Object.entries(scenario[field] || {})) {
      if (typeof v !== 'string') {
        problems.push(`${where}: ${field}.${k} must be a string`);
      }
    }
  }
  return problems;
}

/**
 * @param {string} key
 * @param {unknown} list
 * @param {Map<string, { type: string }>} customMetrics
 */
function checkThreshold(key, list, customMetrics) {
  const parsed = parseMetricKey(key);
  if ('error' in parsed) {
    return [`threshold on ${parsed.error}`];
  }
  const type = BUILTIN_METRICS[/** @type {keyof typeof BUILTIN_METRICS} */ (parsed.name)]
    || (customMetrics.get(parsed.name) || {}).type;
  if (!type) {
    return [`threshold on '${key}': no metric named '${parsed.name}' (neither built-in nor declared by the script)`];
  }
  if (!Array.isArray(list)) {
    return [`threshold on '${key}': expected an array of expressions`];
  }
  const problems = [];
  for (const entry of list) {
    const expression = typeof entry === 'object' && entry !== null ? entry.threshold : entry;
    if (typeof entry === 'object' && entry !== null) {
      for (const field of Object.keys(entry)) {
        if (!['threshold', 'abortOnFail', 'delayAbortEval'].includes(field)) {
          problems.push(`threshold on '${key}': unknown field '${field}'`);
        }
      }
      if (entry.delayAbortEval !== undefined && !isDuration(entry.delayAbortEval)) {
        problems.push(`threshold on '${key}': delayAbortEval '${entry.delayAbortEval}' is not a duration`);
      }
    }
    const threshold = parseThreshold(expression);
    if ('error' in threshold) {
      problems.push(`threshold on '${key}': ${threshold.error}`);
    } else if (!AGGREGATIONS[/** @type {keyof typeof AGGREGATIONS} */ (type)].includes(threshold.method)) {
      problems.push(`threshold on '${key}': '${expression}' uses ${threshold.method === 'p' ? 'a percentile' : threshold.method}, `
        + `which a ${type} metric does not have`);
    }
  }
  return problems;
}
