// kubernetes/README.md walked top to bottom: each shell command matched to the check that stands in
// for it here (no cluster, no Docker, no Helm repository), and each file a ```yaml block writes
// ("# my-lab/kustomization.yaml") written, for the commands after it to use. A command no recognizer
// knows is a failure, so the README cannot drift from what is checked. The heavy stand-in (a
// Dockerfile's build stage) is the caller's: `buildImage`.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseShell } from 'shell-quote';
import { parse } from 'yaml';
import { runKnobs } from '../../../../../../k6/lib-knobs.js';
import { buildLayout } from '../../../../../../k6/lib-layout.js';
import { checkApplySizes, checkSizing } from './cluster.mjs';
import { checkJmxFlags, DIAGNOSE_JAR } from './diagnosis.mjs';
import { applyPatch } from './fixtures.mjs';
import { checkIntervals, KUBE_PROMETHEUS_STACK } from './monitoring.mjs';
import { checkFlows } from './network.mjs';
import { checkPolicy, containersOf, LAB_DEPLOYMENTS, pods } from './policy.mjs';
import { K6_KUSTOMIZATIONS, LAB_KUSTOMIZATIONS, PLAN, REPO } from './render.mjs';
import { validateObject } from './schema.mjs';

/**
 * The k6-operator chart as the README pins it (4.2.0, the operator v1.2.0). No chart is downloaded
 * here: these are the values of grafana/k6-operator's charts/k6-operator (values.yaml and
 * values.schema.json, whose objects admit no other keys), read from the repository for this check.
 */
export const K6_OPERATOR_CHART = {
  name: 'grafana/k6-operator',
  version: '4.2.0',
  values: new Set(['nameOverride', 'fullnameOverride', 'global.image.registry', 'global.image.pullSecrets', 'customAnnotations', 'podAnnotations',
    'customLabels', 'podLabels', 'nodeSelector', 'affinity', 'tolerations', 'installCRDs', 'namespace.create', 'metrics.serviceMonitor.enabled',
    'metrics.serviceMonitor.namespace', 'metrics.serviceMonitor.interval', 'prometheus.enabled', 'authProxy.enabled', 'authProxy.image.registry',
    'authProxy.image.repository', 'authProxy.image.tag', 'authProxy.image.pullPolicy', 'authProxy.resources', 'authProxy.containerSecurityContext',
    'manager.replicas', 'manager.serviceAccount.name', 'manager.serviceAccount.create', 'manager.image.registry', 'manager.image.repository',
    'manager.image.tag', 'manager.image.pullPolicy', 'manager.env', 'manager.envFrom', 'manager.resources.limits.cpu', 'manager.resources.limits.memory',
    'manager.resources.requests.cpu', 'manager.resources.requests.memory', 'manager.containerSecurityContext', 'manager.podSecurityContext']),
  booleans: new Set(['installCRDs', 'namespace.create', 'metrics.serviceMonitor.enabled', 'prometheus.enabled', 'authProxy.enabled',
    'manager.serviceAccount.create']),
};
/** minikube's drivers that make each node a VM of --cpus and --memory (minikube.sigs.k8s.io/docs/drivers). */
const MINIKUBE_VM_DRIVERS = ['kvm2', 'qemu', 'qemu2', 'hyperkit', 'vfkit', 'hyperv', 'virtualbox', 'parallels', 'vmware'];
/** Flags of `helm install` the README may use, and whether each takes a value. */
const HELM_INSTALL_FLAGS = /** @type {Record<string, boolean>} */ ({
  '--namespace': true, '-n': true, '--create-namespace': false, '--wait': false, '--version': true, '--set': true, '-f': true,
});

/**
 * The README's shell commands (```sh blocks: continuation lines joined, comments dropped, `a && b`
 * two commands) as shell words, and the files its ```yaml blocks write.
 *
 * @returns {{ line: number, words?: string[], text?: string, file?: string }[]} in the order they come
 */
