// What each work mode does to the service, predicted from the JVM's facts (/lab/info:
// synchronizedPins, nativePinAvailable, virtualPollers) before anything is measured: the one place
// in the k6 suite that says which mode starves on which JVM. The thresholds, setup() and the report
// all ask it. It is judged on cases/prediction-cases.json, as the Java runner's predictions are.
// Pure functions, no k6 imports.

/**
 * @typedef {'starves' | 'collapses' | 'free' | '501'} Outcome
 *   starves: the plan's rule, throughput at the carrier model; collapses: under COLLAPSE_BELOW of the
 *   model; free: the probe stays fast; 501: the JVM cannot run the mode
 * @typedef {{ synchronizedPins?: unknown, nativePinAvailable?: unknown, virtualPollers?: unknown }} Facts
 * @typedef {{ outcome: Outcome | 'unknown', why: string }} Prediction
 */

/** Under this share of the carrier model a starved load has collapsed (the Java runner's JdkMatrix.COLLAPSE_BELOW). */
export const COLLAPSE_BELOW = 0.5;

/** Every combination of the facts a prediction reads, for what holds whatever the JVM. */
const EVERY_JVM = [true, false].flatMap((synchronizedPins) => [true, false].flatMap((nativePinAvailable) =>
  [true, false].map((virtualPollers) => ({ synchronizedPins, nativePinAvailable, virtualPollers }))));

/**
 * What a load of `mode` against `downstream` does on a JVM with these facts.
 *
 * @param {string} mode
 * @param {string} downstream
 * @param {Facts | null} facts
 * @returns {Prediction}
 */
export function predict(mode, downstream, facts) {
  switch (mode) {
    case 'unpinned': return { outcome: 'free', why: 'a blocked virtual thread unmounts' };
    case 'reentrant': return { outcome: 'free', why: 'ReentrantLock never pins' };
    case 'platform': return { outcome: 'free', why: 'platform threads: the carriers are not involved' };
    case 'cpu': return { outcome: 'starves', why: 'computation holds its carrier on every JDK (no preemption)' };
    case 'native': {
      const ffm = facts ? facts.nativePinAvailable : undefined;
      if (ffm === false) {
        return { outcome: '501', why: 'native needs FFM (JDK 22+): this JVM answers 501' };
      }
      return ffm === true ? heldOnIo('the wait inside an FFM upcall pins its carrier', downstream, facts)
        : { outcome: 'unknown', why: '/lab/info does not say whether this JVM has FFM (nativePinAvailable)' };
    }
    case 'pinned': {
      const pins = facts ? facts.synchronizedPins : undefined;
      if (pins === false) {
        return { outcome: 'free', why: 'synchronized does not pin on this JVM (synchronizedPins=false; -XX:LockingMode=1 brings it back on JDK 24-25)' };
      }
      return pins === true ? heldOnIo('synchronized pins on this JVM (synchronizedPins=true)', downstream, facts)
        : { outcome: 'unknown', why: '/lab/info does not say whether synchronized pins (synchronizedPins)' };
    }
    default: return { outcome: 'unknown', why: `no prediction for mode ${mode}` };
  }
}

/**
 * What a load does whatever the JVM, as the thresholds must state it before setup() has read
 * /lab/info: the outcome every JVM agrees on, or 'depends'.
 *
 * @param {string} mode
 * @param {string} downstream
 * @returns {Outcome | 'depends'}
 */
export function predictForEveryJvm(mode, downstream) {
  const outcomes = new Set(EVERY_JVM.map((facts) => predict(mode, downstream, facts).outcome));
  const [only] = outcomes;
  return outcomes.size === 1 && only !== 'unknown' ? only : 'depends';
}

/**
 * Whether a load of `mode` runs on the threads that serve `probe`, so that the probe is recorded,
 * not judged by the untouched rule: cpu work burns every core, platform work fills the worker pool.
 *
 * @param {string} mode
 * @param {string} probe
 */
export function sharesThreadsWith(mode, probe) {
  return mode === 'cpu' || (mode === 'platform' && probe === 'worker');
}

/**
 * A carrier held while the work waits: on the database, from JDK 22 the socket read waits for an
 * I/O poller that is itself a virtual thread, and so for a carrier.
 *
 * @param {string} holds
 * @param {string} downstream
 * @param {Facts | null} facts
 * @returns {Prediction}
 */
function heldOnIo(holds, downstream, facts) {
  if (downstream !== 'db') {
    return { outcome: 'starves', why: holds };
  }
  const pollers = facts ? facts.virtualPollers : undefined;
  if (pollers === true) {
    return { outcome: 'collapses', why: `${holds}, and the I/O pollers are virtual threads: the held carriers wait on a socket `
      + 'read for a poller that needs a carrier' };
  }
  return pollers === false ? { outcome: 'starves', why: `${holds}; the I/O pollers are platform threads` }
    : { outcome: 'unknown', why: `${holds}; /lab/info does not say whether the I/O pollers are virtual threads (virtualPollers)` };
}
