// Every kustomization renders with the objects the contract names, valid against the schemas with no
// unknown field, keeping the rules of checks/policy.mjs and the collector; each overlay changes what
// it says and nothing else; k6-scripts carries the suite within a ConfigMap's size. Each rule fails on
// a fixture broken for it.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { ANNOTATIONS_LIMIT, checkApplySizes, checkSizing, CONFIGMAP_LIMIT } from './checks/cluster.mjs';
import { brokenRender, fixture } from './checks/fixtures.mjs';
import { checkCollector, DOCKERFILE_OF, ergonomicCollector } from './checks/images.mjs';
import { checkFlows, DEFAULT_DENY, installedNamespaces } from './checks/network.mjs';
import { checkNamesAndNamespace, checkPolicy, checkRestrictedV2 } from './checks/policy.mjs';
import { applyChecks } from './checks/readme-walk.mjs';
import { K6_KUSTOMIZATIONS, KUBERNETES, LAB_KUSTOMIZATIONS, onRenders, OVERLAYS, REPO, render, requireTool } from './checks/render.mjs';
import { validateObject } from './checks/schema.mjs';

const LAB_OBJECTS = /** @type {[string, string][]} */ ([['Namespace', 'starvation-lab'], ['Deployment', 'lab-pinned'], ['Deployment', 'lab-unpinned'],
  ['Service', 'lab-pinned'], ['Service', 'lab-unpinned'], ['StatefulSet', 'postgres'], ['Service', 'postgres'], ['NetworkPolicy', 'postgres'],
  ['ConfigMap', 'lab-experiment'], ['ServiceMonitor', 'starvation-lab'], ['PrometheusRule', 'starvation-lab'], ['ConfigMap', 'starvation-lab-dashboard'],
  ['NetworkPolicy', 'lab']]);
const K6_OBJECTS = /** @type {Record<string, [string, string][]>} */ ({ k6: [['ConfigMap', 'k6-scripts'], ['TestRun', 'starvation'],
  ['NetworkPolicy', 'k6-load'], ['NetworkPolicy', 'k6-runner'], ['NetworkPolicy', 'k6-starter']],
  'k6/job': [['ConfigMap', 'k6-scripts'], ['Job', 'k6-starvation'], ['NetworkPolicy', 'k6-load']], 'k6/scripts': [['ConfigMap', 'k6-scripts']] });
/** What each overlay promises: image tag, JVM flags, and the load it asks k6 for. */
const OVERLAY_EXPECTATIONS = {
  'overlays/jdk21': { tag: 'jdk21', flags: '', experiment: { PINNED_MODE: 'pinned' } },
  'overlays/jdk25': { tag: 'jdk25', flags: '', experiment: { PINNED_MODE: 'native' } },
  'overlays/jdk25-legacy-locking': { tag: 'jdk25', flags: '-XX:LockingMode=1', experiment: { PINNED_MODE: 'pinned' } },
  'overlays/jdk25-platform-pollers': { tag: 'jdk25', flags: '-Djdk.pollerMode=1',
    experiment: { PINNED_MODE: 'native', DOWNSTREAM: 'db' } },
  'overlays/jdk21-parallelism-64': { tag: 'jdk21', flags: '-Djdk.virtualThreadScheduler.parallelism=64',
    experiment: { PINNED_MODE: 'pinned', STARVING_MODES: '' } },
  'overlays/jdk21-max-pool-256': { tag: 'jdk21', flags: '-Djdk.virtualThreadScheduler.maxPoolSize=256',
    experiment: { PINNED_MODE: 'pinned' } },
};
/** Where the README installs the stack and the operator, whose pods the NetworkPolicies admit. */
const INSTALLED = installedNamespaces(readFileSync(join(KUBERNETES, 'README.md'), 'utf8'));
/** The suite's files: every k6/*.js and k6/plan.json. */
const SUITE = readdirSync(join(REPO, 'k6')).filter((f) => f.endsWith('.js') || f === 'plan.json').sort();

const schemaProblems = async (objects) => (await Promise.all(objects.map(validateObject))).flat();
/**
 * Every rule a render keeps: the contract's objects, what the README walk's apply meets (a k6 render
 * applied server-side beside the lab, the lab client-side), the lab's collector.
 */
const renderProblems = async (objects, kustomization, lab) => {
  const k6 = kustomization.startsWith('k6');
  return [...checkNamesAndNamespace(objects, K6_OBJECTS[kustomization] ?? LAB_OBJECTS), ...(await applyChecks(objects, k6 ? lab : [], k6)),
    ...(k6 ? [] : checkCollector(objects))];
};
const find = (objects, kind, name) => objects.find((o) => o.kind === kind && o.metadata.name === name);