export function walkOf(markdown) {
  const steps = [];
  const blocks = markdown.matchAll(/^```(sh|bash|yaml)\n([\s\S]*?)^```$/gm);
  for (const block of blocks) {
    const line = markdown.slice(0, block.index).split('\n').length + 1;
    const file = /^# (\S+\/[\w.-]+\.yaml)\n/.exec(block[2])?.[1];
    if (block[1] === 'yaml') {
      if (file) steps.push({ line, file, text: block[2] });
      continue;
    }
    block[2].replace(/\\\n/g, ' ').split('\n').forEach((text, i) => {
      const commands = [[]];
      for (const token of parseShell(text, (key) => `$${key}`)) {
        if (typeof token === 'string') commands[commands.length - 1].push(token);
        else if ('op' in token && token.op === '&&') commands.push([]);
        else if ('op' in token) commands[commands.length - 1].push(token.op === 'glob' ? /** @type {any} */ (token).pattern : token.op);
      }
      for (const words of commands.filter((c) => c.length)) steps.push({ line: line + i, words, text: words.join(' ') });
    });
  }
  return steps;
}

/**
 * @typedef {{ renders: (kustomization: string) => any[], readme: string, line: number, images: Set<string>, repos: Map<string, string>,
 *             releases: Map<string, { chart: string, namespace: string }>, files: Map<string, string>, cluster?: string, applied?: string,
 *             buildImage: (dockerfile: string) => string[], templates?: Map<string, string>, k3d?: string, running: Map<string, number>, pushed: Set<string>,
 *             jmx: Map<string, number>, forwards: Map<number, string> }} WalkState
 *   templates: the measured pods' templates as last applied; running: the loads applied and not deleted, by the line that started them
 * @typedef {{ name: string, matches: (w: string[]) => boolean, check: (w: string[], state: WalkState) => string[] | Promise<string[]> }} Recognizer
 */

