// What a cluster does with an apply that no offline render shows: how big an object the API server
// takes (and kubectl's client-side apply copies into an annotation), and where the scheduler can put
// the pods, against the node sizes kubernetes/README.md states.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { containersOf, matches, parseQuantity, pods } from './policy.mjs';
import { describe, REPO } from './render.mjs';

/** ConfigMap data and binaryData together (kubernetes pkg/apis/core/validation ValidateConfigMap: core.MaxSecretSize). */
export const CONFIGMAP_LIMIT = 1024 * 1024;
/** All of an object's annotations together (apimachinery pkg/api/validation ValidateAnnotations: TotalAnnotationSizeLimitB). */
export const ANNOTATIONS_LIMIT = 256 * 1024;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const GiB = 2 ** 30;
/** A kind cluster's own pods beside the lab's: the control plane, kube-prometheus-stack and the k6-operator, at their working set. */
const KIND_OWN_GiB = 3;

/**
 * What the API server would refuse of an apply for size: a ConfigMap over 1 MiB whatever the apply, and
 * under a client-side apply any object whose annotations, with the last-applied configuration kubectl
 * adds (the object's own JSON and a newline: k8s.io/kubectl pkg/util/apply.go GetModifiedConfiguration),
 * pass 256 KiB. Server-side apply keeps no such copy: its managedFields list field names only.
 */
export function checkApplySizes(objects, serverSide) {
  return objects.flatMap((o) => {
    const values = o.kind === 'ConfigMap' ? [...Object.values(o.data ?? {}), ...Object.values(o.binaryData ?? {})] : [];
    const data = values.reduce((n, v) => n + Buffer.byteLength(String(v)), 0);
    const annotations = Object.entries(o.metadata?.annotations ?? {}).reduce((n, [k, v]) => n + k.length + String(v).length, 0);
    const lastApplied = serverSide ? 0 : LAST_APPLIED.length + Buffer.byteLength(`${JSON.stringify(o)}\n`);
    return [
      ...(data > CONFIGMAP_LIMIT ? [`${describe(o)}: ${data} bytes of data, over a ConfigMap's ${CONFIGMAP_LIMIT}`] : []),
      ...(annotations + lastApplied > ANNOTATIONS_LIMIT ? [`${describe(o)}: ${annotations + lastApplied} bytes of annotations with kubectl's ${LAST_APPLIED}, `
        + `over ${ANNOTATIONS_LIMIT}: apply it --server-side`] : []),
    ];
  });
}

/**
 * A pod's requests as the scheduler counts them (k8s.io/component-helpers resource/helpers.go
 * PodRequests): its containers and its sidecars (init containers that restart Always) add up; an
 * ordinary init container runs alone, beside the sidecars started before it.
 *
 * @param {any} spec a pod spec
 */
export function podRequests(spec) {
  const request = (/** @type {any} */ c, /** @type {'cpu' | 'memory'} */ r) => parseQuantity(c.resources?.requests?.[r] ?? 0) || 0;
  const of = (/** @type {'cpu' | 'memory'} */ r) => {
    let sidecars = 0;
    let inits = 0;
    for (const c of spec.initContainers ?? []) {
      if (c.restartPolicy === 'Always') sidecars += request(c, r);
      else inits = Math.max(inits, sidecars + request(c, r));
    }
    return Math.max(inits, sidecars + (spec.containers ?? []).reduce((/** @type {number} */ n, /** @type {any} */ c) => n + request(c, r), 0));
  };
  return { cpu: of('cpu'), memory: of('memory') };
}

/**
 * @typedef {{ name: string, cpu: number, memory: number, labels?: Record<string, string>, spread?: any[] }} PodToPlace
 * @typedef {{ cpu: number, memory: number, tainted?: boolean }} Node what it offers; tainted: NoSchedule, which no lab pod tolerates
 */