describe('every render', () => {
  for (const kustomization of [...LAB_KUSTOMIZATIONS, ...K6_KUSTOMIZATIONS]) {
    test(`${kustomization}: the contract's objects, valid, and keeping the rules`, onRenders([kustomization, 'base'], async (objects, lab) => {
      assert.deepEqual(await renderProblems(objects, kustomization, lab), []);
    }));
  }

  for (const kustomization of LAB_KUSTOMIZATIONS) {
    for (const load of ['k6', 'k6/job']) {
      test(`${kustomization} with ${load}: every flow the lab needs passes its NetworkPolicies, with a namespace default-deny and without; nothing else reaches /work`,
        onRenders([kustomization, load], (lab, k6) => {
        assert.deepEqual(checkFlows([...lab, ...k6], INSTALLED, [DEFAULT_DENY]), []);
        assert.deepEqual(checkFlows([...lab, ...k6], INSTALLED, []), []);
      }));
    }
  }

  test('components/openshift: no fixed UID, GID or fsGroup in the lab and either load, every rule kept, every flow allowed (DNS on 5353 too)', (t) => {
    const kubectl = requireTool(t, 'kubectl');
    if (!kubectl) return;
    const root = mkdtempSync(join(tmpdir(), 'starvation-lab-openshift-'));
    const ownRender = (name, resource) => {
      mkdirSync(join(root, name));
      const from = (/** @type {string} */ path) => relative(join(root, name), join(KUBERNETES, path));
      writeFileSync(join(root, name, 'kustomization.yaml'), `resources:\n  - ${from(resource)}\ncomponents:\n  - ${from('components/openshift')}\n`);
      return render(kubectl, join(root, name), resource.startsWith('k6'));
    };
    const lab = ownRender('lab', 'overlays/jdk25');
    assert.match(checkRestrictedV2(render(kubectl, 'base')).join('\n'), /Deployment starvation-lab\/lab-pinned: restricted-v2: pod runAsUser 185[\s\S]*StatefulSet starvation-lab\/postgres: restricted-v2: pod fsGroup 999/);
    assert.deepEqual([...checkRestrictedV2(lab), ...checkPolicy(lab)], []);
    for (const load of ['k6', 'k6/job']) {
      const k6 = ownRender(load.replace('/', '-'), load);
      assert.match(checkRestrictedV2(render(kubectl, load, true)).join('\n'), /restricted-v2: pod runAsUser 12345/, load);
      assert.deepEqual([...checkRestrictedV2(k6), ...checkPolicy(k6, lab)], [], load);
      assert.deepEqual(checkFlows([...lab, ...k6], INSTALLED), [], load);
      assert.ok(k6.filter((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'k6-load')
        .every((p) => p.spec.egress.some((/** @type {any} */ r) => r.ports?.some((/** @type {any} */ port) => port.port === 5353))), load);
    }
  });

  test("lab-experiment holds only knobs the k6 suite reads (k6/README.md's table, which src/k6-checks holds to the scripts)", onRenders(LAB_KUSTOMIZATIONS, (...renders) => {
    const knobs = new Set([...readFileSync(join(REPO, 'k6', 'README.md'), 'utf8').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]));
    const unread = (/** @type {any[]} */ objects) => Object.keys(find(objects, 'ConfigMap', 'lab-experiment').data).filter((k) => !knobs.has(k));
    for (const objects of renders.slice(0, -1)) assert.deepEqual(unread(objects), []);
    const stale = renders[0];
    find(stale, 'ConfigMap', 'lab-experiment').data.EXPERIMENT = 'jdk21';
    assert.deepEqual(unread(stale), ['EXPERIMENT']);
  }));

  test('every overlay on disk has its expectations here', () => {
    assert.deepEqual(OVERLAYS, Object.keys(OVERLAY_EXPECTATIONS).sort());
  });

  for (const [overlay, expected] of Object.entries(OVERLAY_EXPECTATIONS)) {
    test(`${overlay}: starvation-lab:${expected.tag} with "${expected.flags}", and the base otherwise`, onRenders(['base', overlay], (base, objects) => {
      for (const name of ['lab-pinned', 'lab-unpinned']) {
        const container = find(objects, 'Deployment', name).spec.template.spec.containers[0];
        assert.equal(container.image, `starvation-lab:${expected.tag}`, name);
        assert.equal(container.env.find((/** @type {any} */ e) => e.name === 'JAVA_TOOL_OPTIONS')?.value ?? '', expected.flags, name);
      }
      for (const [key, value] of Object.entries(expected.experiment)) assert.equal(find(objects, 'ConfigMap', 'lab-experiment').data[key], value, key);
      const strip = (/** @type {any[]} */ list) => list.filter((o) => o.metadata.name !== 'lab-experiment').map((o) => {
        for (const c of o.kind === 'Deployment' ? o.spec.template.spec.containers : []) {
          c.image = '(image)';
          c.env = c.env.filter((/** @type {any} */ e) => e.name !== 'JAVA_TOOL_OPTIONS');
        }
        return o;
      });
      assert.deepEqual(strip(objects), strip(base));
    }));
  }

});

