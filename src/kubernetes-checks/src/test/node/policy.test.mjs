// The lab's rules for its manifests, on every render, and each rule failing on a fixture that
// breaks it.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyPatch, brokenFixture, brokenRender, fixture } from './checks/fixtures.mjs';
import {
  checkImages, checkLabDeployments, checkLabels, checkLoadGenerators, checkNamesAndNamespace, checkNamespaceEnforcesRestricted, checkProbes,
  checkReferences, checkRestricted, checkSecurity, checkSelectors, parseQuantity, pods,
} from './checks/policy.mjs';
import { K6_KUSTOMIZATIONS, LAB_KUSTOMIZATIONS, renderFor } from './checks/render.mjs';

const CHECKS = {
  namespace: (/** @type {any[]} */ o) => checkNamesAndNamespace(o, []),
  labels: checkLabels,
  labDeployments: checkLabDeployments,
  probes: checkProbes,
  selectors: checkSelectors,
  references: (/** @type {any[]} */ o, /** @type {any[]} */ available = []) => checkReferences(o, available),
  images: checkImages,
  security: checkSecurity,
  restricted: checkRestricted,
  namespaceEnforcesRestricted: checkNamespaceEnforcesRestricted,
  loadGenerators: checkLoadGenerators,
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
    ['deployment-requests-not-limits', 'labDeployments', /cpu request 2 != limit 4000m|cpu request is 2, not 4/],
    ['deployment-image-without-tag', 'images', /image starvation-lab has no tag/],
    ['deployment-probe-wrong-path', 'probes', /readinessProbe calls \/health, the service serves \/q\/health\/ready/],
    ['deployment-selector-mismatch', 'selectors', /Deployment starvation-lab\/lab-pinned: selector .* does not match its pod template/],
    ['deployment-missing-configmap', 'references', /refers to ConfigMap lab-experimnt, which is not in the render/],
    ['deployment-insecure', 'security', /allowPrivilegeEscalation must be false[\s\S]*readOnlyRootFilesystem must be true/],
    ['deployment-insecure', 'restricted', /container lab: allowPrivilegeEscalation must be false/],
    ['deployment-not-restricted', 'restricted',
      /hostNetwork must not be true[\s\S]*volume host is of type hostPath[\s\S]*pod runAsNonRoot false[\s\S]*adds capability SYS_ADMIN/],
    ['deployment-wrong-namespace', 'namespace', /Deployment default\/lab-pinned: namespace is default, not starvation-lab/],
    ['deployment-unlabelled', 'labels', /pod template: app.kubernetes.io\/part-of is not starvation-lab/],
    ['deployment-readiness-starvation', 'labDeployments', /LAB_STARVATION_READINESS_ENABLED would take the measured pod out of its Service/],
  ];
  for (const [name, check, message] of cases) {
    test(`broken/${name}.yaml fails the ${check} check`, () => {
      const violations = CHECKS[check](brokenFixture(name), []);
      assert.match(violations.join('\n'), message);
    });
  }

  /** @type {[string, string, RegExp][]} */
  const renderCases = [
    ['testrun-runner-burstable', 'k6',
      /TestRun starvation-lab\/starvation runner container k6: cpu request 500m != limit 2 \(throttled on a busy node/],
    ['job-k6-burstable', 'k6/job', /Job starvation-lab\/k6-starvation container k6: cpu request 500m != limit 2/],
  ];
  for (const [name, kustomization, message] of renderCases) {
    test(`broken/${name}.yaml on the ${kustomization} render fails the loadGenerators check`, (t) => {
      const objects = renderFor(t, kustomization);
      if (!objects) return;
      assert.deepEqual(checkLoadGenerators(objects), [], 'the render itself passes');
      assert.match(checkLoadGenerators(brokenRender(name, objects)).join('\n'), message);
    });
  }

  test('a fixture patch that no longer matches lab-good.yaml fails loudly instead of testing nothing', () => {
    const [deployment] = fixture('lab-good.yaml').filter((o) => o.kind === 'Deployment');
    assert.throws(() => applyPatch(deployment, [{ op: 'test', path: '/spec/replicas', value: 2 }]), /test failed/);
    assert.throws(() => applyPatch(deployment, [{ op: 'replace', path: '/spec/no/such/field', value: 1 }]), /does not resolve/);
  });

  test('each TestRun pod the operator builds is checked: a starter without a security context fails restricted', (t) => {
    const objects = renderFor(t, 'k6');
    if (!objects) return;
    const testRun = objects.find((o) => o.kind === 'TestRun');
    assert.deepEqual(pods(objects).filter((p) => p.owner === testRun).map((p) => p.testRunRole), ['runner', 'initializer', 'starter']);
    delete testRun.spec.starter.securityContext;
    delete testRun.spec.starter.containerSecurityContext.seccompProfile;
    delete testRun.spec.starter.containerSecurityContext.runAsNonRoot;
    assert.match(checkRestricted(objects).join('\n'),
      /TestRun starvation-lab\/starvation starter: restricted: container k6-curl: runAsNonRoot must be true[\s\S]*seccompProfile/);
  });

  test('an initializer left to the operator inherits the runner, and is checked as such', (t) => {
    const objects = renderFor(t, 'k6');
    if (!objects) return;
    const testRun = objects.find((o) => o.kind === 'TestRun');
    delete testRun.spec.initializer;
    testRun.spec.runner.containerSecurityContext.allowPrivilegeEscalation = true;
    assert.match(checkRestricted(objects).join('\n'), /initializer: restricted: container k6: allowPrivilegeEscalation must be false/);
  });

  test('a namespace that enforces only baseline', (t) => {
    const objects = renderFor(t, 'base');
    if (!objects) return;
    objects.find((o) => o.kind === 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce'] = 'baseline';
    assert.match(checkNamespaceEnforcesRestricted(objects).join('\n'), /enforce is baseline, not restricted/);
  });

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
