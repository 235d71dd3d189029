// Plausible measurements for summary fixtures: a probe or a work request is slow exactly in the
// windows the test says starve; the rest look like a healthy service. Every probe sends its rate x
// the window's seconds, spread evenly over the event loops that serve it.

/**
 * Under starvation the virtual probe's event loops fare differently: loop n waits about
 * 700 + 200 n ms at the median, and 30 % of its probes wait over 1 s, 10 % over 3 s.
 *
 * @param {import('../../../../../../k6/lib-config.js').Layout} layout the run's layout
 * @param {{ starving: (target: string, phase: string) => boolean,
 *           skipped?: (target: string, phase: string) => boolean, collapsing?: (target: string, phase: string) => boolean,
 *           overloaded?: number, dropped?: Record<string, number>, eventLoops?: string[],
 *           sent?: (target: string, phase: string, probe: string) => number | undefined,
 *           shunned?: (target: string, phase: string, probe: string) => string[],
 *           slowProbe?: (target: string, phase: string, probe: string) => number | undefined }} world
 *   dropped: iterations k6 dropped, per scenario; collapsing: starving windows whose work completes 4 requests; eventLoops: the event_loop tags that serve
 *   probes (default 0 to 7); sent: probes sent instead of the
 *   planned ones; shunned: event loops that answer only one of the probe's answers; slowProbe: a p99 in ms
 * @returns {import('./summary-fixture.mjs').ValueModel}
 */
export function starvationModel(layout, world) {
  const skipped = world.skipped || (() => false);
  const served = world.eventLoops || ['0', '1', '2', '3', '4', '5', '6', '7'];
  const seconds = (/** @type {string} */ phase) => {
    const window = layout.windows.find((w) => w.name === phase);
    return window ? window.end - window.start : 0;
  };
  const rateOf = (/** @type {string} */ probe) => (layout.probes.find((p) => p.probe === probe) || { rate: 0 }).rate;
  /** @param {Record<string, string>} tags */
  const sent = (tags) => {
    const override = world.sent ? world.sent(tags.target, tags.phase, tags.probe) : undefined;
    return override !== undefined ? override : Math.round(rateOf(tags.probe) * seconds(tags.phase));
  };
  /** The answers of one event loop: the rest spread evenly, a shunned loop answers one. */
  const answersOf = (/** @type {Record<string, string>} */ tags) => {
    const shunned = world.shunned ? world.shunned(tags.target, tags.phase, tags.probe) : [];
    if (tags.probe === 'health-live' || !served.includes(tags.event_loop)) {
      return 0;
    }
    if (shunned.includes(tags.event_loop)) {
      return 1;
    }
    const others = served.filter((l) => !shunned.includes(l));
    const rest = sent(tags) - shunned.filter((l) => served.includes(l)).length;
    const n = others.indexOf(tags.event_loop);
    return Math.floor(rest / others.length) + (n < rest % others.length ? 1 : 0);
  };
  return (name, tags, type) => {
    const starving = tags.target !== undefined && tags.phase !== undefined && world.starving(tags.target, tags.phase);
    const idle = tags.target !== undefined && tags.phase !== undefined && skipped(tags.target, tags.phase);
    const slow = starving && tags.probe === 'virtual';
    if (name === 'http_req_duration' && tags.probe !== undefined) {
      const p99 = world.slowProbe ? world.slowProbe(tags.target, tags.phase, tags.probe) : undefined;
      return { trend: slow
        ? { p50: 1412.6, p99: 1893.2, max: 2210.4, count: sent(tags) }
        : { p50: 1.84, p99: p99 !== undefined ? p99 : 7.46, max: p99 !== undefined ? p99 * 1.1 : 14.9, count: sent(tags) } };
    }
    if (name === 'probe_wait' && tags.event_loop !== undefined) {
      const loop = /^\d+$/.test(tags.event_loop) ? Number(tags.event_loop) : 8;
      const count = answersOf(tags);
      return { trend: slow
        ? { p50: 700 + 200 * loop, p99: 2000 + 20 * loop, max: 2210.4, count }
        : { p50: 1.84, p99: 7.46, max: 14.9, count } };
    }
    const over = /^probe_over_(\d+)s$/.exec(name);
    if (over && tags.probe !== undefined) {
      const share = !slow ? 0 : over[1] === '1' ? 0.3 : 0.1;
      const total = tags.event_loop === undefined ? sent(tags) : answersOf(tags);
      return { rate: { passes: Math.round(share * total), fails: total - Math.round(share * total) } };
    }
    if (name === 'probe_errors' && tags.probe !== undefined) {
      return { rate: { passes: 0, fails: sent(tags) } };
    }
    if (name === 'http_req_duration' && tags.kind === 'work') {
      if (idle) {
        return { trend: { p50: 0, p99: 0, max: 0, count: 0 } };
      }
      return { trend: starving ? { p50: 1503.2, p99: 1688.7, max: 1804.1, count: 240 } : { p50: 101.3, p99: 118.2, max: 131.6, count: 3000 } };
    }
    const collapsing = starving && world.collapsing !== undefined && world.collapsing(tags.target, tags.phase);
    const requests = idle ? 0 : collapsing ? 4 : starving ? 240 : 3000;
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
    if (name === 'dropped_iterations') {
      return { count: tags.scenario !== undefined && world.dropped ? world.dropped[tags.scenario] || 0 : 0 };
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
