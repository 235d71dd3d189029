// Stand-in for 'k6/metrics': custom metrics are declared in the init context and registered by
// name and type, so the options check knows which metrics thresholds may name.

import { context } from '../context.mjs';

const NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,127}$/;

class Metric {
  /**
   * @param {string} type
   * @param {string} name
   * @param {boolean} [isTime]
   */
  constructor(type, name, isTime = false) {
    const ctx = context();
    if (ctx.stage !== 'init') {
      throw new Error(`k6: metric '${name}' must be declared in the init context`);
    }
    if (typeof name !== 'string' || !NAME.test(name)) {
      throw new Error(`k6: invalid metric name '${name}'`);
    }
    const known = ctx.metrics.get(name);
    if (known && known.type !== type) {
      throw new Error(`k6: metric '${name}' is already a ${known.type}, not a ${type}`);
    }
    ctx.metrics.set(name, { type, contains: isTime ? 'time' : 'default' });
    this.name = name;
  }

  /**
   * @param {number | boolean} value
   * @param {Record<string, string>} [tags]
   */
  add(value, tags = {}) {
    const ctx = context();
    if (ctx.stage === 'init') {
      throw new Error(`k6: metric '${this.name}' cannot be added to in the init context`);
    }
    ctx.samples.push({ metric: this.name, value: Number(value), tags: { ...tags } });
  }
}

export class Counter extends Metric {
  /** @param {string} name @param {boolean} [isTime] */
  constructor(name, isTime) { super('counter', name, isTime); }
}

export class Gauge extends Metric {
  /** @param {string} name @param {boolean} [isTime] */
  constructor(name, isTime) { super('gauge', name, isTime); }
}

export class Rate extends Metric {
  /** @param {string} name @param {boolean} [isTime] */
  constructor(name, isTime) { super('rate', name, isTime); }
}

export class Trend extends Metric {
  /** @param {string} name @param {boolean} [isTime] */
  constructor(name, isTime) { super('trend', name, isTime); }
}

export default { Counter, Gauge, Rate, Trend };
