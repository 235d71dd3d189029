// Stand-in for 'k6/execution': the scenario the harness says is running, and test.abort(), which
// stops the "run" by throwing. Only the default export: k6 updates exec.scenario per iteration, so a
// named import of it (a snapshot here) fails to load instead of passing wrongly.

import { context, K6Abort } from '../runtime.mjs';

export default {
  get scenario() {
    return context().scenario;
  },
  test: {
    /** @param {string} [message] */
    abort(message) {
      throw new K6Abort(message || 'test aborted');
    },
  },
};
