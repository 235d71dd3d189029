// Each shell command of kubernetes/README.md, matched to the check that stands in for it here (no
// cluster, no Docker, no Helm repository). A command no recognizer knows is a failure, so the README
// cannot drift from what is checked. The heavy stand-in (a Dockerfile's build stage) is run by the
// test through `buildImage`, once per distinct build stage.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildLayout } from '../../../../../../k6/lib-layout.js';
import { checkJmxFlags, DIAGNOSE_JAR } from './diagnosis.mjs';
import { applyPatch } from './fixtures.mjs';
import { checkIntervals, KUBE_PROMETHEUS_STACK } from './intervals.mjs';
import {
  checkImages, checkLabDeployments, checkLabels, checkLoadGenerators, checkNamesAndNamespace, checkNamespaceEnforcesRestricted, checkProbes,
  checkReferences, checkRestricted, checkSecurity, checkSelectors,
} from './policy.mjs';
import { K6_KUSTOMIZATIONS, KUBERNETES, LAB_KUSTOMIZATIONS, NAMESPACE, REPO } from './render.mjs';
import { validateObject } from './schema.mjs';
import { words, splitTopLevel } from './readme.mjs';

/**
 * The k6-operator chart as pinned in the README. No chart can be downloaded here: these are the
 * documented values of grafana/k6-operator's charts/k6-operator (values.yaml and values.schema.json,
 * whose top level and nested objects admit no other keys), read from the repository for this check.
 */
export const K6_OPERATOR_CHART = {
  name: 'grafana/k6-operator',
  version: '4.2.0',
  /** @type {Record<string, 'boolean' | 'string' | 'integer' | 'object' | 'array'>} */
  values: {
    nameOverride: 'string', fullnameOverride: 'string', 'global.image.registry': 'string', 'global.image.pullSecrets': 'array',
    customAnnotations: 'object', podAnnotations: 'object', customLabels: 'object', podLabels: 'object', nodeSelector: 'object',
    affinity: 'object', tolerations: 'array', installCRDs: 'boolean', 'namespace.create': 'boolean',
    'metrics.serviceMonitor.enabled': 'boolean', 'metrics.serviceMonitor.namespace': 'string', 'metrics.serviceMonitor.interval': 'string',
    'prometheus.enabled': 'boolean', 'authProxy.enabled': 'boolean', 'authProxy.image.registry': 'string',
    'authProxy.image.repository': 'string', 'authProxy.image.tag': 'string', 'authProxy.image.pullPolicy': 'string',
    'authProxy.resources': 'object', 'authProxy.containerSecurityContext': 'object', 'manager.replicas': 'integer',
    'manager.serviceAccount.name': 'string', 'manager.serviceAccount.create': 'boolean', 'manager.image.registry': 'string',
    'manager.image.repository': 'string', 'manager.image.tag': 'string', 'manager.image.pullPolicy': 'string',
    'manager.env': 'array', 'manager.envFrom': 'array', 'manager.resources.limits.cpu': 'string',
    'manager.resources.limits.memory': 'string', 'manager.resources.requests.cpu': 'string',
    'manager.resources.requests.memory': 'string', 'manager.containerSecurityContext': 'object', 'manager.podSecurityContext': 'object',
  },
  /** The chart renders its own Namespace unless namespace.create is false. */
  createsNamespaceByDefault: true,
};

/** Flags of `helm install` the README may use, and whether each takes a value. */
const HELM_INSTALL_FLAGS = { '--namespace': true, '-n': true, '--create-namespace': false, '--wait': false, '--version': true, '--set': true };

/**
 * @typedef {{ renders: (kustomization: string) => any[], images: Set<string>, repos: Map<string, string>,
 *             releases: Map<string, { chart: string, namespace: string }>, cluster?: string,
 *             buildImage: (dockerfile: string, tag: string) => string[],
 *             jmx?: Map<string, { port: number, flags: string[] }>, forwards?: Map<number, { deployment: string, remote: number }>,
 *             diagnose: (flags: string[], args: string[]) => Promise<string[]> | string[] }} WalkState
 * @typedef {{ name: string, matches: (w: string[], command: string) => boolean, check: (w: string[], state: WalkState, command: string) => string[] }} Recognizer
 */