describe('the load', () => {
  test('k6-scripts holds every file of the suite under its own name', onRenders(['k6/scripts'], (objects) => {
    assert.deepEqual(Object.keys(find(objects, 'ConfigMap', 'k6-scripts').data).sort(), SUITE);
  }));

  test('the TestRun runs starvation.js with one runner, the Job the same script and image, both against the lab', onRenders(['k6', 'k6/job'], (operator, plain) => {
    const { spec } = find(operator, 'TestRun', 'starvation');
    assert.equal(spec.parallelism, 1, 'runners do not aggregate thresholds');
    assert.equal(spec.script.configMap.file, 'starvation.js');
    const k6 = find(plain, 'Job', 'k6-starvation').spec.template.spec.containers.find((/** @type {any} */ c) => c.name === 'k6');
    assert.match(k6.command.join(' '), /k6 run \/scripts\/starvation\.js/);
    assert.equal(k6.image, spec.runner.image);
    for (const env of [spec.runner.env, k6.env]) {
      const byName = Object.fromEntries(env.map((/** @type {any} */ e) => [e.name, e.value]));
      assert.deepEqual([byName.PINNED_URL, byName.UNPINNED_URL, Boolean(byName.REPORT_DIR)], ['http://lab-pinned:8080', 'http://lab-unpinned:8080', true]);
    }
  }));

  test('the runner image is the k6 release the suite is typed against (@types/k6 in src/k6-checks/src/test/node)', onRenders(['k6'], (objects) => {
    const suite = JSON.parse(readFileSync(join(REPO, 'src', 'k6-checks', 'src', 'test', 'node', 'package.json'), 'utf8'));
    const [major, minor] = String(suite.devDependencies?.['@types/k6'] ?? suite.dependencies?.['@types/k6'] ?? '').replace(/^[^0-9]*/, '').split('.');
    assert.ok(major, 'src/k6-checks/src/test/node/package.json pins @types/k6');
    assert.match(find(objects, 'TestRun', 'starvation').spec.runner.image, new RegExp(`^grafana/k6:${major}\\.${minor}\\.`));
  }));
});

