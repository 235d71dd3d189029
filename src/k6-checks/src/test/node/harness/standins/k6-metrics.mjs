// Stand-in for 'k6/metrics': custom metrics are declared in the init context and registered by name
// and type (the class's name: counter, rate, trend), for the summary fixture; their samples are recorded.

import { context } from '../runtime.mjs';

class Metric {
  constructor(name, isTime = false) {
    const type = new.target.name.toLowerCase();
    const known = context().metrics.get(name);
    if (context().stage !== 'init' || !/^[a-zA-Z_][a-zA-Z0-9_]{0,127}$/.test(name) || (known && known.type !== type)) {
      throw new Error(`k6: metric '${name}' (${type}) must be declared in the init context, with a valid name, as one type`);
    }
    context().metrics.set(name, { type, contains: isTime ? 'time' : 'default' });
    this.name = name;
  }

  add(value, tags = {}) {
    if (context().stage === 'init') {
      throw new Error(`k6: metric '${this.name}' cannot be added to in the init context`);
    }
    context().samples.push({ metric: this.name, value: Number(value), tags: { ...tags } });
  }
}

export class Counter extends Metric {}
export class Rate extends Metric {}
export class Trend extends Metric {}
