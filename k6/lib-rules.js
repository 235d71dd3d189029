// The plan's rules (plan.json 'starved', 'untouched', probes.leastEventLoopShare), read and applied
// as the Java runner applies them (StarvationRule, UntouchedRule): the case files in cases/ hold
// both languages to the same judgements. Pure functions, no k6 imports.

/**
 * @typedef {{ probe: string, percentile: number, baselineFactor: number, minimumMillis: number, endpoint?: string }} StarvationRule
 *   endpoint: how the report names the probe's endpoint (your own service's); /probe/{probe} otherwise
 * @typedef {{ probes: string[], percentile: number, maximumMillis: number }} UntouchedRule
 * @typedef {{ starved: StarvationRule, untouched: UntouchedRule, leastEventLoopShare: number }} Rules
 */

/**
 * The plan's rules, checked as the Java runner checks them.
 *
 * @param {import('./lib-knobs.js').Plan} plan
 * @returns {Rules}
 */
export function readRules(plan) {
  const endpoints = plan.probes.endpoints;
  const starved = plan.starved;
  if (!starved || !(starved.probe in endpoints) || !(starved.percentile > 0 && starved.percentile < 100)
    || !(starved.baselineFactor >= 1) || !(starved.minimumMillis >= 0)) {
    throw new Error('plan.json: starved needs a probe of probes.endpoints, a percentile in (0, 100), a baselineFactor >= 1 '
      + `and a minimumMillis >= 0; got ${JSON.stringify(starved)}`);
  }
  const untouched = plan.untouched;
  if (!untouched || !Array.isArray(untouched.probes) || untouched.probes.length === 0
    || !untouched.probes.every((p) => p in endpoints && p !== starved.probe)
    || !(untouched.percentile > 0 && untouched.percentile < 100) || !(untouched.maximumMillis > 0)) {
    throw new Error('plan.json: untouched needs probes of probes.endpoints other than the starved rule\'s, a percentile in '
      + `(0, 100) and a maximumMillis > 0; got ${JSON.stringify(untouched)}`);
  }
  const share = plan.probes.leastEventLoopShare;
  if (!(share > 0 && share <= 1)) {
    throw new Error(`plan.json: probes.leastEventLoopShare must be in (0, 1]; got ${JSON.stringify(share)}`);
  }
  return {
    starved: { probe: starved.probe, percentile: starved.percentile, baselineFactor: starved.baselineFactor, minimumMillis: starved.minimumMillis },
    untouched: { probes: untouched.probes.slice(), percentile: untouched.percentile, maximumMillis: untouched.maximumMillis },
    leastEventLoopShare: share,
  };
}

/**
 * The summary's trend stat for a percentile: k6 names the median 'med'.
 *
 * @param {number} percentile
 */
export function statOf(percentile) {
  return percentile === 50 ? 'med' : `p(${percentile})`;
}

/**
 * Whether a probe whose percentile was `loadedMs` during a load, and `baselineMs` on the same
 * server idle, starved.
 *
 * @param {StarvationRule} rule
 * @param {number} loadedMs
 * @param {number} baselineMs
 */
export function isStarved(rule, loadedMs, baselineMs) {
  return loadedMs >= starvedFromMs(rule, baselineMs);
}

/**
 * The wait from which a load counts as starving, on a server whose idle probe took `baselineMs`.
 *
 * @param {StarvationRule} rule
 * @param {number} baselineMs
 */
export function starvedFromMs(rule, baselineMs) {
  return Math.max(rule.baselineFactor * Math.max(baselineMs, 0), rule.minimumMillis);
}

/**
 * The starvation rule in words, as the Java runner's report states it.
 *
 * @param {StarvationRule} rule
 */
export function describeStarved(rule) {
  return `starved when ${endpointOf(rule)}'s p${rule.percentile} is at least ${rule.baselineFactor}x its baseline `
    + `on the same JVM and at least ${rule.minimumMillis} ms`;
}

/**
 * The starved rule's endpoint as the report names it: the lab's /probe/{probe}, or your own service's.
 *
 * @param {StarvationRule} rule
 */
export function endpointOf(rule) {
  return rule.endpoint === undefined ? `/probe/${rule.probe}` : rule.endpoint;
}

/**
 * Whether a probe whose percentile was `loadedMs` during a load stayed untouched by it.
 *
 * @param {UntouchedRule} rule
 * @param {number} loadedMs
 */
export function isUntouched(rule, loadedMs) {
  return loadedMs < rule.maximumMillis;
}

/**
 * The untouched rule in words, as the Java runner's report states it.
 *
 * @param {UntouchedRule} rule
 */
export function describeUntouched(rule) {
  const names = rule.probes.length === 1 ? rule.probes[0]
    : `${rule.probes.slice(0, -1).join(', ')} and ${rule.probes[rule.probes.length - 1]}`;
  return `untouched when the ${names} probe${rule.probes.length === 1 ? ' keeps its' : 's keep their'} `
    + `p${rule.percentile} under ${rule.maximumMillis} ms`;
}

/**
 * How evenly a probe's answers in a window came through the target's event loops: each of them
 * must serve at least `leastShare` of its even part (answers / event loops). Null when the answers
 * name no event loop, or the service does not say how many it has.
 *
 * @param {number} leastShare the plan's probes.leastEventLoopShare
 * @param {Record<string, number>} answersByEventLoop answers per event_loop tag ('0', '1', ..., 'other')
 * @param {number | undefined} eventLoops the service's, from /lab/info
 * @param {number} breakdown how many event loops the run tags by number (EVENT_LOOPS)
 * @returns {{ answers: number, leastAnswers: number, short: string[], judged: number } | null}
 *   short: the event loops under leastAnswers; judged: how many were counted one by one
 */
export function eventLoopCoverage(leastShare, answersByEventLoop, eventLoops, breakdown) {
  const answers = Object.values(answersByEventLoop).reduce((sum, n) => sum + n, 0);
  if (answers === 0 || eventLoops === undefined || eventLoops < 1) {
    return null;
  }
  const leastAnswers = leastShare * (answers / eventLoops);
  // Loops past the breakdown share the 'other' tag: only those counted one by one are judged.
  const judged = Math.min(eventLoops, breakdown);
  const short = [];
  for (let loop = 0; loop < judged; loop++) {
    if ((answersByEventLoop[String(loop)] || 0) < leastAnswers) {
      short.push(String(loop));
    }
  }
  return { answers, leastAnswers, short, judged };
}

/**
 * The event-loop rule in words.
 *
 * @param {number} leastShare
 */
export function describeEventLoopCoverage(leastShare) {
  return `every event loop answers at least ${shareInWords(leastShare)} of its even part of each probe's answers`;
}

/** @param {number} share */
function shareInWords(share) {
  const words = { 1: 'all', 0.5: 'half', 0.25: 'a quarter', 0.2: 'a fifth', 0.1: 'a tenth' };
  return /** @type {Record<number, string>} */ (words)[share] || `${share * 100}%`;
}
