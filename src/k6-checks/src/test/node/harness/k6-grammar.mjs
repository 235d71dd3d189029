// The parts of k6's grammar the summary fixtures need: its built-in metrics, sub-metric keys
// (metric{tag:value,...}) and threshold expressions, so that a fixture evaluates a threshold as k6 does.

/** k6's built-in metrics and their types (metrics/builtin.go). */
export const BUILTIN_METRICS = {
  vus: 'gauge', vus_max: 'gauge', iterations: 'counter', iteration_duration: 'trend', dropped_iterations: 'counter',
  checks: 'rate', group_duration: 'trend', http_reqs: 'counter', http_req_failed: 'rate', http_req_duration: 'trend',
  http_req_blocked: 'trend', http_req_connecting: 'trend', http_req_tls_handshaking: 'trend', http_req_sending: 'trend',
  http_req_waiting: 'trend', http_req_receiving: 'trend', ws_sessions: 'counter', ws_msgs_sent: 'counter',
  ws_msgs_received: 'counter', ws_ping: 'trend', ws_session_duration: 'trend', ws_connecting: 'trend',
  grpc_req_duration: 'trend', data_sent: 'counter', data_received: 'counter',
};

const OPERATORS = ['<=', '<', '>=', '>', '===', '==', '!='];

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