/**
 * Whether the pod topology spread lets `pod` onto node `i` (pkg/scheduler/framework/plugins/podtopologyspread/filtering.go):
 * for each DoNotSchedule constraint on kubernetes.io/hostname, the matching pods already on the node, plus the pod
 * itself if it matches, less the fewest on any eligible node (with nodeTaintsPolicy Honor a tainted node is none;
 * the default, Ignore, counts it), at most maxSkew.
 *
 * @param {PodToPlace} pod @param {number} i @param {Node[]} nodes @param {Record<string, string>[][]} onNodes the labels of the pods placed on each
 */
function spreadAllows(pod, i, nodes, onNodes) {
  return (pod.spread ?? []).filter((c) => c.whenUnsatisfiable === 'DoNotSchedule' && c.topologyKey === 'kubernetes.io/hostname').every((c) => {
    const counts = onNodes.map((labels) => labels.filter((l) => matches(c.labelSelector, l)).length);
    const eligible = counts.filter((_, j) => !(nodes[j].tainted && c.nodeTaintsPolicy === 'Honor'));
    return counts[i] + (matches(c.labelSelector, pod.labels ?? {}) ? 1 : 0) - Math.min(...eligible) <= c.maxSkew;
  });
}

/**
 * Every way the scheduler can place `placed` (in any order: `kubectl apply` creates them together) on
 * `nodes`: on any untainted node where its requests fit what is left (pkg/scheduler/framework/plugins/
 * noderesources/fit.go) and the topology spread allows it, for the default scores (least allocated,
 * balanced allocation, topology spread) may pick any of those; then whether each of `then` fits beside them.
 *
 * @param {{ apart?: boolean }} [options] apart: a placement that puts two of `placed` on one node fails too
 * @returns {{ order: string, unplaced?: string, misfit?: string, shared?: boolean }[]} the placements that fail
 */
export function schedule(placed, then, nodes, { apart = false } = {}) {
  const failures = [];
  const fits = (used, onNodes, pod, i) => !nodes[i].tainted && used[i].cpu + pod.cpu <= nodes[i].cpu + 1e-9 && used[i].memory + pod.memory <= nodes[i].memory
    && spreadAllows(pod, i, nodes, onNodes);
  const place = (left, used, onNodes, order) => {
    const misfit = left.length ? undefined : then.find((pod) => !used.some((_, i) => fits(used, onNodes, pod, i)));
    if (misfit) failures.push({ order: order.join(', '), misfit: misfit.name });
    if (!left.length && apart && onNodes.some((labels) => labels.length > 1)) failures.push({ order: order.join(', '), shared: true });
    for (const pod of left) {
      if (!used.some((_, i) => fits(used, onNodes, pod, i))) failures.push({ order: order.join(', '), unplaced: pod.name });
      used.forEach((_, i) => fits(used, onNodes, pod, i) && place(left.filter((p) => p !== pod),
        used.map((v, j) => (j === i ? { cpu: v.cpu + pod.cpu, memory: v.memory + pod.memory } : v)),
        onNodes.map((labels, j) => (j === i ? [...labels, pod.labels ?? {}] : labels)), [...order, `${pod.name} on node ${i + 1}`]));
    }
  };
  place(placed, nodes.map(() => ({ cpu: 0, memory: 0 })), nodes.map(() => []), []);
  return failures;
}

/**
 * The README's node sizes against the scheduler: for each row of its table ("| 6.5 CPUs and 7 GiB ... |
 * 2 |"), the lab's pods placed on that many nodes with that much free, then each k6 pod (the
 * initializer, then the runner; or the Job's pod) must fit beside them; "under N CPUs | none" must
 * fit no lab pod. With kind every node offers all of Docker's CPUs and memory, so what
 * Docker needs is the memory the pods may use (their limits) and the cluster's own.
 *
 * @param {any[]} lab the lab's render
 * @param {any[]} k6 the render of a way to run the load
 */
