// Loads a k6 script in Node through stand-ins for k6's modules and runs its stages as k6 would: the
// init context on import (with __ENV, __VU, open() and require()), setup() once with its result
// passed through JSON, one iteration of a scenario's exec function; handleSummary(data) is called on the
// module itself. The stand-ins record what the script did in the context.

import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fakeService } from './fake-service.mjs';
import { K6_DIR } from './paths.mjs';

register(new URL('./hooks.mjs', import.meta.url));

/**
 * @typedef {{ method: string, url: string, body: string | null, headers: Record<string, string> }} OutgoingRequest
 * @typedef {{ status: number, headers: Record<string, string>, body: string, durationMs: number, error?: string }} TransportResponse
 * @typedef {(request: OutgoingRequest) => TransportResponse} Transport
 */

/**
 * What a loaded script did: its stage (init, loaded, setup or vu), its requests, checks, samples,
 * sleeps and custom metrics (name: type and contains), and the scenario running.
 */
function fresh(transport) {
  return {
    stage: 'init',
    transport,
    requests: [],
    checks: [],
    samples: [],
    metrics: new Map(),
    sleeps: [],
    scenario: { name: '', startTime: 0, iterationInTest: 0 },
  };
}

let current = fresh(() => { throw new Error('no script loaded'); });
let generation = 0;

/** The context of the script loaded last, which the stand-ins record into. */
export function context() {
  return current;
}

/** Thrown by the exec.test.abort() stand-in, as k6 stops the run there. */
export class K6Abort extends Error {}

/**
 * Imports the script with a fresh module graph and runs its init context. `plan` stands in for
 * plan.json; `vu` is __VU in the init context (0, the one k6 reads the options from); `modules`: what
 * the init context's require(path) returns for each path, any other path is not found.
 *
 * @param {{ env?: Record<string, string>, transport?: Transport, plan?: unknown, vu?: number, modules?: Record<string, unknown> }} [options]
 */
export async function loadScript(path, options = {}) {
  const ctx = current = fresh(options.transport || fakeService());
  const initOnly = (/** @type {string} */ what) => {
    if (ctx.stage !== 'init') {
      throw new Error(`k6: ${what} is only available in the init context`);
    }
  };
  Object.assign(globalThis, {
    __ENV: Object.freeze({ ...options.env }),
    __VU: options.vu || 0,
    // every script of the suite lives in k6/, and k6 resolves open()'s path against the script's folder
    open: (/** @type {string} */ file) => {
      initOnly(`open('${file}')`);
      const full = resolve(K6_DIR, file);
      return options.plan !== undefined && full.endsWith('/plan.json') ? JSON.stringify(options.plan) : readFileSync(full, 'utf8');
    },
    require: (/** @type {string} */ file) => {
      initOnly(`require('${file}')`);
      if (!options.modules || !(file in options.modules)) {
        throw new Error(`GoError: The moduleSpecifier "${file}" couldn't be found on local disk.`);
      }
      return options.modules[file];
    },
  });
  const module = await import(`${pathToFileURL(path).href}?k6gen=${++generation}`);
  ctx.stage = 'loaded';
  const scriptOptions = module.options || {};
  return {
    module, ctx, options: scriptOptions,
    /** Runs setup(), returning its result as k6 hands it to VUs: through JSON. */
    setup() {
      ctx.stage = 'setup';
      return JSON.parse(JSON.stringify(module.setup()));
    },
    /**
     * Runs one iteration of a scenario's exec function on setup()'s `data`, as if the scenario had started
     * `at` seconds ago and this were its `iteration`th iteration (from 0), and returns the requests it made.
     */
    iterate(name, data, when = {}) {
      const scenario = scriptOptions.scenarios[name];
      if (!scenario || typeof module[scenario.exec] !== 'function') {
        throw new Error(`no scenario '${name}', or its exec is no function the script exports`);
      }
      ctx.stage = 'vu';
      ctx.scenario = { name, startTime: Date.now() - (when.at || 0) * 1000, iterationInTest: when.iteration || 0 };
      const before = ctx.requests.length;
      module[scenario.exec](data);
      return ctx.requests.slice(before);
    },
  };
}
