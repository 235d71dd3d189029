// The state the stand-in k6 modules share with the harness: which stage runs (init, setup, vu,
// summary), the environment, the HTTP transport, and everything the script did.

const KEY = Symbol.for('starvation-lab.k6-harness');

/**
 * @typedef {{ method: string, url: string, body: string | null, headers: Record<string, string>,
 *             timeoutMs: number }} OutgoingRequest
 * @typedef {{ status: number, headers: Record<string, string>, body: string, durationMs: number,
 *             error?: string, errorCode?: number }} TransportResponse
 * @typedef {(request: OutgoingRequest) => TransportResponse} Transport
 * @typedef {{ method: string, url: string, tags: Record<string, string>, params: Record<string, unknown>,
 *             status: number, expected: boolean, stage: string, scenario: string | null,
 *             error?: string }} RecordedRequest
 */

/**
 * @param {{ env?: Record<string, string>, transport?: Transport }} [init]
 */
function fresh(init = {}) {
  return {
    stage: 'init',
    env: Object.freeze({ ...(init.env || {}) }),
    transport: init.transport || (() => { throw new Error('no HTTP transport configured'); }),
    /** @type {RecordedRequest[]} */
    requests: [],
    /** @type {{ name: string, ok: boolean, tags: Record<string, string> }[]} */
    checks: [],
    /** @type {{ metric: string, value: number, tags: Record<string, string> }[]} */
    samples: [],
    /** @type {Map<string, { type: string, contains: string }>} */
    metrics: new Map(),
    /** @type {string[]} */
    opened: [],
    /** @type {unknown} */
    responseCallback: null,
    /** @type {{ level: string, message: string }[]} */
    logs: [],
    /** @type {number[]} */
    sleeps: [],
    exec: {
      scenario: { name: '', executor: '', startTime: 0, progress: 0, iterationInInstance: 0, iterationInTest: 0 },
      vu: { idInInstance: 0, idInTest: 0, iterationInInstance: 0, iterationInScenario: 0, tags: {}, metrics: { tags: {}, metadata: {} } },
      instance: { iterationsInterrupted: 0, iterationsCompleted: 0, vusActive: 0, vusInitialized: 0, currentTestRunDuration: 0 },
    },
    /** @type {unknown} */
    options: undefined,
  };
}

/** @returns {ReturnType<typeof fresh>} */
export function context() {
  if (!globalThis[KEY]) {
    globalThis[KEY] = fresh();
  }
  return globalThis[KEY];
}

/**
 * @param {{ env?: Record<string, string>, transport?: Transport }} init
 */
export function resetContext(init) {
  globalThis[KEY] = fresh(init);
  return globalThis[KEY];
}

/** Thrown by the exec.test.abort() stand-in, as k6 stops the run there. */
export class K6Abort extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'K6Abort';
  }
}
