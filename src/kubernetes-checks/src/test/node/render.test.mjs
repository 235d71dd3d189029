// Every kustomization renders, holds the objects the contract names, and each overlay changes
// what its comment says and nothing else.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkNamesAndNamespace } from './checks/policy.mjs';
import { K6_KUSTOMIZATIONS, LAB_KUSTOMIZATIONS, OVERLAYS, renderFor } from './checks/render.mjs';

const LAB_OBJECTS = /** @type {[string, string][]} */ ([
  ['Namespace', 'starvation-lab'], ['Deployment', 'lab-pinned'], ['Deployment', 'lab-unpinned'],
  ['Service', 'lab-pinned'], ['Service', 'lab-unpinned'], ['StatefulSet', 'postgres'], ['Service', 'postgres'],
  ['NetworkPolicy', 'postgres'], ['ConfigMap', 'lab-experiment'], ['ServiceMonitor', 'starvation-lab'],
  ['PrometheusRule', 'starvation-lab'], ['ConfigMap', 'starvation-lab-dashboard'],
]);

/** @type {Record<string, [string, string][]>} */
const K6_OBJECTS = {
  k6: [['ConfigMap', 'k6-scripts'], ['TestRun', 'starvation']],
  'k6/job': [['ConfigMap', 'k6-scripts'], ['Job', 'k6-starvation']],
  'k6/scripts': [['ConfigMap', 'k6-scripts']],
};

/** What each overlay promises: image tag, JVM flags, and the load it asks k6 for. */
const OVERLAY_EXPECTATIONS = {
  'overlays/jdk21': { tag: 'jdk21', flags: '', experiment: { EXPERIMENT: 'jdk21', PINNED_MODE: 'pinned' } },
  'overlays/jdk25': { tag: 'jdk25', flags: '', experiment: { EXPERIMENT: 'jdk25', PINNED_MODE: 'native' } },
  'overlays/jdk25-legacy-locking': { tag: 'jdk25', flags: '-XX:LockingMode=1', experiment: { EXPERIMENT: 'jdk25-legacy-locking', PINNED_MODE: 'pinned' } },
  'overlays/jdk25-platform-pollers': { tag: 'jdk25', flags: '-Djdk.pollerMode=1', experiment: { EXPERIMENT: 'jdk25-platform-pollers', PINNED_MODE: 'native', DOWNSTREAM: 'db' } },
  'overlays/jdk21-parallelism-64': { tag: 'jdk21', flags: '-Djdk.virtualThreadScheduler.parallelism=64', experiment: { EXPERIMENT: 'jdk21-parallelism-64', PINNED_MODE: 'pinned', STARVING_MODES: '' } },
  'overlays/jdk21-max-pool-256': { tag: 'jdk21', flags: '-Djdk.virtualThreadScheduler.maxPoolSize=256', experiment: { EXPERIMENT: 'jdk21-max-pool-256', PINNED_MODE: 'pinned' } },
};

/**
 * @param {any[]} objects
 * @param {string} name
 */
function labContainer(objects, name) {
  return objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name).spec.template.spec.containers[0];
}

describe('lab kustomizations render with the default load restrictor (kubectl apply -k)', () => {
  for (const kustomization of LAB_KUSTOMIZATIONS) {
    test(kustomization, (t) => {
      const objects = renderFor(t, kustomization);
      if (!objects) return;
      assert.deepEqual(checkNamesAndNamespace(objects, LAB_OBJECTS), []);
    });
  }
});

describe('k6 kustomizations render with --load-restrictor=LoadRestrictionsNone', () => {
  for (const kustomization of K6_KUSTOMIZATIONS) {
    test(kustomization, (t) => {
      const objects = renderFor(t, kustomization);
      if (!objects) return;
      assert.deepEqual(checkNamesAndNamespace(objects, K6_OBJECTS[kustomization]), []);
    });
  }
});

describe('overlays', () => {
  test('every overlay on disk has its expectations here', () => {
    assert.deepEqual(OVERLAYS, Object.keys(OVERLAY_EXPECTATIONS).sort());
  });

  for (const [overlay, expected] of Object.entries(OVERLAY_EXPECTATIONS)) {
    test(`${overlay} runs starvation-lab:${expected.tag} with "${expected.flags}"`, (t) => {
      const objects = renderFor(t, overlay);
      if (!objects) return;
      for (const name of ['lab-pinned', 'lab-unpinned']) {
        const container = labContainer(objects, name);
        assert.equal(container.image, `starvation-lab:${expected.tag}`, name);
        const flags = container.env.find((/** @type {any} */ e) => e.name === 'JAVA_TOOL_OPTIONS');
        assert.equal(flags?.value ?? '', expected.flags, name);
      }
      const experiment = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'lab-experiment');
      for (const [key, value] of Object.entries(expected.experiment)) {
        assert.equal(experiment.data[key], value, key);
      }
    });

    test(`${overlay} differs from the base only in the lab pods' image and flags and in lab-experiment`, (t) => {
      const base = renderFor(t, 'base');
      const objects = renderFor(t, overlay);
      if (!base || !objects) return;
      const strip = (/** @type {any[]} */ list) => list
        .filter((o) => !(o.kind === 'ConfigMap' && o.metadata.name === 'lab-experiment'))
        .map((o) => {
          if (o.kind === 'Deployment') {
            const c = o.spec.template.spec.containers[0];
            c.image = '(image)';
            c.env = c.env.filter((/** @type {any} */ e) => e.name !== 'JAVA_TOOL_OPTIONS');
          }
          return o;
        });
      assert.deepEqual(strip(objects), strip(base));
    });
  }

  test('lab-pinned and lab-unpinned are the same pod under two names', (t) => {
    const objects = renderFor(t, 'base');
    if (!objects) return;
    const podOf = (/** @type {string} */ name) => {
      const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
      const template = structuredClone(deployment.spec.template);
      delete template.metadata.labels['app.kubernetes.io/instance'];
      return template;
    };
    assert.deepEqual(podOf('lab-pinned'), podOf('lab-unpinned'));
  });
});
