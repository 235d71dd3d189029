// Every rendered object against the Kubernetes and prometheus-operator schemas (kubernetes-models)
// and the TestRun against checks/testrun.schema.json, unknown fields rejected.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Deployment } from 'kubernetes-models/apps/v1';
import { brokenFixture, fixture } from './checks/fixtures.mjs';
import { K6_KUSTOMIZATIONS, LAB_KUSTOMIZATIONS, renderFor } from './checks/render.mjs';
import { validateObject } from './checks/schema.mjs';

/** @param {any[]} objects */
async function problemsOf(objects) {
  return (await Promise.all(objects.map(validateObject))).flat();
}

describe('rendered objects are valid and have no unknown fields', () => {
  for (const kustomization of [...LAB_KUSTOMIZATIONS, ...K6_KUSTOMIZATIONS]) {
    test(kustomization, async (t) => {
      const objects = renderFor(t, kustomization);
      if (!objects) return;
      assert.deepEqual(await problemsOf(objects), []);
    });
  }
});

describe('broken fixtures fail', () => {
  test('the good lab fixture passes (control)', async () => {
    assert.deepEqual(await problemsOf(fixture('lab-good.yaml')), []);
  });

  test('a misspelled field (imagePullPolicyy) that the models alone accept', async () => {
    const objects = brokenFixture('deployment-unknown-field');
    const deployment = objects.find((o) => o.kind === 'Deployment');
    assert.doesNotThrow(() => new Deployment(deployment).validate(), 'the models accept unknown fields');
    assert.match((await problemsOf(objects)).join('\n'), /unknown field \.spec\.template\.spec\.containers\[0\]\.imagePullPolicyy/);
  });

  test('a TestRun with a field the k6-operator does not have (runner.serviceAccount)', async () => {
    assert.match((await problemsOf(fixture('testrun-unknown-field.yaml'))).join('\n'), /TestRun .*unknown field \.spec\.runner\.serviceAccount/);
  });

  test('a wrongly typed value', async () => {
    const objects = fixture('lab-good.yaml');
    objects.find((o) => o.kind === 'Deployment').spec.replicas = 'one';
    assert.match((await problemsOf(objects)).join('\n'), /\.spec\.replicas must be integer/);
  });

  test('an apiVersion/kind no schema knows', async () => {
    assert.match((await problemsOf([{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }])).join('\n'), /no schema known/);
  });
});
