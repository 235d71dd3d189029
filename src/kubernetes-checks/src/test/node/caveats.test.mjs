// kubernetes/README.md warns of what makes a cluster differ from the lab (checks/caveats.mjs), and
// the check fails when a warning goes.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkCaveats } from './checks/caveats.mjs';
import { KUBERNETES, LAB_KUSTOMIZATIONS, renderFor } from './checks/render.mjs';

const README = readFileSync(join(KUBERNETES, 'README.md'), 'utf8');

/** The README without the bullet of "Where a cluster differs from the lab" that starts with `title` (in italics). */
function withoutBullet(/** @type {string} */ title) {
  const start = README.indexOf(`- *${title}`);
  assert.ok(start > 0, `the README has a bullet "${title}"`);
  const end = README.indexOf('\n- *', start + 1);
  return README.slice(0, start) + README.slice(end + 1);
}

describe('caveats', () => {
  for (const kustomization of LAB_KUSTOMIZATIONS) {
    test(`${kustomization}: the README warns of every way the cluster can differ`, (t) => {
      const objects = renderFor(t, kustomization);
      if (!objects) return;
      assert.deepEqual(checkCaveats(objects, README), []);
    });
  }
});

describe('broken fixtures fail', () => {
  /** @type {[string, RegExp][]} */
  const cases = [
    ['Nodes of exactly 4 vCPUs', /requests 4 whole CPUs, which a node of exactly 4 vCPUs never has allocatable/],
    ['PostgreSQL needs a default StorageClass', /claim data names no storageClassName/],
    ['Images run only on nodes of their CPU architecture', /built locally, for the builder's CPU architecture/],
  ];
  for (const [bullet, message] of cases) {
    test(`the README without "${bullet}"`, (t) => {
      const objects = renderFor(t, 'base');
      if (!objects) return;
      assert.match(checkCaveats(objects, withoutBullet(bullet)).join('\n'), message);
    });
  }

  test('a claim that names its class needs no default StorageClass (control)', (t) => {
    const objects = renderFor(t, 'base');
    if (!objects) return;
    objects.find((o) => o.kind === 'StatefulSet').spec.volumeClaimTemplates[0].spec.storageClassName = 'standard';
    assert.deepEqual(checkCaveats(objects, withoutBullet('PostgreSQL needs a default StorageClass')), []);
  });
});
