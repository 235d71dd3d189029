// The service's HTTP contract (README.md, "HTTP API") as the harness checks requests against it:
// the paths, the work modes and their query parameters.
// Written from the contract, not from the scripts, so a typo in a script cannot agree with itself.

export const MODES = ['unpinned', 'pinned', 'reentrant', 'native', 'cpu', 'platform'];
export const PROBE_PATHS = ['/probe/virtual', '/probe/worker', '/probe/event-loop'];
export const HEALTH_PATHS = ['/q/health/live', '/q/health/ready', '/q/health/started'];
export const LAB_PATHS = ['/lab/info', '/lab/pinning'];
export const WORK_PARAMETERS = { ms: /^\d{1,9}$/, downstream: /^(db|sleep)$/, lock: /^(private|shared)$/ };
export const MAX_MS = 30000;

/**
 * What is wrong with a request's method, path and query, by the contract.
 *
 * @param {{ method: string, url: string }} request
 * @returns {string[]}
 */
export function contractProblems(request) {
  const problems = [];
  const where = `${request.method} ${request.url}`;
  if (request.method !== 'GET') {
    problems.push(`${where}: the service answers GET only`);
  }
  let url;
  try {
    url = new URL(request.url);
  } catch {
    return [...problems, `${where}: not an absolute URL`];
  }
  const path = url.pathname;
  const work = /^\/work\/([^/]+)$/.exec(path);
  if (work) {
    if (!MODES.includes(work[1])) {
      problems.push(`${where}: unknown mode '${work[1]}' (modes: ${MODES.join(', ')})`);
    }
    const seen = new Set();
    for (const [name, value] of url.searchParams) {
      if (!(name in WORK_PARAMETERS)) {
        problems.push(`${where}: unknown query parameter '${name}' (the service answers 400)`);
      } else if (seen.has(name)) {
        problems.push(`${where}: query parameter '${name}' given twice (the service answers 400)`);
      } else if (!WORK_PARAMETERS[/** @type {keyof typeof WORK_PARAMETERS} */ (name)].test(value)
        || (name === 'ms' && Number(value) > MAX_MS)) {
        problems.push(`${where}: invalid ${name}='${value}' (the service answers 400)`);
      }
      seen.add(name);
    }
  } else if (![...PROBE_PATHS, ...HEALTH_PATHS, ...LAB_PATHS].includes(path)) {
    problems.push(`${where}: no such endpoint in the contract (${path})`);
  } else if ([...url.searchParams.keys()].length > 0 && path !== '/lab/pinning') {
    problems.push(`${where}: ${path} takes no query parameters`);
  }
  return problems;
}
