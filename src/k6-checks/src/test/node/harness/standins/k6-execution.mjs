// Stand-in for 'k6/execution': the scenario, VU and instance the harness says are running, and
// test.abort(), which stops the "run" by throwing.

import { context, K6Abort } from '../context.mjs';

const execution = {
  get scenario() {
    return context().exec.scenario;
  },
  get vu() {
    return context().exec.vu;
  },
  get instance() {
    return context().exec.instance;
  },
  test: {
    /** @param {string} [message] */
    abort(message) {
      throw new K6Abort(message || 'test aborted');
    },
    /** @param {string} [message] */
    fail(message) {
      context().logs.push({ level: 'fail', message: message || 'test failed' });
    },
    get options() {
      return context().options;
    },
  },
};

// Only the default export: named imports of scenario/vu/instance would be snapshots here, while
// k6 updates them per iteration, so a script using them fails to load instead of passing wrongly.
export default execution;
