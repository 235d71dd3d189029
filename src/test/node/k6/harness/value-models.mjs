// Plausible measurements for summary fixtures: a probe or a work request is slow exactly in the
// windows the test says starve; the rest look like a healthy service.

/**
 * @param {{ starving: (target: string, phase: string) => boolean,
 *           skipped?: (target: string, phase: string) => boolean,
 *           overloaded?: number, dropped?: number }} world
 * @returns {import('./summary-fixture.mjs').ValueModel}
 */
export function starvationModel(world) {
  const skipped = world.skipped || (() => false);
  return (name, tags, type) => {
    const starving = tags.target !== undefined && tags.phase !== undefined && world.starving(tags.target, tags.phase);
    const idle = tags.target !== undefined && tags.phase !== undefined && skipped(tags.target, tags.phase);
    if (name === 'http_req_duration' && tags.probe !== undefined) {
      return { trend: starving && tags.probe === 'virtual'
        ? { p50: 1412.6, p99: 1893.2, max: 2210.4, count: 100 }
        : { p50: 1.84, p99: 7.46, max: 14.9, count: tags.phase === 'baseline' ? 60 : 100 } };
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
