// The lab's NetworkPolicies as the API server and a network plugin read them
// (https://kubernetes.io/docs/concepts/services-networking/network-policies/): a pod is isolated for a
// direction once a policy of its namespace selects it with that direction in policyTypes (Ingress always,
// Egress when the policy has egress rules); isolated, it takes only what some selecting policy's rule
// allows; a connection needs the source's egress and the destination's ingress both. A peer's podSelector
// alone means the policy's namespace, a namespaceSelector alone every pod of the namespaces it selects,
// both together the pods it selects there; no `from`/`to` means any peer, no `ports` any port; a named
// port is the destination container's. Every namespace carries kubernetes.io/metadata.name. Traffic
// from the node (the kubelet's probes, port-forwards) is always allowed, so it is no flow here.

import { containersOf, matches, pods } from './policy.mjs';
import { NAMESPACE } from './render.mjs';

/**
 * The pods of components the lab does not render, with the labels their controllers give them, in the
 * namespaces the README installs them into (`namespaces`, by role).
 */
export function outsidePods(namespaces) {
  return {
    // prometheus-operator pkg/prometheus/server/statefulset.go makeStatefulSetSpec: podSelectorLabels, for the
    // Prometheus kube-prometheus-stack names <release>-prometheus
    prometheus: { where: `Prometheus (${namespaces.monitoring})`, namespace: namespaces.monitoring, labels: { 'app.kubernetes.io/name': 'prometheus',
      'app.kubernetes.io/managed-by': 'prometheus-operator', 'app.kubernetes.io/instance': 'kube-prometheus-stack-prometheus',
      prometheus: 'kube-prometheus-stack-prometheus', 'operator.prometheus.io/name': 'kube-prometheus-stack-prometheus', 'operator.prometheus.io/shard': '0' } },
    grafana: { where: `Grafana (${namespaces.monitoring})`, namespace: namespaces.monitoring,
      labels: { 'app.kubernetes.io/name': 'grafana', 'app.kubernetes.io/instance': 'kube-prometheus-stack' } },
    // grafana/k6-operator charts/k6-operator templates/deployment.yaml and _helpers.tpl selectorLabels, release k6-operator
    operator: { where: `the k6-operator (${namespaces.operator})`, namespace: namespaces.operator,
      labels: { 'control-plane': 'controller-manager', 'app.kubernetes.io/name': 'k6-operator', 'app.kubernetes.io/instance': 'k6-operator' } },
    // CoreDNS as kubeadm, kind, minikube and k3s label it
    dns: { where: 'cluster DNS (kube-system)', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' },
      ports: [{ name: 'dns', containerPort: 53, protocol: 'UDP' }, { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' }] },
    other: { where: `another app's pod (${NAMESPACE})`, namespace: NAMESPACE, labels: { 'app.kubernetes.io/name': 'other' } },
    elsewhere: { where: 'a pod in namespace default', namespace: 'default', labels: { app: 'curl' } },
  };
}

/**
 * Where a README's `helm install` lines put kube-prometheus-stack and the k6-operator.
 */
export function installedNamespaces(readme) {
  const namespaceOf = (/** @type {string} */ chart) => new RegExp(`^helm install \\S+ ${chart} .*--namespace (\\S+)`, 'm').exec(readme)?.[1] ?? 'default';
  return { monitoring: namespaceOf('prometheus-community/kube-prometheus-stack'), operator: namespaceOf('grafana/k6-operator') };
}

/** A namespace-wide default-deny of both directions, as a cluster baseline adds it. */
export const DEFAULT_DENY = { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'default-deny', namespace: NAMESPACE },
  spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] } };

/** @param {any} policy @returns {string[]} the directions it isolates */
const directionsOf = (policy) => policy.spec?.policyTypes ?? ['Ingress', ...(policy.spec?.egress?.length ? ['Egress'] : [])];

/**
 * Whether a policy's rule admits `peer` on `port`: its peers, then its ports against `target`'s containers.
 *
 * @param {any} rule an ingress or egress rule
 * @param {string[]} peers 'from' or 'to'
 * @param {Endpoint} target the destination, whose named ports count
 */
