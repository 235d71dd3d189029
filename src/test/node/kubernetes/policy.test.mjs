// The lab's rules for its manifests, on every render, and each rule failing on a fixture that
// breaks it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  checkImages, checkLabDeployments, checkLabels, checkNamesAndNamespace, checkProbes, checkReferences,
  checkSecurity, checkSelectors, parseQuantity,
} from './checks/policy.mjs';
import { K6_KUSTOMIZATIONS, LAB_KUSTOMIZATIONS, parseObjects, renderFor } from './checks/render.mjs';

/** @param {string} name */
function fixture(name) {
  return parseObjects(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
}

const CHECKS = {
  namespace: (/** @type {any[]} */ o) => checkNamesAndNamespace(o, []),
  labels: checkLabels,
  labDeployments: checkLabDeployments,
  probes: checkProbes,
  selectors: checkSelectors,
  references: (/** @type {any[]} */ o, /** @type {any[]} */ available = []) => checkReferences(o, available),
  images: checkImages,
  security: checkSecurity,
};

describe('every render keeps the rules', () => {
  for (const kustomization of [...LAB_KUSTOMIZATIONS, ...K6_KUSTOMIZATIONS]) {
    test(kustomization, (t) => {
      const objects = renderFor(t, kustomization);
      // The k6 runners are applied next to the lab: their references resolve against it.
      const available = kustomization.startsWith('k6') ? renderFor(t, 'base') : [];
      if (!objects || !available) return;
      for (const [name, check] of Object.entries(CHECKS)) {
        assert.deepEqual(check(objects, available), [], name);
      }
    });
  }

  test('the lab Deployments get exactly 4 CPUs with requests = limits (Guaranteed QoS)', (t) => {
    for (const kustomization of LAB_KUSTOMIZATIONS) {
      const objects = renderFor(t, kustomization);
      if (!objects) return;
      for (const name of ['lab-pinned', 'lab-unpinned']) {
        const { resources } = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name).spec.template.spec.containers[0];
        assert.equal(parseQuantity(resources.requests.cpu), 4, `${kustomization} ${name}`);
        assert.deepEqual(resources.requests, resources.limits, `${kustomization} ${name}`);
      }
    }
  });
});

describe('broken fixtures fail', () => {
  test('the good lab fixture passes every check (control)', () => {
    const objects = fixture('lab-good.yaml');
    for (const [name, check] of Object.entries(CHECKS)) {
      assert.deepEqual(check(objects, []), [], name);
    }
  });

  /** @type {[string, keyof typeof CHECKS, RegExp][]} */
  const cases = [
    ['deployment-requests-not-limits.yaml', 'labDeployments', /cpu request 2 != limit 4000m|cpu request is 2, not 4/],
    ['deployment-image-without-tag.yaml', 'images', /image starvation-lab has no tag/],
    ['deployment-probe-wrong-path.yaml', 'probes', /readinessProbe calls \/health, the service serves \/q\/health\/ready/],
    ['deployment-selector-mismatch.yaml', 'selectors', /Deployment starvation-lab\/lab-pinned: selector .* does not match its pod template/],
    ['deployment-missing-configmap.yaml', 'references', /refers to ConfigMap lab-experimnt, which is not in the render/],
    ['deployment-insecure.yaml', 'security', /allowPrivilegeEscalation must be false[\s\S]*readOnlyRootFilesystem must be true/],
    ['deployment-wrong-namespace.yaml', 'namespace', /Deployment default\/lab-pinned: namespace is default, not starvation-lab/],
    ['deployment-unlabelled.yaml', 'labels', /pod template: app.kubernetes.io\/part-of is not starvation-lab/],
    ['deployment-readiness-starvation.yaml', 'labDeployments', /LAB_STARVATION_READINESS_ENABLED would take the measured pod out of its Service/],
  ];
  for (const [file, check, message] of cases) {
    test(`${file} fails the ${check} check`, () => {
      const violations = CHECKS[check](fixture(file), []);
      assert.match(violations.join('\n'), message);
    });
  }

  test('a Service that selects no pod, and a URL naming no Service', () => {
    const objects = fixture('lab-good.yaml');
    objects.find((o) => o.kind === 'Service' && o.metadata.name === 'lab-pinned').spec.selector['app.kubernetes.io/instance'] = 'lab-pinnned';
    assert.match(checkSelectors(objects).join('\n'), /Service starvation-lab\/lab-pinned: selector .* matches no pod/);
    const env = objects.find((o) => o.kind === 'Deployment').spec.template.spec.containers[0].env;
    env.find((/** @type {any} */ e) => e.name === 'QUARKUS_DATASOURCE_JDBC_URL').value = 'jdbc:postgresql://postgresql:5432/lab';
    assert.match(checkReferences(objects).join('\n'), /host postgresql is no Service in the render/);
  });

  test('a Secret key that does not exist', () => {
    const objects = fixture('lab-good.yaml');
    delete objects.find((o) => o.kind === 'Secret').stringData.password;
    assert.match(checkReferences(objects).join('\n'), /Secret postgres-credentials has no key password/);
  });

  test('a TestRun whose script is not in its ConfigMap', (t) => {
    const objects = renderFor(t, 'k6');
    const base = renderFor(t, 'base');
    if (!objects || !base) return;
    objects.find((o) => o.kind === 'TestRun').spec.script.configMap.file = 'starvaton.js';
    assert.match(checkReferences(objects, base).join('\n'), /ConfigMap k6-scripts has no key starvaton\.js/);
  });

  test('an image tagged latest', () => {
    const objects = fixture('lab-good.yaml');
    objects.find((o) => o.kind === 'Deployment').spec.template.spec.containers[0].image = 'starvation-lab:latest';
    assert.match(checkImages(objects).join('\n'), /uses latest/);
  });
});