const option = (w, flag) => (w.includes(flag) ? w[w.indexOf(flag) + 1] : undefined);
/** @param {string} value e.g. kubernetes/overlays/jdk21/ */
const kustomizationOf = (value) => value.replace(/^kubernetes\//, '').replace(/\/$/, '');

/**
 * An apply as `kubectl apply` with strict validation, the namespace's admission, the controllers and
 * the API server's size limits would meet it.
 *
 * @param {any[]} available objects applied beside them
 */
export async function applyChecks(objects, available, serverSide) {
  return [...checkPolicy(objects, available), ...checkApplySizes(objects, serverSide), ...(await Promise.all(objects.map(validateObject))).flat()];
}

/**
 * `kubectl apply -k` of a kustomization a ```yaml block of the README wrote, beside a clone of this
 * repository, rendered by the real kubectl: what it asks (a StorageClass, runbook links) it gets.
 */
async function applyOwn(state, dir) {
  const root = mkdtempSync(join(tmpdir(), 'starvation-lab-own-'));
  // a kustomization beside the clone (../starvation-lab/...) or in it (../kubernetes/...)
  symlinkSync(REPO, join(root, 'starvation-lab'));
  for (const folder of ['kubernetes', 'k6']) symlinkSync(join(REPO, folder), join(root, folder));
  for (const [path, text] of state.files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const objects = state.renders(join(root, dir));
  const kustomization = parse(state.files.get(`${dir}/kustomization.yaml`) ?? '');
  const base = (kustomization.configMapGenerator ?? []).find((/** @type {any} */ g) => g.name === 'starvation-lab-runbook')?.literals?.[0]
    ?.replace(/^base=/, '');
  const urls = objects.filter((o) => o.kind === 'PrometheusRule').flatMap((o) => o.spec.groups.flatMap((/** @type {any} */ g) => g.rules))
    .map((/** @type {any} */ r) => r.annotations?.runbook_url).filter(Boolean);
  const storage = (kustomization.patches ?? []).some((/** @type {any} */ p) => /storageClassName/.test(p.patch ?? ''));
  // $TAG in a pushed image: the short commit it stands for
  const pushed = [...state.pushed].map((ref) => new RegExp(`^${ref.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\$TAG/g, '[0-9a-f]{7,40}')}$`));
  const unpushed = [...new Set(pods(objects).flatMap((p) => containersOf(p.spec)).map((c) => c.image).filter((i) => /^[^/]+\.[^/]+\/.*starvation-lab:/.test(i ?? '')))]
    .filter((image) => !pushed.some((r) => r.test(image)));
  const literal = (kustomization.secretGenerator ?? []).filter((/** @type {any} */ g) => (g.literals ?? []).some((/** @type {string} */ l) => /^password=/.test(l)));
  return [
    ...literal.map((/** @type {any} */ g) => `secretGenerator ${g.name}: a password in ${dir}/kustomization.yaml goes into git with it: read it from a file kept out of git (envs:)`),
    ...(await applyChecks(objects, [], false)),
    ...unpushed.map((image) => `image ${image} is pushed by no step above`),
    ...(objects.some((o) => o.kind === 'Deployment' && LAB_DEPLOYMENTS.includes(o.metadata?.name)) ? labApplied(state, join(root, dir)) : []),
    ...(!base ? [] : urls.length === 0 ? ['no runbook_url in the render']
      : urls.filter((url) => !url.startsWith(`${base}#`)).map((url) => `runbook_url ${url} is not under ${base}`)),
    ...(objects.some((o) => o.metadata?.name === 'starvation-lab-runbook') ? ['ConfigMap starvation-lab-runbook, local configuration, is in the render'] : []),
    ...(storage && !objects.some((o) => o.kind === 'StatefulSet' && o.spec.volumeClaimTemplates?.every((/** @type {any} */ c) => c.spec?.storageClassName))
      ? ['the StorageClass patch sets no storageClassName on the claim'] : []),
  ];
}

/**
 * A lab render applied: JMX as its measured pods' JDK_JAVA_OPTIONS open it, and a restart of a measured pod
 * while a load runs (a Deployment with `strategy: Recreate` stops its pod whenever the template changes).
 */
function labApplied(state, kustomization) {
  const measured = state.renders(kustomization).filter((o) => o.kind === 'Deployment' && LAB_DEPLOYMENTS.includes(o.metadata?.name));
  const violations = [];
  const templates = new Map(measured.map((d) => [d.metadata.name, JSON.stringify(d.spec.template)]));
  for (const [name, template] of templates) {
    if (state.running.size && state.templates?.has(name) && state.templates.get(name) !== template) {
      violations.push(`restarts ${name} during the run started at line ${[...state.running.values()].join(', ')}: its pod template changes (Recreate)`);
    }
  }
  state.templates = templates;
  state.applied = kustomization;
  state.jmx = new Map();
  for (const d of measured) {
    const flags = d.spec.template.spec.containers.flatMap((/** @type {any} */ c) => c.env ?? []).find((/** @type {any} */ e) => e.name === 'JDK_JAVA_OPTIONS')?.value;
    if (!flags) continue;
    const { port, violations: wrong } = checkJmxFlags(flags.trim().split(/\s+/));
    violations.push(...wrong.map((v) => `${d.metadata.name}: ${v}`));
    if (port) state.jmx.set(d.metadata.name, port);
  }
  return violations;
}

function needObject(state, kind, name, from) {
  const renders = from ? [from] : ['base', ...K6_KUSTOMIZATIONS];
  return renders.some((k) => state.renders(k).some((o) => o.kind.toLowerCase() === kind.toLowerCase() && o.metadata?.name === name))
    ? [] : [`no ${kind} ${name} in the renders of ${renders.join(', ')}`];
}

const needBuilt = (state, images) => images.filter((i) => !state.images.has(i)).map((i) => `image ${i} is built by no docker build above`);

/** @type {Recognizer[]} */
export const RECOGNIZERS = [
  {
    name: 'kind create cluster: the config is a Cluster with two workers',
    matches: (w) => w[0] === 'kind' && w[1] === 'create' && w[2] === 'cluster',
    check: (w, state) => {
      state.cluster = option(w, '--name');
      const config = option(w, '--config') ?? '';
      if (!existsSync(join(REPO, config))) return [`kind config ${config} does not exist`];
      const cluster = parse(readFileSync(join(REPO, config), 'utf8'));
      const workers = cluster.nodes.filter((/** @type {any} */ n) => n.role === 'worker').length;
      return cluster.kind === 'Cluster' && workers >= 2 ? [] : [`${config}: not a kind Cluster with two workers`];
    },
  },
  {
    name: 'minikube start --driver=<VM> --nodes --cpus --memory: nodes of a row of the README\'s node sizes, as many',
    matches: (w) => w[0] === 'minikube' && w[1] === 'start',
    check: (w, state) => {
      const driver = (w.find((x) => x.startsWith('--driver=')) ?? '').slice('--driver='.length);
      if (!MINIKUBE_VM_DRIVERS.includes(driver)) return [`minikube start --driver=${driver}: a VM driver (${MINIKUBE_VM_DRIVERS.join(', ')}) makes nodes of --cpus; a container's share Docker, as kind's`];
      const [nodes, cpus, gib] = [Number(option(w, '--nodes') ?? 1), Number(option(w, '--cpus')), parseFloat(option(w, '--memory') ?? '')];
      const rows = [...state.readme.matchAll(/^\s*\|\s*([\d.]+) CPUs and ([\d.]+) GiB \(nodes of ([\d or]+) vCPUs\)\s*\|\s*(\d+)\s*\|\s*$/gm)];
      const row = rows.find(([, , free, vcpus, count]) => vcpus.split(' or ').map(Number).includes(cpus) && nodes >= Number(count) && gib >= Number(free) + 1);
      return row ? [] : [`minikube start: ${nodes} nodes of ${cpus} CPUs and ${gib} GiB are no row of the node sizes above (nodes of that many vCPUs, as many, 1 GiB over what each offers)`];
    },
  },
  {
    name: 'k3d cluster create: two agents beside the server (all schedulable, sharing Docker as kind\'s nodes do)',
    matches: (w) => w[0] === 'k3d' && w[1] === 'cluster' && w[2] === 'create',
    check: (w, state) => {
      state.k3d = w[3];
      return Number(option(w, '--agents') ?? 0) >= 2 ? [] : [`k3d cluster create ${w[3]}: --agents ${option(w, '--agents')}, two needed beside the server`];
    },
  },
  {
    name: 'kind delete cluster: the cluster created above',
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
    name: "helm install: known flags, the repository added above, a pinned chart's documented values; kube-prometheus-stack's intervals",
    matches: (w) => w[0] === 'helm' && w[1] === 'install',
    check: helmInstall,
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
      return state.buildImage(join(REPO, file));
    },
  },
  {
    name: 'docker tag/push, kind load, minikube image load, k3d image import: images built above',
    matches: (w) => /^(docker (tag|push)|kind load|minikube image load|k3d image import) /.test(w.join(' ')),
    check: (w, state) => {
      if (w[1] === 'tag') {
        state.images.add(w[3]);
        return needBuilt(state, [w[2]]);
      }
      if (w[1] === 'push') {
        state.pushed.add(w[2]);
        return [...needBuilt(state, [w[2]]), ...(/starvation-lab:jdk\d+$/.test(w[2]) ? [`${w[2]}: a tag pushed again with every build; tag it by commit`] : [])];
      }
      const images = w.slice(2).filter((x, i) => x.includes(':') && !['--name', '--cluster'].includes(w[i + 1]));
      const cluster = w[0] === 'kind' && option(w, '--name') !== state.cluster ? [`kind load into ${option(w, '--name')}, created ${state.cluster}`]
        : w[0] === 'k3d' && option(w, '--cluster') !== state.k3d ? [`k3d image import into ${option(w, '--cluster')}, created ${state.k3d}`] : [];
      return [...needBuilt(state, images), ...cluster];
    },
  },
  {
    name: "printf '...' > <file>: the file written, for the steps after it ($(...) as 32 hex digits)",
    matches: (w) => w[0] === 'printf' && w.at(-2) === '>',
    check: (w, state) => {
      const args = w.slice(2, -2).map((a) => (/^\$\(/.test(a) ? '0'.repeat(32) : a));
      state.files.set(String(w.at(-1)), w[1].replace(/\\n/g, '\n').replace(/%s/g, () => args.shift() ?? ''));
      return [];
    },
  },
  {
    name: 'TAG=$(git rev-parse --short HEAD): the commit the images are tagged by',
    matches: (w) => w.join(' ') === 'TAG=$ ( git rev-parse --short HEAD )',
    check: () => [],
  },
  {
    name: 'kubectl apply -k / delete -k: the render, strict schemas, policy (Pod Security restricted included), size limits',
    matches: (w) => w[0] === 'kubectl' && (w[1] === 'apply' || w[1] === 'delete') && w[2] === '-k',
    check: async (w, state) => {
      const kustomization = kustomizationOf(w[3]);
      if (state.files.has(`${w[3]}/kustomization.yaml`)) return w[1] === 'apply' ? applyOwn(state, w[3]) : [];
      if (!LAB_KUSTOMIZATIONS.includes(kustomization)) return [`${w[3]} is not a lab kustomization (${LAB_KUSTOMIZATIONS.join(', ')}) nor one written above`];
      if (w[1] === 'delete') {
        state.running.clear();
        return state.renders(kustomization).length ? [] : ['renders nothing'];
      }
      return [...labApplied(state, kustomization), ...(await applyChecks(state.renders(kustomization), [], false))];
    },
  },
  {
    name: 'kubectl kustomize --load-restrictor=LoadRestrictionsNone | kubectl apply --server-side -f -: the same on the k6 render; the scheduler places it',
    matches: (w) => w[0] === 'kubectl' && w[1] === 'kustomize' && w.includes('|'),
    check: async (w, state) => {
      const kustomization = kustomizationOf(w.find((x) => x.startsWith('kubernetes/')) ?? '');
      if (!K6_KUSTOMIZATIONS.includes(kustomization)) return [`${kustomization} is not a k6 kustomization`];
      if (!w.includes('--load-restrictor=LoadRestrictionsNone')) return ['the k6 kustomizations read ../../k6: --load-restrictor=LoadRestrictionsNone'];
      const apply = w.slice(w.indexOf('|') + 1);
      if (apply.join(' ') !== 'kubectl apply --server-side -f -') {
        return [`| ${apply.join(' ')}: the k6 objects go | kubectl apply --server-side -f - (ConfigMap k6-scripts grows with the suite; `
          + 'client-side, kubectl copies it into an annotation capped at 256 KiB)'];
      }
      const lab = state.renders(state.applied ?? 'base');
      const objects = state.renders(kustomization);
      const namespaceOf = (/** @type {string} */ chart) => [...state.releases.values()].find((r) => r.chart === chart)?.namespace ?? 'default';
      const installed = { monitoring: namespaceOf(KUBE_PROMETHEUS_STACK.name), operator: namespaceOf(K6_OPERATOR_CHART.name) };
      state.running.set(kustomization, state.line);
      return [...(await applyChecks(objects, lab, true)), ...checkSizing(state.readme, lab, objects), ...checkFlows([...lab, ...objects], installed)];
    },
  },
  {
    name: 'kubectl -n starvation-lab rollout / get / delete / logs / cp / port-forward / patch, alone or in POD=$(...): the object, container, mount or port is there; no set',
    matches: (w) => /^(POD=\$ \( )?kubectl -n starvation-lab /.test(w.join(' ')),
    check: (w, state) => labObjectCommand(w.slice(w.indexOf('kubectl') + 3), state),
  },
  {
    name: 'kubectl -n monitoring ...: an object of the kube-prometheus-stack release installed above',
    matches: (w) => w[0] === 'kubectl' && w[1] === '-n' && w[2] === 'monitoring',
    check: (w, state) => {
      const stack = [...state.releases.entries()].find(([, r]) => r.chart === KUBE_PROMETHEUS_STACK.name);
      if (!stack || stack[1].namespace !== 'monitoring') return ['kube-prometheus-stack is not installed in namespace monitoring above'];
      const name = (w.find((x) => /^(svc|secret)\//.test(x)) ?? w[w.indexOf('secret') + 1] ?? '').replace(/^(svc|secret)\//, '');
      return name.startsWith(`${stack[0]}-`) ? [] : [`${name} is not an object of the release ${stack[0]}`];
    },
  },
  {
    name: 'kubectl delete namespace: the lab namespace',
    matches: (w) => w[0] === 'kubectl' && w[1] === 'delete' && w[2] === 'namespace',
    check: (w, state) => {
      state.running.clear();
      return needObject(state, 'Namespace', w[3], 'base');
    },
  },
  {
    name: 'java -jar src/diagnose/target/starvation-diagnose.jar --jmx localhost:<port>: a port forwarded above to a JVM given the JMX flags above (DiagnoseLabIT runs it)',
    matches: (w) => w[0] === 'java' && w[1] === '-jar' && w[2] === DIAGNOSE_JAR,
    check: (w, state) => {
      const [, port] = /^localhost:(\d+)$/.exec(option(w, '--jmx') ?? '') ?? [];
      if (!port) return [`--jmx ${option(w, '--jmx')}: the diagnosis of a pod goes through a port-forward, localhost:<port>`];
      const deployment = state.forwards.get(Number(port));
      if (!deployment) return [`no port-forward above listens on ${port}`];
      if (!state.jmx.has(deployment)) return [`deployment/${deployment} got no JMX flags above`];
      return state.running.size ? [] : ['the diagnosis reads a pod under load: no load runs here (start it above)'];
    },
  },
  {
    name: 'curl localhost:8080/lab/...: a path the service serves (LabResource)',
    matches: (w) => w[0] === 'curl',
    check: (w) => {
      const [, leaf] = /^\/lab\/([a-z-]+)$/.exec(/localhost:8080(\/[a-z/-]+)/.exec(w.find((x) => x.includes('localhost:8080')) ?? '')?.[1] ?? '') ?? [];
      return leaf && readFileSync(join(REPO, 'src/service/src/main/java/io/starvationlab/rest/LabResource.java'), 'utf8').includes(`@Path("/${leaf}")`)
        ? [] : [`${w.find((x) => x.includes('localhost:8080'))} is served by no @Path of LabResource`];
    },
  },
];

/** The render each kind `kubectl get` or `delete` names comes from. */
const RENDER_OF = /** @type {Record<string, string>} */ ({ testrun: 'k6', job: 'k6/job', statefulset: 'base' });

/**
 * @param {string[]} w after `kubectl -n starvation-lab`
 */
function labObjectCommand(w, state) {
  const [verb] = w;
  const ref = w.find((x, i) => i > 0 && /^[a-z]+\/[a-z0-9-]+$/.test(x));
  const [kind, name] = (ref ?? '/').split('/');
  const jobContainer = (/** @type {string} */ job, /** @type {string | undefined} */ container) => {
    const testRun = state.renders('k6').find((o) => o.kind === 'TestRun');
    // the operator names runner Jobs <TestRun>-<n>, n from 1 to parallelism; a runner pod holds k6 and the runner's init containers
    if (testRun && new RegExp(`^${testRun.metadata.name}-[1-${testRun.spec.parallelism}]$`).test(job)) {
      const containers = ['k6', ...(testRun.spec.runner.initContainers ?? []).map((/** @type {any} */ c) => c.name)];
      return containers.includes(container ?? 'k6') ? [] : [`runner ${job} has no container ${container}`];
    }
    const found = state.renders('k6/job').find((o) => o.kind === 'Job' && o.metadata.name === job)?.spec.template.spec.containers;
    if (!found) return [`no Job ${job}`];
    return !container || found.some((/** @type {any} */ c) => c.name === container) ? [] : [`Job ${job} has no container ${container}`];
  };
  switch (verb) {
    case 'rollout':
      return needObject(state, kind, name, 'base');
    case 'get': case 'delete':
      if (verb === 'delete' && w[1] === 'testrun' && w.includes('--ignore-not-found')) {
        return ["--ignore-not-found covers a missing TestRun, not a missing CRD: kubectl exits 1 where the k6-operator is not installed"];
      }
      if (verb === 'delete' && w[1] in RENDER_OF) state.running.delete(RENDER_OF[w[1]]);
      if (w[1] in RENDER_OF) return needObject(state, w[1], w[2], RENDER_OF[w[1]]);
      // the Job controller labels its pods job-name=<Job>
      if (w[1] === 'pods' && /^job-name=/.test(option(w, '-l') ?? '')) return needObject(state, 'Job', String(option(w, '-l')).slice(9), 'k6/job');
      // a StatefulSet names its claims <template>-<StatefulSet>-<ordinal>
      if (w[1] === 'pvc') {
        const claims = state.renders('base').filter((o) => o.kind === 'StatefulSet')
          .flatMap((o) => (o.spec.volumeClaimTemplates ?? []).map((/** @type {any} */ c) => new RegExp(`^${c.metadata.name}-${o.metadata.name}-\\d+$`)));
        return claims.some((claim) => claim.test(w[2])) ? [] : [`no StatefulSet's claim is PVC ${w[2]}`];
      }
      return [`kubectl ${verb} ${w[1]}: not an object kind the walker knows`];
    case 'logs':
      return kind === 'job' ? jobContainer(name, option(w, '-c')) : [`logs of ${ref}: only of a Job`];
    case 'cp': {
      const [, path] = /:(\/[a-z]+)$/.exec(w.find((x) => x.includes(':/')) ?? '') ?? [];
      const container = state.renders('k6/job').find((o) => o.kind === 'Job')?.spec.template.spec.containers
        .find((/** @type {any} */ x) => x.name === option(w, '-c'));
      return (container?.volumeMounts ?? []).some((/** @type {any} */ m) => m.mountPath === path) ? [] : [`no container ${option(w, '-c')} mounting ${path}`];
    }
    case 'port-forward': {
      const [local, remote] = String(w.at(-1)).split(':').map(Number);
      if (kind === 'deployment') {
        const missing = needObject(state, 'Deployment', name, 'base');
        if (missing.length) return missing;
        if (state.jmx.get(name) !== remote) return [`deployment/${name} opens no port ${remote} (only the JMX port set above is forwarded)`];
        if (local !== remote) return [`forward ${remote} to the same local port: the JMX stubs name ${remote}`];
        state.forwards.set(local, name);
        return [];
      }
      const service = state.renders('base').find((o) => o.kind === 'Service' && o.metadata.name === name);
      return service?.spec.ports.some((/** @type {any} */ p) => p.port === remote) ? [] : [`no Service ${name} with port ${remote}`];
    }
    case 'set':
      return [`kubectl set ${w[1]} changes ${ref ?? 'a pod template'}: Recreate restarts the measured pod; set it in a kustomization applied before the load`];
    case 'patch': {
      if (w[1] !== 'configmap' || w[2] !== 'lab-experiment') return [`patch ${w[1]} ${w[2]}: only lab-experiment is patched`];
      const base = state.renders('base').find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'lab-experiment');
      const body = JSON.parse(option(w, '-p') ?? 'null');
      const patched = option(w, '--type') === 'json' ? applyPatch(base, body) : { ...base, data: { ...base.data, ...body.data } };
      const runner = state.renders('k6').find((o) => o.kind === 'TestRun').spec.runner;
      try {
        const env = { ...patched.data, ...Object.fromEntries(runner.env.map((/** @type {any} */ e) => [e.name, e.value])) };
        buildLayout(env, PLAN);
        runKnobs(env, PLAN);
        return [];
      } catch (error) {
        return [`the patched lab-experiment fails k6's init code: ${/** @type {Error} */ (error).message}`];
      }
    }
    default:
      return [`kubectl ${verb}: not a command the walker knows`];
  }
}

/** A values file's keys as --set names them: a.b.c. @param {any} values @param {string} [prefix] @returns {Record<string, string>} */
function flatten(values, prefix = '') {
  return Object.assign({}, ...Object.entries(values ?? {}).map(([k, v]) => (v !== null && typeof v === 'object' && !Array.isArray(v)
    ? flatten(v, `${prefix}${k}.`) : { [`${prefix}${k}`]: String(v) })));
}

function helmInstall(w, state) {
  const [, , release, chart] = w;
  const violations = [];
  const sets = {};
  for (let i = 4; i < w.length; i++) {
    if (!(w[i] in HELM_INSTALL_FLAGS)) violations.push(`helm install: ${w[i]} is not a flag the walker checks`);
    else if (HELM_INSTALL_FLAGS[w[i]] && w[i++] === '--set') {
      for (const pair of w[i].split(',')) sets[pair.split('=')[0]] = pair.slice(pair.indexOf('=') + 1);
    } else if (w[i - 1] === '-f') {
      if (!existsSync(join(REPO, w[i]))) violations.push(`helm install -f ${w[i]}: no such file`);
      else Object.assign(sets, flatten(parse(readFileSync(join(REPO, w[i]), 'utf8'))));
    }
  }
  if (!state.repos.has(chart.split('/')[0])) violations.push(`${chart}: repository ${chart.split('/')[0]} was not added above`);
  const namespace = option(w, '--namespace') ?? option(w, '-n') ?? 'default';
  state.releases.set(release, { chart, namespace });
  const pinned = chart === K6_OPERATOR_CHART.name ? K6_OPERATOR_CHART.version : chart === KUBE_PROMETHEUS_STACK.name ? KUBE_PROMETHEUS_STACK.version : null;
  if (!pinned) return [...violations, `${chart}: a chart the walker does not know`];
  if (option(w, '--version') !== pinned) violations.push(`${chart}: --version must pin the chart the walker knows (${pinned}), is ${option(w, '--version')}`);
  if (chart === K6_OPERATOR_CHART.name) {
    for (const [key, value] of Object.entries(sets)) {
      if (!K6_OPERATOR_CHART.values.has(key)) violations.push(`${chart} ${pinned}: --set ${key} is not a documented value`);
      else if (K6_OPERATOR_CHART.booleans.has(key) && !['true', 'false'].includes(value)) violations.push(`${chart}: --set ${key}=${value} is not a boolean`);
    }
    // the chart renders its own Namespace unless namespace.create is false
    const chartCreates = sets['namespace.create'] !== 'false';
    if (chartCreates === w.includes('--create-namespace')) {
      violations.push(chartCreates ? `${chart}: the chart creates its namespace (namespace.create) and --create-namespace creates it too: Helm refuses `
        + '("exists and cannot be imported into the current release")' : `${chart}: nothing creates namespace ${namespace}`);
    }
    return violations;
  }
  const selected = state.renders('base').filter((o) => ['ServiceMonitor', 'PrometheusRule'].includes(o.kind)).map((o) => o.metadata.labels?.release);
  if (selected.length === 0 || selected.some((label) => label !== release)) {
    violations.push(`release ${release}: the ServiceMonitor and PrometheusRule carry release=${selected.join(',')}, which its Prometheus would not select`);
  }
  for (const key of Object.keys(sets).filter((k) => !(k in KUBE_PROMETHEUS_STACK.values))) {
    violations.push(`${chart}: --set ${key} is not a value the walker knows`);
  }
  // kubeadm binds these components' metrics to 127.0.0.1 on kind's nodes: their targets are down, their alerts fire
  if (state.cluster) {
    for (const key of ['kubeControllerManager.enabled', 'kubeScheduler.enabled', 'kubeEtcd.enabled', 'kubeProxy.enabled'].filter((k) => sets[k] !== 'false')) {
      violations.push(`${chart} on kind: ${key} is not false: kind exposes no such target, and the stack's alerts on it fire beside the lab's`);
    }
  }
  // the stack's defaults with these values: no interval may hide a starvation as long as the plan's phases
  return [...violations, ...checkIntervals(state.renders('base'), sets)];
}

/**
 * Walks a README: each step's violations, prefixed with its line; unknown commands and what the walk
 * leaves unsaid (below) are violations too.
 *
 * @param {Omit<WalkState, 'readme' | 'images' | 'repos' | 'releases' | 'files' | 'jmx' | 'forwards' | 'running' | 'line' | 'pushed'> & Partial<WalkState>} options
 */
export async function walk(markdown, options, log = () => {}) {
  /** @type {WalkState} */
  const state = { readme: markdown, images: new Set(), repos: new Map(), releases: new Map(), files: new Map(), jmx: new Map(), forwards: new Map(),
    running: new Map(), line: 0, pushed: new Set(), ...options };
  const failures = [];
  for (const step of walkOf(markdown)) {
    if (step.file) {
      state.files.set(step.file, /** @type {string} */ (step.text));
      continue;
    }
    const words = /** @type {string[]} */ (step.words);
    state.line = step.line;
    const recognizer = RECOGNIZERS.find((r) => r.matches(words));
    const violations = recognizer ? await recognizer.check(words, state) : ['UNRECOGNISED: add a check for it, or change the README'];
    log(`line ${step.line}: ${step.text} -> ${recognizer?.name ?? 'nothing'}${violations.length ? ' -- FAILED' : ''}`);
    failures.push(...violations.map((v) => `line ${step.line}: ${step.text}\n    ${v}`));
  }
  return [...failures, ...leftBehind(state)];
}

/**
 * What the walk leaves unsaid: an image an overlay deploys that the pushes above miss; images built here, which run only on nodes of the builder's CPU architecture, with no word on
 * --platform; a claim that names no StorageClass, which binds only with a default one, and no
 * kustomization above that names one (a JSON patch: a strategic-merge one replaces the whole claim).
 */
function leftBehind(state) {
  const unnamed = state.applied && state.renders(state.applied)
    .some((o) => o.kind === 'StatefulSet' && o.spec.volumeClaimTemplates?.some((/** @type {any} */ c) => !c.spec?.storageClassName));
  const named = [...state.files.values()].some((text) => /path: \/spec\/volumeClaimTemplates\/\d+\/spec\/storageClassName/.test(text));
  const deployed = [...new Set(LAB_KUSTOMIZATIONS.flatMap((k) => state.renders(k)).filter((o) => o.kind === 'Deployment')
    .flatMap((o) => o.spec.template.spec.containers.map((/** @type {any} */ c) => String(c.image).split(':')[1])))];
  const pushes = [...state.pushed].filter((ref) => /starvation-lab:/.test(ref));
  return [
    ...(pushes.length ? deployed.filter((tag) => !pushes.some((ref) => ref.split(':').at(-1)?.split('-')[0] === tag))
      .map((tag) => `the images pushed above hold no starvation-lab:${tag}, which overlays deploy`) : []),
    ...([...state.images].some((i) => !i.includes('/')) && !state.readme.includes('--platform')
      ? ["images built here run only on nodes of the builder's CPU architecture: the README must say how to build for the nodes' (--platform)"] : []),
    ...(unnamed && !named ? ["PostgreSQL's claim names no StorageClass, so it binds only with a default one: the README must show how to name one"] : []),
  ];
}
