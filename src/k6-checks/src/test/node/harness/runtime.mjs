// Loads a k6 script in Node through the stand-ins and runs its stages the way k6 would: the init
// context on import (with __ENV and open()), setup() once with its result passed through JSON,
// one iteration of a scenario's exec function, handleSummary(data).

import { register } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { context, resetContext } from './context.mjs';
import { fakeService } from './fake-service.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const STANDINS = {
  k6: pathToFileURL(resolvePath(here, 'standins/k6.mjs')).href,
  'k6/http': pathToFileURL(resolvePath(here, 'standins/k6-http.mjs')).href,
  'k6/metrics': pathToFileURL(resolvePath(here, 'standins/k6-metrics.mjs')).href,
  'k6/execution': pathToFileURL(resolvePath(here, 'standins/k6-execution.mjs')).href,
};

let hooksRegistered = false;
let generation = 0;

function registerHooks() {
  if (hooksRegistered) {
    return;
  }
  if (typeof register !== 'function') {
    throw new Error(`node:module register() is missing: Node ${process.version} is too old (20.6 or later needed)`);
  }
  register(pathToFileURL(resolvePath(here, 'hooks.mjs')).href, { data: { standins: STANDINS } });
  hooksRegistered = true;
}

/**
 * The file of the module that called open(): k6 resolves the path relative to the script.
 */
function callerFile() {
  const original = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, frames) => frames;
    const holder = {};
    Error.captureStackTrace(holder, open);
    const frames = /** @type {any} */ (holder).stack;
    const name = frames.length > 0 ? frames[0].getFileName() : null;
    return name && name.startsWith('file:') ? fileURLToPath(name.replace(/\?.*$/, '')) : name;
  } finally {
    Error.prepareStackTrace = original;
  }
}

/**
 * The init-context open(): relative paths resolve against the calling script's folder.
 *
 * @param {string} path
 * @param {string} [mode]
 */
function open(path, mode) {
  const ctx = context();
  if (ctx.stage !== 'init') {
    throw new Error(`k6: open('${path}') is only available in the init context`);
  }
  const caller = callerFile();
  const file = path.startsWith('/') ? path : resolvePath(dirname(caller || process.cwd()), path);
  ctx.opened.push(file);
  if (planOverride !== undefined && file.endsWith('/plan.json')) {
    return JSON.stringify(planOverride);
  }
  const bytes = readFileSync(file);
  return mode === 'b' ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) : bytes.toString('utf8');
}

/**
 * @typedef {{ env?: Record<string, string>, transport?: import('./context.mjs').Transport, plan?: unknown, vu?: number,
 *             modules?: Record<string, unknown> }} LoadOptions
 * `plan` stands in for plan.json's content while the script loads; `vu` is __VU in the init context
 * (0, the one k6 reads the options from, unless a test says otherwise); `modules`: what the init
 * context's require(path) returns for each path (LOAD_MODULE), any other path is not found.
 */

/**
 * k6's init-context require(): a module the test provides by its path.
 *
 * @param {Record<string, unknown>} modules
 */
function requireOf(modules) {
  return (/** @type {string} */ path) => {
    if (context().stage !== 'init') {
      throw new Error(`k6: require('${path}') is only available in the init context`);
    }
    if (!(path in modules)) {
      throw new Error(`GoError: The moduleSpecifier "${path}" couldn't be found on local disk.`);
    }
    return modules[path];
  };
}

/** @type {unknown} */
let planOverride;

/**
 * Imports the script with a fresh module graph and runs its init context.
 *
 * @param {string} scriptPath
 * @param {LoadOptions} [options]
 */
export async function loadScript(scriptPath, options = {}) {
  registerHooks();
  const ctx = resetContext({ env: options.env || {}, transport: options.transport || fakeService() });
  globalThis.__ENV = ctx.env;
  globalThis.__VU = options.vu || 0;
  globalThis.__ITER = 0;
  globalThis.open = open;
  globalThis.require = requireOf(options.modules || {});
  generation += 1;
  const url = `${pathToFileURL(resolvePath(scriptPath)).href}?k6gen=${generation}`;
  let module;
  planOverride = options.plan;
  try {
    module = await import(url);
  } finally {
    ctx.stage = 'loaded';
    planOverride = undefined;
  }
  ctx.options = module.options;
  return new LoadedScript(scriptPath, module, ctx);
}

export class LoadedScript {
  /**
   * @param {string} path
   * @param {Record<string, any>} module
   * @param {ReturnType<typeof context>} ctx
   */
  constructor(path, module, ctx) {
    this.path = path;
    this.module = module;
    this.ctx = ctx;
    this.options = module.options || {};
    this.exports = Object.keys(module);
    /** Custom metrics the script declared: name → { type, contains }. */
    this.metrics = new Map(ctx.metrics);
  }

  /** The functions k6 can call by name (exec, setup, teardown, handleSummary). */
  get functions() {
    return this.exports.filter((name) => typeof this.module[name] === 'function');
  }

  /** Runs setup(), returning its result as k6 hands it to VUs: through JSON. */
  setup() {
    this.ctx.stage = 'setup';
    try {
      const result = typeof this.module.setup === 'function' ? this.module.setup() : undefined;
      return result === undefined ? undefined : JSON.parse(JSON.stringify(result));
    } finally {
      this.ctx.stage = 'loaded';
    }
  }

  /**
   * Runs one iteration of a scenario's exec function, as if the scenario had started `at`
   * seconds ago and this were its `iteration`th iteration (from 0), and returns the requests it made.
   *
   * @param {string} name
   * @param {unknown} data setup() result
   * @param {{ at?: number, iteration?: number }} [when]
   */
  iterate(name, data, when = {}) {
    const scenario = (this.options.scenarios || {})[name];
    if (!scenario) {
      throw new Error(`no scenario '${name}' in options.scenarios`);
    }
    const execName = scenario.exec || 'default';
    const fn = this.module[execName];
    if (typeof fn !== 'function') {
      throw new Error(`scenario '${name}' runs exec '${execName}', which the script does not export as a function`);
    }
    const ctx = this.ctx;
    ctx.stage = 'vu';
    ctx.exec.scenario = { name, executor: scenario.executor, startTime: Date.now() - (when.at || 0) * 1000,
      progress: 0, iterationInInstance: when.iteration || 0, iterationInTest: when.iteration || 0 };
    ctx.exec.vu = { ...ctx.exec.vu, idInInstance: 1, idInTest: 1 };
    globalThis.__ENV = Object.freeze({ ...ctx.env, ...(scenario.env || {}) });
    globalThis.__VU = 1;
    const before = ctx.requests.length;
    try {
      fn(data);
    } finally {
      globalThis.__ENV = ctx.env;
      ctx.stage = 'loaded';
    }
    return ctx.requests.slice(before);
  }

  /**
   * @param {unknown} data k6's handleSummary argument
   * @returns {Record<string, string>}
   */
  handleSummary(data) {
    if (typeof this.module.handleSummary !== 'function') {
      throw new Error(`${this.path} exports no handleSummary()`);
    }
    this.ctx.stage = 'summary';
    try {
      return this.module.handleSummary(data);
    } finally {
      this.ctx.stage = 'loaded';
    }
  }
}

/**
 * Imports a module of the suite (a lib-*.js) on its own, as an ES module, whatever Node's
 * default for .js files outside a "type": "module" package.
 *
 * @param {string} path
 */
export async function importSuiteModule(path) {
  registerHooks();
  generation += 1;
  return import(`${pathToFileURL(resolvePath(path)).href}?k6gen=${generation}`);
}