export function checkSizing(readme, lab, k6) {
  const asPod = (/** @type {any} */ p) => ({ name: p.where.replace(/^\S+ starvation-lab\//, ''), ...podRequests(p.spec), labels: p.labels,
    spread: p.spec.topologySpreadConstraints ?? [] });
  const labPods = pods(lab).flatMap((p) => Array.from({ length: p.owner.spec?.replicas ?? 1 }, () => asPod(p)));
  const k6Pods = pods(k6).filter((p) => p.role !== 'starter').map(asPod);
  const rows = [...readme.matchAll(/^\s*\|\s*(under )?([\d.]+) CPUs(?: and ([\d.]+) GiB)?[^|]*\|\s*(\d+|none)\s*\|\s*$/gm)];
  const violations = rows.length ? [] : ['the README states no node sizes (| <n> CPUs and <m> GiB | <nodes> |)'];
  // the kubelet's and the DaemonSets' share leave a node of exactly a lab pod's CPUs fewer allocatable
  const cpus = Math.max(...labPods.map((p) => p.cpu));
  if (!rows.some(([, under, c, , count]) => under && count === 'none' && Number(c) === cpus)) {
    violations.push(`the README must say a node of ${cpus} vCPUs runs no lab pod (| under ${cpus} CPUs | none |)`);
  }
  for (const [row, under, cpus, gib, count] of rows) {
    const free = { cpu: Number(cpus) - (under ? 0.001 : 0), memory: (gib ? Number(gib) : 1024) * GiB };
    if (count === 'none') {
      if (labPods.every((p) => p.cpu <= free.cpu && p.memory <= free.memory)) violations.push(`${row.trim()}: says no node fits, yet every lab pod fits one`);
      continue;
    }
    const failures = schedule(labPods, k6Pods, Array.from({ length: Number(count) }, () => free));
    for (const f of failures.slice(0, 1)) {
      violations.push(`${row.trim()}: ${f.unplaced ? `${f.unplaced} fits on no node` : `${f.misfit} fits on no node after ${f.order}`}`);
    }
  }
  const kind = /kind: Docker \(Desktop\) with (\d+) CPUs and (\d+) GiB/.exec(readme.replace(/\s+/g, ' '));
  const limit = (/** @type {any} */ p) => containersOf(p.spec).reduce((n, c) => n + (parseQuantity(c.resources?.limits?.memory ?? 0) || 0), 0);
  const memory = pods(lab).reduce((n, p) => n + limit(p), 0) + Math.max(...pods(k6).map(limit)) + KIND_OWN_GiB * GiB;
  if (!kind) violations.push("the README states no Docker size for kind (kind: Docker (Desktop) with <n> CPUs and <m> GiB)");
  else if (Number(kind[2]) * GiB < memory) {
    violations.push(`kind: Docker's ${kind[2]} GiB, under the ${(memory / GiB).toFixed(1)} GiB the pods' limits and the cluster's own take`);
  }
  // kind's nodes each offer all of Docker; its control plane, beside workers, keeps kubeadm's NoSchedule taint
  const kindNodes = parse(readFileSync(join(REPO, 'kubernetes/kind-cluster.yaml'), 'utf8')).nodes
    .map((/** @type {any} */ n) => ({ cpu: Number(kind?.[1] ?? 0), memory: Number(kind?.[2] ?? 0) * GiB, tainted: n.role === 'control-plane' }));
  for (const f of schedule(labPods, k6Pods, kindNodes).slice(0, 1)) {
    violations.push(`kind-cluster.yaml: ${f.unplaced ?? f.misfit} stays Pending${f.order ? ` after ${f.order}` : ''}`);
  }
  // on nodes that fit them all, the measured pods and the load still each get one of their own
  const measuredAndLoad = [...labPods, ...k6Pods].filter((p) => ['service', 'load-generator'].includes(p.labels['app.kubernetes.io/component']));
  const large = Array.from({ length: measuredAndLoad.length }, () => ({ cpu: 64, memory: 256 * GiB }));
  for (const f of schedule(measuredAndLoad, [], large, { apart: true }).filter((x) => x.shared).slice(0, 1)) {
    violations.push(`on ${large.length} nodes of 64 CPUs the scheduler may share a node: ${f.order}`);
  }
  return violations;
}
