// An in-process stand-in for the service, answering by its HTTP contract (docs/service.md, "HTTP API";
// written from the contract, not from the scripts, so a typo in a script cannot agree with itself):
// GET only, probes and health 200, lab introspection, and /work/{mode} with the service's own
// validation (400, 404, 501 without FFM); any other path 404.

export const MODES = ['unpinned', 'pinned', 'reentrant', 'native', 'cpu', 'platform'];
export const PROBE_PATHS = ['/probe/virtual', '/probe/worker', '/probe/event-loop'];
export const HEALTH_PATHS = ['/q/health/live', '/q/health/ready', '/q/health/started'];

/** A JDK 21 service: synchronized pins, no FFM, platform-thread I/O pollers. */
export const JDK21_INFO = {
  javaVersion: '21.0.9', javaVendor: 'Eclipse Adoptium', availableProcessors: 4, carrierParallelism: 4,
  carrierMaxPoolSize: 256, lockingMode: 2, synchronizedPins: true, nativePinAvailable: false,
  nativePinUnavailableReason: 'FFM upcalls need JDK 22 or later', virtualPollers: false, downstreamPermits: 50, permits: { db: 50, sleep: 50 },
  poolMaxSize: 64, modes: MODES, eventLoops: 8, embeddedDatabase: true, canary: true, pinningMonitor: true,
  jvmArguments: ['-XX:ActiveProcessorCount=4'],
};

/** A JDK 25 service: synchronized does not pin, FFM upcalls do, the I/O pollers are virtual threads. */
export const JDK25_INFO = {
  ...JDK21_INFO, javaVersion: '25.0.1', lockingMode: null, synchronizedPins: false, nativePinAvailable: true,
  nativePinUnavailableReason: null, virtualPollers: true,
};

/**
 * Probe answers name the event loop that served them, the service's event loops in turn, unless
 * `eventLoop` says otherwise (a function of the answer's number, or null: a service that names none).
 *
 * @param {{ info?: Record<string, unknown>, ready?: boolean, overloaded?: boolean,
 *           status?: (url: URL) => number | undefined,
 *           eventLoop?: ((answer: number) => string) | null }} [settings]
 */
export function fakeService(settings = {}) {
  const info = settings.info || JDK21_INFO;
  const loops = typeof info.eventLoops === 'number' ? info.eventLoops : 8;
  const eventLoop = settings.eventLoop === undefined ? (/** @type {number} */ n) => `vert.x-eventloop-thread-${n % loops}` : settings.eventLoop;
  let answers = 0;
  const json = (/** @type {number} */ status, /** @type {unknown} */ body, type = 'application/json') =>
    ({ status, headers: { 'Content-Type': type }, body: JSON.stringify(body), durationMs: 2 });
  const problem = (/** @type {number} */ status, /** @type {string} */ detail) =>
    json(status, { status, title: 'problem', detail }, 'application/problem+json');

  return (request) => {
    const url = new URL(request.url);
    const forced = settings.status ? settings.status(url) : undefined;
    if (forced !== undefined) {
      return forced === 0
        ? { status: 0, headers: {}, body: '', durationMs: 0, error: 'dial: connection refused' }
        : problem(forced, 'forced by the test');
    }
    const path = url.pathname;
    if (request.method !== 'GET') {
      return problem(405, `${request.method} ${path}: the service answers GET only`);
    }
    if (PROBE_PATHS.includes(path)) {
      const answer = { probe: path.slice('/probe/'.length), thread: 'probe', virtual: path === '/probe/virtual' };
      return json(200, eventLoop === null ? answer : { ...answer, eventLoop: eventLoop(answers++) });
    }
    if (HEALTH_PATHS.includes(path)) {
      const up = path !== '/q/health/ready' || settings.ready !== false;
      return json(up ? 200 : 503, { status: up ? 'UP' : 'DOWN', checks: [] });
    }
    if (path === '/lab/info' || path === '/lab/pinning') {
      return json(200, path === '/lab/info' ? info : []);
    }
    const mode = (/^\/work\/([^/]+)$/.exec(path) || [])[1];
    if (!MODES.includes(mode)) {
      return problem(404, `nothing is served at ${path} (modes: ${MODES.join(', ')})`);
    }
    const names = [...url.searchParams.keys()];
    if (names.some((n) => !['ms', 'downstream', 'lock'].includes(n)) || new Set(names).size !== names.length) {
      return problem(400, 'unknown or repeated query parameter');
    }
    const ms = url.searchParams.get('ms') ?? '100';
    const downstream = url.searchParams.get('downstream') ?? 'db';
    const lock = url.searchParams.get('lock') ?? 'private';
    if (!/^\d{1,9}$/.test(ms) || Number(ms) > 30000 || !['db', 'sleep'].includes(downstream) || !['private', 'shared'].includes(lock)) {
      return problem(400, 'invalid parameter');
    }
    if (mode === 'native' && info.nativePinAvailable !== true) {
      return problem(501, 'native needs FFM');
    }
    if (settings.overloaded) {
      return { ...problem(503, 'no permit'), headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1' } };
    }
    return json(200, { mode, downstream, lock, ms: Number(ms), elapsedMillis: Number(ms), virtual: mode !== 'platform' });
  };
}
