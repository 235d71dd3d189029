// Runs the request logic of the k6 scripts once against a service and compares every answer with
// the contract: setup(), then one iteration of each scenario, per layout and script; then renders
// the report from a summary built on the live /lab/info, to prove handleSummary copes with it.

import { resolve } from 'node:path';
import { HEALTH_PATHS, LAB_PATHS, PROBE_PATHS, contractProblems } from './contract.mjs';
import { K6_DIR, plan } from './paths.mjs';
import { loadScript } from './runtime.mjs';
import { summaryFixture } from './summary-fixture.mjs';
import { starvationModel } from './value-models.mjs';

/**
 * The statuses the contract allows for a request of the live check (small ms, one at a time).
 *
 * @param {string} url
 * @param {Record<string, unknown>} info the service's /lab/info
 * @returns {number[]}
 */
export function expectedStatuses(url, info) {
  const path = new URL(url).pathname;
  if ([...PROBE_PATHS, ...HEALTH_PATHS, ...LAB_PATHS].includes(path)) {
    return [200];
  }
  if (path === '/work/native') {
    return info.nativePinAvailable === false ? [501] : [200];
  }
  if (path.startsWith('/work/')) {
    return [200];
  }
  return [];
}

/**
 * @param {{ baseUrl: string, transport: import('./context.mjs').Transport, log?: (line: string) => void }} settings
 * @returns {Promise<{ failures: string[], requests: number }>}
 */
export async function liveCheck({ baseUrl, transport, log = () => {} }) {
  const failures = [];
  let requests = 0;
  const infoAnswer = transport({ method: 'GET', url: `${baseUrl}/lab/info`, body: null, headers: {}, timeoutMs: 10000 });
  /** @type {Record<string, unknown>} */
  let info = {};
  if (infoAnswer.status === 200) {
    info = JSON.parse(infoAnswer.body);
    log(`${baseUrl}: Java ${info.javaVersion}, synchronizedPins=${info.synchronizedPins}, nativePinAvailable=${info.nativePinAvailable}`);
  } else {
    failures.push(`GET ${baseUrl}/lab/info: ${describe(infoAnswer)} (expected 200)`);
  }

  // With the service's own count, every answer's event loop must come out as one of its loops.
  /** @type {Record<string, string>} */
  const loops = typeof info.eventLoops === 'number' ? { EVENT_LOOPS: String(info.eventLoops) } : {};
  const runs = [
    { script: 'starvation.js', env: { PINNED_URL: baseUrl, UNPINNED_URL: baseUrl, MS: '10', ...loops } },
    { script: 'starvation.js', env: { BASE_URL: baseUrl, MS: '10', ...loops } },
    { script: 'smoke.js', env: { PINNED_URL: baseUrl, UNPINNED_URL: baseUrl } },
    { script: 'smoke.js', env: { BASE_URL: baseUrl } },
  ];
  for (const run of runs) {
    const label = `${run.script} with ${Object.keys(run.env).filter((k) => k.endsWith('_URL')).join(' and ')}`;
    const before = failures.length;
    let script;
    try {
      script = await loadScript(resolve(K6_DIR, run.script), { env: run.env, transport });
      const data = script.setup();
      // A probe scenario takes the endpoints in turn: one iteration per endpoint reaches them all.
      const endpoints = Object.keys(plan().probes.endpoints).length;
      for (const [name, scenario] of Object.entries(script.options.scenarios || {})) {
        for (let iteration = 0; iteration < (scenario.exec === 'probe' ? endpoints : 1); iteration++) {
          script.iterate(name, data, { at: 0, iteration });
        }
      }
      for (const check of script.ctx.checks.filter((c) => !c.ok)) {
        failures.push(`${label}: check failed: ${check.name}`);
      }
      // The /probe/* answers name their event loop (health checks do not).
      if (loops.EVENT_LOOPS !== undefined) {
        const paths = plan().probes.endpoints;
        for (const sample of script.ctx.samples.filter((s) => s.metric === 'probe_over_1s' && PROBE_PATHS.includes(paths[s.tags.probe]))) {
          if (sample.tags.event_loop === undefined || sample.tags.event_loop === 'other') {
            failures.push(`${label}: a ${paths[sample.tags.probe]} answer names no event loop below /lab/info's `
              + `eventLoops (${loops.EVENT_LOOPS}) by its number: event_loop ${sample.tags.event_loop}`);
          }
        }
      }
      if (typeof script.module.handleSummary === 'function') {
        const summary = summaryFixture(script.options, script, { setupData: data, model: starvationModel({ starving: () => false }) });
        const files = script.handleSummary(summary);
        if (!files.stdout || !Object.keys(files).some((k) => k.endsWith('report.md'))) {
          failures.push(`${label}: handleSummary() returned no stdout or report.md`);
        }
      }
    } catch (error) {
      failures.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
    for (const request of script ? script.ctx.requests : []) {
      requests += 1;
      const allowed = expectedStatuses(request.url, info);
      if (!allowed.includes(request.status)) {
        const answer = request.status === 0 ? `no answer (${request.error})` : `HTTP ${request.status}`;
        failures.push(`${label}: ${request.method} ${request.url}: ${answer}, expected ${allowed.join(' or ') || 'no such request'}`);
      }
      for (const problem of contractProblems(request)) {
        failures.push(`${label}: ${problem}`);
      }
    }
    log(`${label}: ${script ? script.ctx.requests.length : 0} requests, ${failures.length - before} failures`);
  }
  return { failures, requests };
}

/** @param {import('./context.mjs').TransportResponse} answer */
function describe(answer) {
  return answer.status === 0 ? `no answer (${answer.error})` : `HTTP ${answer.status}`;
}
