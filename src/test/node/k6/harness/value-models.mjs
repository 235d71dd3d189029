// Plausible measurements for summary fixtures: a probe or a work request is slow exactly in the
// windows the test says starve; the rest look like a healthy service.

/**
 * Under starvation the virtual probe's event loops fare differently: loop n waits about
 * 700 + 200 n ms at the median, and 30 of its 100 probes wait over 1 s, 10 over 3 s.
 * `eventLoops` says which event_loop tags served probes (default: 0 to 7).
 *
 * @param {{ starving: (target: string, phase: string) => boolean,
 *           skipped?: (target: string, phase: string) => boolean,
 *           overloaded?: number, dropped?: number, eventLoops?: string[] }} world
 * @returns {import('./summary-fixture.mjs').ValueModel}
 */
export function starvationModel(world) {
  const skipped = world.skipped || (() => false);
  const served = world.eventLoops || ['0', '1', '2', '3', '4', '5', '6', '7'];
  return (name, tags, type) => {
    const starving = tags.target !== undefined && tags.phase !== undefined && world.starving(tags.target, tags.phase);
    const idle = tags.target !== undefined && tags.phase !== undefined && skipped(tags.target, tags.phase);
    const slow = starving && tags.probe === 'virtual';
    const probes = tags.phase === 'baseline' ? 60 : 100;
    if (name === 'http_req_duration' && tags.probe !== undefined) {
      return { trend: slow
        ? { p50: 1412.6, p99: 1893.2, max: 2210.4, count: 100 }
        : { p50: 1.84, p99: 7.46, max: 14.9, count: probes } };
    }
    if (name === 'probe_wait' && tags.event_loop !== undefined) {
      const n = served.indexOf(tags.event_loop);
      const loop = /^\d+$/.test(tags.event_loop) ? Number(tags.event_loop) : 8;
      const count = n === -1 ? 0 : Math.floor(probes / served.length) + (n < probes % served.length ? 1 : 0);
      return { trend: slow
        ? { p50: 700 + 200 * loop, p99: 2000 + 20 * loop, max: 2210.4, count }
        : { p50: 1.84, p99: 7.46, max: 14.9, count } };
    }
    const over = /^probe_over_(\d+)s$/.exec(name);
    if (over && tags.probe !== undefined) {
      const share = !slow ? 0 : over[1] === '1' ? 0.3 : 0.1;
      const total = tags.event_loop === undefined ? probes : served.includes(tags.event_loop) ? 10 : 0;
      return { rate: { passes: Math.round(share * total), fails: total - Math.round(share * total) } };
    }
    if (name === 'http_req_duration' && tags.kind === 'work') {
      if (idle) {
        return { trend: { p50: 0, p99: 0, max: 0, count: 0 } };
      }
      return { trend: starving ? { p50: 1503.2, p99: 1688.7, max: 1804.1, count: 420 } : { p50: 101.3, p99: 118.2, max: 131.6, count: 6280 } };
    }
    const requests = idle ? 0 : starving ? 420 : 6280;
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
    if (name === 'probe_errors' && tags.phase !== undefined) {
      return { rate: { passes: 0, fails: tags.phase === 'baseline' ? 240 : 400 } };
    }
    if (name === 'dropped_iterations') {
      return { count: world.dropped || 0 };
    }
    if (type === 'trend') {
      return { trend: { p50: 2.1, p99: 1600, max: 2300, count: 12000 } };
    }
    if (type === 'counter') {
      return { count: 12000 };
    }
    if (type === 'rate') {
      return { rate: { passes: 0, fails: 12000 } };
    }
    return { gauge: 64 };
  };
}