function admits(rule, peers, policy, peer, target, port) {
  const list = rule[peers];
  const peerMatches = !list || list.length === 0 || list.some((/** @type {any} */ p) => {
    if (p.ipBlock) return false; // a CIDR: what it reaches of pod addresses is the plugin's business, never a lab flow
    const inNamespace = p.namespaceSelector ? matches(p.namespaceSelector, namespaceLabels(peer.namespace)) : peer.namespace === policy.metadata?.namespace;
    return inNamespace && (!p.podSelector || matches(p.podSelector, peer.labels));
  });
  const portMatches = !rule.ports || rule.ports.length === 0 || rule.ports.some((/** @type {any} */ p) => {
    if ((p.protocol ?? 'TCP') !== port.protocol) return false;
    if (p.port === undefined) return true;
    const number = typeof p.port === 'number' ? p.port : target.ports.find((c) => c.name === p.port && (c.protocol ?? 'TCP') === port.protocol)?.containerPort;
    return number !== undefined && port.port >= number && port.port <= (typeof p.port === 'number' && p.endPort ? p.endPort : number);
  });
  return peerMatches && portMatches;
}

/** @param {string} namespace @returns {Record<string, string>} the label the API server sets on every namespace */
const namespaceLabels = (namespace) => ({ 'kubernetes.io/metadata.name': namespace });

/**
 * @typedef {{ where: string, namespace: string, labels: Record<string, string>, ports: { name?: string, containerPort: number, protocol?: string }[] }} Endpoint
 */

/**
 * Whether `from` may open a connection to `to` on `port` under `policies`, and if not, the side that refuses.
 *
 * @returns {string | null} null: allowed
 */
export function refusal(policies, from, to, port) {
  const side = (/** @type {Endpoint} */ pod, /** @type {'Ingress' | 'Egress'} */ direction, /** @type {Endpoint} */ peer) => {
    const selecting = policies.filter((p) => (p.metadata?.namespace ?? NAMESPACE) === pod.namespace
      && matches(p.spec?.podSelector ?? {}, pod.labels) && directionsOf(p).includes(direction));
    if (selecting.length === 0) return true;
    const [rules, peers] = direction === 'Ingress' ? ['ingress', 'from'] : ['egress', 'to'];
    return selecting.some((p) => (p.spec?.[rules] ?? []).some((/** @type {any} */ r) => admits(r, peers, p, peer, to, port)));
  };
  if (!side(from, 'Egress', to)) return `${from.where}'s egress`;
  if (!side(to, 'Ingress', from)) return `${to.where}'s ingress`;
  return null;
}