describe('broken fixtures fail', () => {
  test('the good lab fixture passes (control)', async () => {
    const objects = fixture('lab-good.yaml');
    assert.deepEqual([...(await schemaProblems(objects)), ...checkPolicy(objects), ...checkCollector(objects)], []);
  });

  test('schemas: a misspelled field the models alone accept, a TestRun field the operator has not, a wrong type, an unknown kind', async () => {
    assert.match((await schemaProblems(brokenRender('deployment-unknown-field'))).join('\n'), /unknown field \.spec\.template\.spec\.containers\[0\]\.imagePullPolicyy/);
    assert.match((await schemaProblems(fixture('testrun-unknown-field.yaml'))).join('\n'), /TestRun .*unknown field \.spec\.runner\.serviceAccount/);
    const typed = fixture('lab-good.yaml');
    find(typed, 'Deployment', 'lab-pinned').spec.replicas = 'one';
    assert.match((await schemaProblems(typed)).join('\n'), /\.spec\.replicas must be integer/);
    assert.match((await schemaProblems([{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }])).join('\n'), /no schema known/);
  });

  const cases = [
    ['deployment-requests-not-limits', /cpu request 2 != limit 4000m \(Guaranteed/],
    ['deployment-probe-wrong-path', /readinessProbe calls \/health, the service serves \/q\/health\/ready/],
    ['deployment-selector-mismatch', /Deployment starvation-lab\/lab-pinned: selector .* does not match its pod template/],
    ['deployment-missing-configmap', /refers to ConfigMap lab-experimnt, which is not in the render/],
    ['deployment-not-restricted',
      /hostNetwork must not be true[\s\S]*volume host is of type hostPath[\s\S]*pod runAsNonRoot false[\s\S]*adds capability SYS_ADMIN[\s\S]*readOnlyRootFilesystem must be true/],
    ['deployment-wrong-namespace', /Deployment default\/lab-pinned: namespace is default, not starvation-lab/],
    ['deployment-unlabelled', /pod template: app.kubernetes.io\/part-of is not starvation-lab/],
    ['deployment-readiness-starvation', /LAB_STARVATION_READINESS_ENABLED would take the measured pod out of its Service/],
    ['deployment-serial-gc', /Serial and G1 named together .*: the JVM refuses to start/],
    ['service-selects-no-pod', /Service starvation-lab\/lab-pinned: selector .* matches no pod/],
    ['deployment-url-names-no-service', /host postgresql is no Service in the render/],
    ['deployment-image-latest', /image starvation-lab:latest uses latest/],
    ['secret-without-password', /Secret postgres-credentials has no key password/],
    ['experiment-without-cpus', /lab-pinned container lab: lab-experiment sets no CPUS: the load would not check the pod's carriers/],
    ['experiment-cpus-not-the-limit', /lab-experiment's CPUS 8 is not its cpu limit 4000m/],
  ];
  for (const [name, message] of cases) {
    test(`broken/${name}.yaml`, () => {
      const objects = brokenRender(name);
      assert.match([...checkPolicy(objects), ...checkCollector(objects)].join('\n'), message);
    });
  }

  const renderCases = [
    ['job-k6-burstable', 'k6/job', [/Job starvation-lab\/k6-starvation container k6: cpu request 500m != limit 2/]],
    ['testrun-starter-unpinned', 'k6', [/starter container k6-curl: no image/]],
    ['testrun-script-misspelt', 'k6', [/ConfigMap k6-scripts has no key starvaton\.js/]],
    ['testrun-operator-pods', 'k6', [/starter: restricted: container k6-curl: runAsNonRoot must be true/,
      /initializer: restricted: container k6: allowPrivilegeEscalation must be false/, /runner: restricted: container report: allowPrivilegeEscalation must be false/,
      /runner container report: memory request 16Mi != limit 32Mi/, /TestRun starvation-lab\/starvation runner container k6: cpu request 500m != limit 2 \(Guaranteed/]],
    ['namespace-baseline', 'base', [/enforce is baseline, not restricted/]],
    ['servicemonitor-renamed', 'base', [/missing ServiceMonitor starvation-lab/]],
    ['deployment-pinned-alone-with-jmx', 'base', [/lab-pinned and lab-unpinned run different pods/]],
  ];
  for (const [name, kustomization, messages] of renderCases) {
    test(`broken/${name}.yaml on the ${kustomization} render`, onRenders([kustomization, 'base'], async (objects, lab) => {
      const violations = (await renderProblems(brokenRender(name, objects), kustomization, lab)).join('\n');
      for (const message of messages) assert.match(violations, message);
    }));
  }

  const networkCases = [
    ['networkpolicy-lab-wrong-port', 'k6', [/the load: starvation runner -> lab-pinned:8080\/TCP is refused by lab-pinned's ingress/,
      /the scrape: Prometheus \(monitoring\) -> lab-unpinned:8080\/TCP is refused by lab-unpinned's ingress/]],
    ['networkpolicy-prometheus-any-namespace', 'k6', [/the scrape: Prometheus \(monitoring\) -> lab-pinned:8080\/TCP is refused by lab-pinned's ingress/]],
    ['networkpolicy-lab-open', 'k6/job', [/\/work\/\{mode\}: a pod in namespace default -> lab-pinned:8080 is allowed, and must not be/,
      /\/work\/\{mode\}: Grafana \(monitoring\) -> lab-unpinned:8080 is allowed/]],
    ['networkpolicy-lab-no-dns', 'k6/job', [/the database: lab-pinned -> cluster DNS \(kube-system\):53\/UDP is refused by lab-pinned's egress/]],
    ['networkpolicy-runner-no-operator', 'k6', [/the operator's status calls: the k6-operator \(k6-operator-system\) -> starvation runner:6565\/TCP is refused by starvation runner's ingress/]],
    ['networkpolicy-starter-wrong-port', 'k6', [/the starter's PATCH: starvation starter -> starvation runner:6565\/TCP is refused by starvation starter's egress/]],
  ];
  for (const [name, load, messages] of networkCases) {
    test(`broken/${name}.yaml on the base and ${load} renders`, onRenders(['base', load], (lab, k6) => {
      const violations = checkFlows(brokenRender(name, [...lab, ...k6]), INSTALLED, [DEFAULT_DENY]).join('\n');
      for (const message of messages) assert.match(violations, message);
    }));
  }

  test("a namespace default-deny refuses the load its own policy lets out: the flows are judged under one", onRenders(['base', 'k6'], (lab, k6) => {
    const withoutEgress = [...lab, ...k6].filter((o) => o.metadata.name !== 'k6-load');
    assert.deepEqual(checkFlows(withoutEgress, INSTALLED, []), [], 'an open namespace lets the runner out');
    assert.match(checkFlows(withoutEgress, INSTALLED, [DEFAULT_DENY]).join('\n'), /the load: starvation runner -> lab-pinned:8080\/TCP is refused by starvation runner's egress/);
  }));

  test('the spread: kind keeps the runner Pending when its spread counts the tainted control plane; large nodes may share one without it',
    onRenders(['base', 'k6'], (lab, k6) => {
    const readme = readFileSync(join(KUBERNETES, 'README.md'), 'utf8');
    assert.deepEqual(checkSizing(readme, lab, k6), []);
    assert.match(checkSizing(readme, lab, brokenRender('testrun-spread-counts-tainted-nodes', k6)).join('\n'),
      /kind-cluster\.yaml: starvation runner stays Pending after/);
    assert.match(checkSizing(readme, brokenRender('deployment-not-spread', lab), k6).join('\n'),
      /on 3 nodes of 64 CPUs the scheduler may share a node: lab-unpinned on node 1, lab-pinned on node 1/);
  }));

  test("the collector: HotSpot's own choice, and Dockerfile.jvm without -XX:+UseG1GC runs Serial at the pods' 1 GiB", () => {
    assert.deepEqual([ergonomicCollector(4, 2 ** 30), ergonomicCollector(4, 2 ** 31), ergonomicCollector(1, 2 ** 33), ergonomicCollector(1.5, 2 ** 31)],
      ['Serial', 'G1', 'Serial', 'G1'], 'a quota of 1.5 CPUs is 2 processors');
    const dockerfile = join(mkdtempSync(join(tmpdir(), 'starvation-lab-collector-')), 'Dockerfile.jvm');
    writeFileSync(dockerfile, readFileSync(DOCKERFILE_OF['starvation-lab:jdk21'], 'utf8').replace('"-XX:+UseG1GC", ', ''));
    assert.match(checkCollector(fixture('lab-good.yaml'), () => dockerfile).join('\n'),
      /lab-pinned container lab: its JVM runs Serial \(no collector flag: HotSpot's choice at 4000m CPU and 1024Mi, not a server-class machine\)/);
  });

  test('a suite file the k6-scripts generator misses; a ConfigMap past 1 MiB, and one past 256 KiB applied client-side', (t) => {
    const kubectl = requireTool(t, 'kubectl');
    if (!kubectl) return;
    const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-scripts-'));
    writeFileSync(join(dir, 'kustomization.yaml'), readFileSync(join(KUBERNETES, 'k6/scripts/kustomization.yaml'), 'utf8')
      .replace(/^ *- \.\.\/\.\.\/\.\.\/k6\/lib-work\.js\n/m, '').replaceAll('../../../k6/', `${join(REPO, 'k6')}/`));
    const objects = render(kubectl, dir, true);
    assert.deepEqual(SUITE.filter((f) => !(f in find(objects, 'ConfigMap', 'k6-scripts').data)), ['lib-work.js']);
    find(objects, 'ConfigMap', 'k6-scripts').data['padding.js'] = 'x'.repeat(ANNOTATIONS_LIMIT);
    assert.deepEqual(checkApplySizes(objects, true), [], 'server-side keeps no copy');
    assert.match(checkApplySizes(objects, false).join('\n'), /ConfigMap starvation-lab\/k6-scripts: \d+ bytes of annotations with kubectl's .*, over 262144/);
    find(objects, 'ConfigMap', 'k6-scripts').data['padding.js'] = 'x'.repeat(CONFIGMAP_LIMIT);
    assert.match(checkApplySizes(objects, true).join('\n'), /ConfigMap starvation-lab\/k6-scripts: \d+ bytes of data, over a ConfigMap's 1048576/);
  });
});