/** @param {string[]} w @param {string} flag */
function option(w, flag) {
  const i = w.indexOf(flag);
  return i >= 0 ? w[i + 1] : undefined;
}

/** @param {string} value */
function kustomizationOf(value) {
  return value.replace(/^kubernetes\//, '').replace(/\/$/, '');
}

/**
 * Schema, strict unknown fields and the lab's policy ("restricted" included) on a render, as
 * `kubectl apply` with --validate=strict and the namespace's Pod Security admission would judge it.
 *
 * @param {WalkState} state
 * @param {string} kustomization
 * @returns {Promise<string[]> | string[]}
 */
function applyChecks(state, kustomization) {
  const objects = state.renders(kustomization);
  const available = kustomization.startsWith('k6') ? state.renders('base') : [];
  const violations = [
    ...checkNamesAndNamespace(objects, []), ...checkLabels(objects), ...checkLabDeployments(objects), ...checkProbes(objects),
    ...checkSelectors(objects), ...checkReferences(objects, available), ...checkImages(objects), ...checkSecurity(objects),
    ...checkRestricted(objects), ...checkNamespaceEnforcesRestricted(objects), ...checkLoadGenerators(objects),
  ];
  return Promise.all(objects.map(validateObject)).then((problems) => [...violations, ...problems.flat()]);
}

/** @param {WalkState} state @param {string} kind @param {string} name @param {string} [from] */
function needObject(state, kind, name, from) {
  const renders = from ? [from] : [...LAB_KUSTOMIZATIONS.slice(0, 1), ...K6_KUSTOMIZATIONS];
  return renders.some((k) => state.renders(k).some((o) => o.kind.toLowerCase() === kind.toLowerCase() && o.metadata?.name === name))
    ? [] : [`no ${kind} ${name} in the renders of ${renders.join(', ')}`];
}

/** @param {WalkState} state @param {string[]} images */
function needBuilt(state, images) {
  return images.filter((i) => !state.images.has(i)).map((i) => `image ${i} is built by no docker build above`);
}

/** @type {Recognizer[]} */
export const RECOGNIZERS = [
  {
    name: 'kind cluster config parses, with two workers for the two 4-CPU pods',
    matches: (w) => w[0] === 'kind' && w[1] === 'create' && w[2] === 'cluster',
    check: (w, state) => {
      state.cluster = option(w, '--name');
      const config = option(w, '--config');
      if (!config || !existsSync(join(REPO, config))) return [`kind config ${config} does not exist`];
      const cluster = parse(readFileSync(join(REPO, config), 'utf8'));
      return cluster.kind === 'Cluster' && cluster.nodes.filter((/** @type {any} */ n) => n.role === 'worker').length >= 2
        ? [] : [`${config}: not a kind Cluster with two workers`];
    },
  },
  {
    name: 'kind delete names the cluster created above',
    matches: (w) => w[0] === 'kind' && w[1] === 'delete' && w[2] === 'cluster',
    check: (w, state) => (option(w, '--name') === state.cluster ? [] : [`deletes ${option(w, '--name')}, created ${state.cluster}`]),
  },
  {
    name: 'helm repo add: an https chart repository',
    matches: (w) => w[0] === 'helm' && w[1] === 'repo' && w[2] === 'add',
    check: (w, state) => {
      state.repos.set(w[3], w[4]);
      return /^https:\/\//.test(w[4] ?? '') ? [] : [`repository ${w[3]}: ${w[4]} is not an https URL`];
    },
  },
  {
    name: "helm install: known flags, the chart's repository added, the pinned k6-operator chart's documented values",
    matches: (w) => w[0] === 'helm' && w[1] === 'install',
    check: (w, state) => helmInstall(w, state),
  },
  {
    name: 'docker build: the build stage run here, every COPY --from=build source present, no junk or PostgreSQL in the image',
    matches: (w) => w[0] === 'docker' && w[1] === 'build',
    check: (w, state) => {
      const file = option(w, '-f');
      const tag = option(w, '-t');
      if (!file || !tag || w.at(-1) !== '.') return ['docker build needs -f <Dockerfile> -t <tag> and the repository root as context'];
      if (!existsSync(join(REPO, file))) return [`${file} does not exist`];
      state.images.add(tag);
      return state.buildImage(join(REPO, file), tag);
    },
  },
  {
    name: 'docker tag/push, kind load, minikube image load, k3d image import: images built above',
    matches: (w) => (w[0] === 'docker' && (w[1] === 'tag' || w[1] === 'push')) || (w[0] === 'kind' && w[1] === 'load')
      || (w[0] === 'minikube' && w[1] === 'image' && w[2] === 'load') || (w[0] === 'k3d' && w[1] === 'image' && w[2] === 'import'),
    check: (w, state) => {
      if (w[0] === 'docker' && w[1] === 'tag') {
        state.images.add(w[3]);
        return needBuilt(state, [w[2]]);
      }
      const images = w.slice(w[0] === 'docker' ? 2 : 3).filter((x) => !x.startsWith('-') && !x.startsWith('<') && x.includes(':'))
        .filter((x, i, all) => !['--name', '--cluster'].includes(w[w.indexOf(x) - 1]) && all.indexOf(x) === i);
      const named = option(w, '--name');
      return [...needBuilt(state, images), ...(w[0] === 'kind' && named !== state.cluster ? [`kind load into ${named}, created ${state.cluster}`] : [])];
    },
  },
  {
    name: 'kubectl apply -k / delete -k: render, strict schemas, policy (Pod Security restricted included)',
    matches: (w) => w[0] === 'kubectl' && (w[1] === 'apply' || w[1] === 'delete') && w[2] === '-k',
    check: (w, state) => {
      const kustomization = kustomizationOf(w[3]);
      if (!LAB_KUSTOMIZATIONS.includes(kustomization)) return [`${w[3]} is not a lab kustomization (${LAB_KUSTOMIZATIONS.join(', ')})`];
      return w[1] === 'apply' ? /** @type {any} */ (applyChecks(state, kustomization)) : (state.renders(kustomization).length ? [] : ['renders nothing']);
    },
  },
  {
    name: 'kubectl kustomize --load-restrictor=LoadRestrictionsNone | kubectl apply -f -: the same checks on the k6 render',
    matches: (w, command) => w[0] === 'kubectl' && w[1] === 'kustomize' && /\|\s*kubectl apply -f -\s*$/.test(command),
    check: (w, state) => {
      const kustomization = kustomizationOf(w.find((x) => x.startsWith('kubernetes/')) ?? '');
      if (!K6_KUSTOMIZATIONS.includes(kustomization)) return [`${kustomization} is not a k6 kustomization`];
      if (!w.includes('--load-restrictor=LoadRestrictionsNone')) return ['the k6 kustomizations read ../../k6: --load-restrictor=LoadRestrictionsNone'];
      return /** @type {any} */ (applyChecks(state, kustomization));
    },
  },
  {
    name: 'kubectl -n starvation-lab rollout status / get / delete / logs / cp / port-forward / set env: the object is in the render',
    matches: (w) => w[0] === 'kubectl' && w[1] === '-n' && w[2] === NAMESPACE,
    check: (w, state) => labObjectCommand(w.slice(3), state),
  },
  {
    name: 'POD=$(kubectl ... get pods -l job-name=<job>): the Job is in the render',
    matches: (w, command) => /^POD=\$\(kubectl -n starvation-lab get pods -l job-name=([a-z0-9-]+) /.test(command),
    check: (w, state, command) => needObject(state, 'Job', /job-name=([a-z0-9-]+)/.exec(command)?.[1] ?? '', 'k6/job'),
  },
  {
    name: 'kubectl -n monitoring ...: the kube-prometheus-stack release installed above',
    matches: (w) => w[0] === 'kubectl' && w[1] === '-n' && w[2] === 'monitoring',
    check: (w, state) => {
      const stack = [...state.releases.entries()].find(([, r]) => r.chart === 'prometheus-community/kube-prometheus-stack');
      if (!stack || stack[1].namespace !== 'monitoring') return ['kube-prometheus-stack is not installed in namespace monitoring above'];
      const object = w.find((x) => /^(svc|secret)\//.test(x)) ?? w[w.indexOf('secret') + 1];
      const name = object?.replace(/^(svc|secret)\//, '') ?? '';
      return name.startsWith(`${stack[0]}-`) ? [] : [`${name} is not an object of the release ${stack[0]}`];
    },
  },
  {
    name: 'kubectl delete namespace: the lab namespace',
    matches: (w) => w[0] === 'kubectl' && w[1] === 'delete' && w[2] === 'namespace',
    check: (w, state) => needObject(state, 'Namespace', w[3], 'base'),
  },
  {
    name: "k6 run: the script is in k6/, every -e key is a knob of k6/README.md's table, and k6's init code (k6/lib-layout.js) accepts them",
    matches: (w) => w[0] === 'k6' && w[1] === 'run',
    check: (w) => {
      const violations = [];
      /** @type {Record<string, string>} */
      const env = {};
      const knobs = new Set([...readFileSync(join(REPO, 'k6', 'README.md'), 'utf8').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]));
      for (let i = 2; i < w.length - 1; i++) {
        if (w[i] !== '-e') continue;
        const [key, ...value] = w[++i].split('=');
        if (!knobs.has(key)) violations.push(`-e ${key}: not a knob of k6/README.md's table`);
        env[key] = value.join('=');
      }
      const script = w.at(-1) ?? '';
      if (!/^k6\/[a-z-]+\.js$/.test(script) || !existsSync(join(REPO, script))) return [...violations, `${script}: no such k6 script`];
      try {
        buildLayout(env, JSON.parse(readFileSync(join(REPO, 'k6', 'plan.json'), 'utf8')));
      } catch (error) {
        violations.push(`k6's init code refuses the options: ${/** @type {Error} */ (error).message}`);
      }
      return violations;
    },
  },
  {
    name: 'java -jar src/diagnose/target/starvation-diagnose.jar --jmx localhost:<port>: a port forwarded above to a JVM given the JMX flags above; the stand-in runs it',
    matches: (w) => w[0] === 'java' && w[1] === '-jar' && w[2] === DIAGNOSE_JAR,
    check: (w, state) => {
      const address = option(w, '--jmx');
      const [, port] = /^localhost:(\d+)$/.exec(address ?? '') ?? [];
      if (!port) return [`--jmx ${address}: the diagnosis of a pod goes through a port-forward, localhost:<port>`];
      const forward = state.forwards?.get(Number(port));
      if (!forward) return [`no port-forward above listens on ${port}`];
      const jmx = state.jmx?.get(forward.deployment);
      if (!jmx) return [`deployment/${forward.deployment} got no JMX flags above`];
      return state.diagnose(jmx.flags, w.slice(3));
    },
  },
  {
    name: 'curl localhost:8080/lab/...: a path the service serves (LabResource)',
    matches: (w) => w[0] === 'curl',
    check: (w) => {
      const path = /localhost:8080(\/[a-z/-]+)/.exec(w.find((x) => x.includes('localhost:8080')) ?? '')?.[1] ?? '';
      const [, root, leaf] = /^\/(lab)\/([a-z-]+)$/.exec(path) ?? [];
      const source = readFileSync(join(REPO, 'src/service/src/main/java/io/starvationlab/rest/LabResource.java'), 'utf8');
      return root && source.includes(`@Path("/${leaf}")`) ? [] : [`${path} is served by no @Path of LabResource`];
    },
  },
];

/**
 * @param {string[]} w after `kubectl -n starvation-lab`
 * @param {WalkState} state
 * @returns {string[]}
 */
function labObjectCommand(w, state) {
  const [verb] = w;
  const ref = w.find((x, i) => i > 0 && /^[a-z]+\/[a-z0-9-]+$/.test(x) && !x.startsWith('-'));
  switch (verb) {
    case 'rollout': {
      const [kind, name] = (ref ?? '/').split('/');
      return needObject(state, kind, name, 'base');
    }
    case 'get': case 'delete': {
      if (w[1] === 'testrun') return needObject(state, 'TestRun', w[2], 'k6');
      if (w[1] === 'job') return needObject(state, 'Job', w[2], 'k6/job');
      return [`kubectl ${verb} ${w[1]}: not an object kind the walker knows`];
    }
    case 'logs': {
      const [, job] = /^job\/(.+)$/.exec(ref ?? '') ?? [];
      const container = option(w, '-c');
      const testRun = state.renders('k6').find((o) => o.kind === 'TestRun');
      // the operator names runner Jobs <TestRun>-<n>, n from 1 to parallelism
      if (testRun && job === `${testRun.metadata.name}-1`) return testRun.spec.parallelism >= 1 ? [] : ['no runner 1'];
      const found = state.renders('k6/job').find((o) => o.kind === 'Job' && o.metadata.name === job);
      if (!found) return [`no Job ${job}`];
      return !container || found.spec.template.spec.containers.some((/** @type {any} */ c) => c.name === container) ? [] : [`Job ${job} has no container ${container}`];
    }
    case 'cp': {
      const container = option(w, '-c');
      const [, path] = /:(\/[a-z]+)$/.exec(w.find((x) => x.includes(':/')) ?? '') ?? [];
      const job = state.renders('k6/job').find((o) => o.kind === 'Job');
      const c = job?.spec.template.spec.containers.find((/** @type {any} */ x) => x.name === container);
      return c && (c.volumeMounts ?? []).some((/** @type {any} */ m) => m.mountPath === path) ? [] : [`no container ${container} mounting ${path}`];
    }
    case 'port-forward': {
      const [, deployment] = /^deployment\/(.+)$/.exec(ref ?? '') ?? [];
      if (deployment) {
        const [local, remote] = String(w.at(-1)).split(':').map(Number);
        const missing = needObject(state, 'Deployment', deployment, 'base');
        const jmx = state.jmx?.get(deployment);
        if (missing.length) return missing;
        if (!jmx || jmx.port !== remote) return [`deployment/${deployment} opens no port ${remote} (only the JMX port set above is forwarded to a Deployment)`];
        if (local !== remote) return [`forward ${remote} to the same local port: the JMX stubs name ${remote}`];
        state.forwards = state.forwards ?? new Map();
        state.forwards.set(local, { deployment, remote });
        return [];
      }
      const [, service] = /^svc\/(.+)$/.exec(ref ?? '') ?? [];
      const port = Number(String(w.at(-1)).split(':').at(-1));
      const found = state.renders('base').find((o) => o.kind === 'Service' && o.metadata.name === service);
      return found && found.spec.ports.some((/** @type {any} */ p) => p.port === port) ? [] : [`no Service ${service} with port ${port}`];
    }
    case 'set': {
      const [, deployment] = /^deployment\/(.+)$/.exec(ref ?? '') ?? [];
      if (w[1] !== 'env' || !deployment) return [`kubectl set ${w[1]} ${w[2]}: only set env on a Deployment`];
      const missing = needObject(state, 'Deployment', deployment, 'base');
      if (missing.length) return missing;
      const assignments = w.slice(3).filter((x) => x.includes('='));
      const options = assignments.find((x) => x.startsWith('JDK_JAVA_OPTIONS='));
      const others = assignments.filter((x) => x !== options).map((x) => x.split('=')[0]);
      if (!options || others.length) return [`set env: only JDK_JAVA_OPTIONS, the diagnosis' JMX flags, is checked here${others.length ? `, not ${others.join(', ')}` : ''}`];
      const flags = options.slice('JDK_JAVA_OPTIONS='.length).trim().split(/\s+/);
      const { port, violations } = checkJmxFlags(flags);
      if (port) {
        state.jmx = state.jmx ?? new Map();
        state.jmx.set(deployment, { port, flags });
      }
      return violations;
    }
    case 'patch': {
      if (w[1] !== 'configmap' || w[2] !== 'lab-experiment') return [`patch ${w[1]} ${w[2]}: only lab-experiment is patched`];
      const base = state.renders('base').find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'lab-experiment');
      const body = JSON.parse(option(w, '-p') ?? 'null');
      const patched = option(w, '--type') === 'json' ? applyPatch(base, body) : { ...base, data: { ...base.data, ...body.data } };
      const testRun = state.renders('k6').find((o) => o.kind === 'TestRun');
      const env = { ...patched.data, ...Object.fromEntries(testRun.spec.runner.env.map((/** @type {any} */ e) => [e.name, e.value])) };
      try {
        buildLayout(env, JSON.parse(readFileSync(join(REPO, 'k6', 'plan.json'), 'utf8')));
        return [];
      } catch (error) {
        return [`the patched lab-experiment fails k6's init code: ${/** @type {Error} */ (error).message}`];
      }
    }
    default:
      return [`kubectl ${verb}: not a command the walker knows`];
  }
}

/**
 * @param {string[]} w
 * @param {WalkState} state
 * @returns {string[]}
 */
function helmInstall(w, state) {
  const violations = [];
  const [, , release, chart] = w;
  /** @type {Record<string, string>} */
  const sets = {};
  for (let i = 4; i < w.length; i++) {
    const flag = w[i];
    if (!(flag in HELM_INSTALL_FLAGS)) {
      violations.push(`helm install: ${flag} is not a flag the walker checks`);
      continue;
    }
    if (HELM_INSTALL_FLAGS[/** @type {keyof typeof HELM_INSTALL_FLAGS} */ (flag)]) {
      const value = w[++i] ?? '';
      if (flag === '--set') {
        for (const pair of splitTopLevel(value, ',')) {
          const [key, v] = pair.split('=');
          sets[key] = v;
        }
      }
    }
  }
  const [repo] = chart.split('/');
  if (!state.repos.has(repo)) violations.push(`${chart}: repository ${repo} was not added above`);
  const namespace = option(w, '--namespace') ?? option(w, '-n') ?? 'default';
  state.releases.set(release, { chart, namespace });
  if (chart === K6_OPERATOR_CHART.name) {
    if (option(w, '--version') !== K6_OPERATOR_CHART.version) {
      violations.push(`${chart}: --version must pin the chart the walker knows (${K6_OPERATOR_CHART.version}), is ${option(w, '--version')}`);
    }
    for (const [key, value] of Object.entries(sets)) {
      const type = K6_OPERATOR_CHART.values[key];
      if (!type) violations.push(`${chart} ${K6_OPERATOR_CHART.version}: --set ${key} is not a documented value`);
      else if (type === 'boolean' && !['true', 'false'].includes(value)) violations.push(`${chart}: --set ${key}=${value} is not a boolean`);
    }
    const chartCreates = sets['namespace.create'] === undefined ? K6_OPERATOR_CHART.createsNamespaceByDefault : sets['namespace.create'] === 'true';
    if (chartCreates && w.includes('--create-namespace')) {
      violations.push(`${chart}: the chart creates its namespace (namespace.create) and --create-namespace creates it too: Helm refuses ("exists and cannot be imported into the current release")`);
    }
    if (!chartCreates && !w.includes('--create-namespace')) violations.push(`${chart}: nothing creates namespace ${namespace}`);
  } else if (chart === 'prometheus-community/kube-prometheus-stack') {
    const selected = state.renders('base').filter((o) => ['ServiceMonitor', 'PrometheusRule'].includes(o.kind))
      .map((o) => o.metadata.labels?.release);
    if (selected.length === 0 || selected.some((label) => label !== release)) {
      violations.push(`release ${release}: the ServiceMonitor and PrometheusRule carry release=${selected.join(',')}, which its Prometheus would not select`);
    }
    for (const key of Object.keys(sets)) {
      if (!(key in KUBE_PROMETHEUS_STACK.values)) violations.push(`${chart}: --set ${key} is not a value the walker knows`);
    }
    // the stack's defaults with these values: no interval may hide a starvation as long as the plan's phases
    violations.push(...checkIntervals(state.renders('base'), sets));
  } else {
    violations.push(`${chart}: a chart the walker does not know`);
  }
  return violations;
}

/**
 * @param {string} command
 * @returns {Recognizer | undefined}
 */
export function recognizerFor(command) {
  const w = words(command);
  return RECOGNIZERS.find((r) => r.matches(w, command));
}

export { KUBERNETES };