/** The endpoint a pod of pods() is. @param {any} pod */
function endpointOf(pod) {
  return { where: pod.where.replace(/^\S+ starvation-lab\//, ''), namespace: pod.owner.metadata?.namespace ?? NAMESPACE, labels: pod.labels,
    ports: containersOf(pod.spec).flatMap((/** @type {any} */ c) => c.ports ?? []) };
}

/**
 * The pod a `<scheme>://<service>:<port>` URL reaches and the pod port, through the Service's targetPort.
 */
function throughService(objects, endpoints, url) {
  const [, host, number] = /\/\/([a-z0-9-]+):(\d+)/.exec(url) ?? [];
  const service = objects.find((o) => o.kind === 'Service' && o.metadata?.name === host);
  const servicePort = service?.spec?.ports?.find((/** @type {any} */ p) => p.port === Number(number));
  const selected = endpoints.filter((e) => e.namespace === service?.metadata?.namespace && service?.spec?.selector
    && Object.entries(service.spec.selector).every(([k, v]) => e.labels[k] === v));
  return selected.map((to) => {
    const target = servicePort?.targetPort ?? servicePort?.port;
    const port = typeof target === 'number' ? target : to.ports.find((p) => p.name === target)?.containerPort;
    return { to, port: { port: Number(port), protocol: servicePort?.protocol ?? 'TCP' } };
  });
}

/**
 * Every flow the lab needs, each allowed, and the flows nothing may have, each refused, under the
 * rendered policies plus `extra` (a namespace default-deny): the load to the lab's Services as the k6
 * environment names them, Prometheus to the port its ServiceMonitor scrapes, the lab to PostgreSQL as
 * its JDBC URL names it, the k6-operator and the starter to the runner's 6565, DNS for whoever resolves.
 *
 * @param {any[]} objects the lab's render and a k6 render together
 * @param {{ monitoring: string, operator: string }} namespaces where the README installs the stack and the operator
 * @param {any[]} [extra] policies a cluster adds
 */
export function checkFlows(objects, namespaces, extra = [DEFAULT_DENY]) {
  const policies = [...objects.filter((o) => o.kind === 'NetworkPolicy'), ...extra];
  const all = pods(objects);
  const endpoints = all.map(endpointOf);
  const outside = outsidePods(namespaces);
  const byRole = (/** @type {string} */ role) => all.filter((p) => p.role === role).map(endpointOf);
  const lab = all.filter((p) => p.labels['app.kubernetes.io/component'] === 'service').map(endpointOf);
  const postgres = endpoints.filter((e) => e.labels['app.kubernetes.io/name'] === 'postgres');
  const loads = all.filter((p) => p.labels['app.kubernetes.io/component'] === 'load-generator');
  const dns = { to: { ...outside.dns, ports: outside.dns.ports }, port: { port: 53, protocol: 'UDP' } };
  const needed = [];
  const refused = [];
  for (const load of loads) {
    const from = endpointOf(load);
    const urls = containersOf(load.spec).flatMap((/** @type {any} */ c) => (c.env ?? []).filter((/** @type {any} */ e) => /_URL$/.test(e.name)).map((/** @type {any} */ e) => e.value));
    needed.push(['the load', from, [...urls.flatMap((u) => throughService(objects, endpoints, u)), dns]]);
    refused.push(['the load to PostgreSQL', from, postgres.map((to) => ({ to, port: { port: 5432, protocol: 'TCP' } }))]);
  }
  const scraped = objects.filter((o) => o.kind === 'ServiceMonitor').flatMap((m) => objects.filter((s) => s.kind === 'Service'
    && matches(m.spec?.selector ?? {}, s.metadata?.labels ?? {})).flatMap((s) => (m.spec?.endpoints ?? []).flatMap((/** @type {any} */ e) => {
    const port = s.spec?.ports?.find((/** @type {any} */ p) => p.name === e.port);
    return port ? throughService(objects, endpoints, `http://${s.metadata.name}:${port.port}`) : [];
  })));
  if (lab.length) needed.push(['the scrape', outside.prometheus, scraped]);
  for (const pod of all.filter((p) => p.labels['app.kubernetes.io/component'] === 'service')) {
    const url = containersOf(pod.spec).flatMap((/** @type {any} */ c) => c.env ?? []).find((/** @type {any} */ e) => e.name === 'QUARKUS_DATASOURCE_JDBC_URL')?.value;
    needed.push(['the database', endpointOf(pod), [...(url ? throughService(objects, endpoints, url) : []), dns]]);
  }
  const runners = byRole('runner');
  const api = runners.map((to) => ({ to, port: { port: 6565, protocol: 'TCP' } }));
  if (runners.length) {
    needed.push(["the operator's status calls", outside.operator, api]);
    for (const starter of byRole('starter')) needed.push(["the starter's PATCH", starter, api]);
  }
  const labPort = lab.map((to) => ({ to, port: { port: 8080, protocol: 'TCP' } }));
  for (const stranger of [outside.other, outside.elsewhere, outside.grafana, ...byRole('initializer'), ...byRole('starter'), ...postgres]) {
    refused.push(['/work/{mode}', stranger, labPort], ['PostgreSQL', stranger, postgres.map((to) => ({ to, port: { port: 5432, protocol: 'TCP' } }))]);
  }
  refused.push(["the runner's REST API", outside.other, api], ["the runner's REST API", outside.elsewhere, api]);
  const violations = [];
  for (const [what, from, flows] of needed) {
    if (flows.length === 0) violations.push(`${what}: ${from.where} reaches no pod (a URL or port that names nothing)`);
    for (const { to, port } of flows) {
      const refuser = refusal(policies, from, to, port);
      if (refuser) violations.push(`${what}: ${from.where} -> ${to.where}:${port.port}/${port.protocol} is refused by ${refuser}`);
    }
  }
  for (const [what, from, flows] of refused) {
    for (const { to, port } of flows.filter((f) => f.to !== from)) {
      if (!refusal(policies, from, to, port)) violations.push(`${what}: ${from.where} -> ${to.where}:${port.port} is allowed, and must not be`);
    }
  }
  return violations;
}
