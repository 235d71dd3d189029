// The Grafana dashboard in the rendered base (checks/dashboard.mjs), and the check failing on a
// dashboard broken on purpose.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkDashboard } from './checks/dashboard.mjs';
import { KUBERNETES, renderFor } from './checks/render.mjs';

const README = readFileSync(join(KUBERNETES, 'README.md'), 'utf8');

/** @param {import('node:test').TestContext} t */
function dashboardOf(t) {
  const objects = renderFor(t, 'base');
  if (!objects) return null;
  const configMap = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard === '1');
  assert.ok(configMap, 'a ConfigMap labelled grafana_dashboard: "1"');
  return JSON.parse(configMap.data['starvation-lab.json']);
}

describe('dashboard', () => {
  test('well-formed, on the variables, and the README names only its panels', (t) => {
    const dashboard = dashboardOf(t);
    if (!dashboard) return;
    assert.deepEqual(checkDashboard(dashboard, README), []);
  });
});

describe('broken fixtures fail', () => {
  test('overlapping panels, a hard-wired data source, a query without $namespace, a README naming a missing panel', (t) => {
    const dashboard = dashboardOf(t);
    if (!dashboard) return;
    const panels = dashboard.panels.filter((/** @type {any} */ p) => p.type !== 'row');
    panels[1].gridPos = { ...panels[0].gridPos };
    panels[2].datasource = { type: 'prometheus', uid: 'prometheus' };
    panels[3].targets[0].expr = 'sum(rate(jvm_threads_virtual_pinned_seconds_count[1m]))';
    const violations = checkDashboard(dashboard, `${README}\nSee **Carrier heat map**.\n`).join('\n');
    assert.match(violations, /overlaps/);
    assert.match(violations, /does not use \$\{datasource\}/);
    assert.match(violations, /ignores \$namespace/);
    assert.match(violations, /names "Carrier heat map", which is no panel/);
  });
});
