// The lab's own rules for its manifests, beyond what the schemas say. Each check takes rendered
// objects and returns violations (empty: it holds), so a broken fixture can prove it fails.

import { describe, NAMESPACE } from './render.mjs';

/** Health endpoints the service serves, by the probe that should use them. */
export const HEALTH_PATHS = {
  startupProbe: '/q/health/started',
  livenessProbe: '/q/health/live',
  readinessProbe: '/q/health/ready',
};
export const SERVICE_PORT = 8080;
export const LAB_DEPLOYMENTS = ['lab-pinned', 'lab-unpinned'];
export const LAB_CPUS = 4;

const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition',
  'PersistentVolume', 'StorageClass', 'PriorityClass']);
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

/**
 * Every pod the objects would run: workloads' templates, bare Pods, and the three pods the
 * k6-operator builds from a TestRun (pkg/resources/jobs in grafana/k6-operator): the runner and the
 * initializer (one container named k6, the script's ConfigMap mounted; without spec.initializer the
 * operator copies spec.runner), and the starter (one curl container; the pod takes
 * starter.securityContext, the container starter.containerSecurityContext, no volumes).
 *
 * @param {any[]} objects
 * @returns {{ owner: any, where: string, labels: Record<string, string>, spec: any, testRunPod?: any, testRunRole?: string }[]}
 */
export function pods(objects) {
  const found = [];
  for (const object of objects) {
    if (WORKLOAD_KINDS.has(object.kind)) {
      const template = object.spec?.template ?? {};
      found.push({ owner: object, where: describe(object), labels: template.metadata?.labels ?? {}, spec: template.spec ?? {} });
    } else if (object.kind === 'Pod') {
      found.push({ owner: object, where: describe(object), labels: object.metadata?.labels ?? {}, spec: object.spec ?? {} });
    } else if (object.kind === 'TestRun') {
      const script = object.spec?.script?.configMap;
      const scriptVolumes = script ? [{ name: 'k6-test-volume', configMap: { name: script.name } }] : [];
      for (const role of ['runner', 'initializer', 'starter']) {
        const pod = role === 'initializer' ? object.spec?.initializer ?? object.spec?.runner : object.spec?.[role];
        if (!pod && role !== 'starter') continue;
        const k6Pod = role !== 'starter';
        found.push({
          owner: object,
          where: `${describe(object)} ${role}`,
          labels: pod?.metadata?.labels ?? {},
          spec: {
            securityContext: pod?.securityContext,
            volumes: k6Pod ? [...scriptVolumes, ...(pod.volumes ?? [])] : [],
            containers: [k6Pod ? {
              name: 'k6', image: pod.image, env: pod.env, envFrom: pod.envFrom, resources: pod.resources,
              securityContext: pod.containerSecurityContext, volumeMounts: pod.volumeMounts,
            } : { name: 'k6-curl', image: pod?.image, securityContext: pod?.containerSecurityContext }],
          },
          testRunPod: pod ?? {},
          testRunRole: role,
        });
      }
    }
  }
  return found;
}

/**
 * @param {any} spec a pod spec
 * @returns {any[]}
 */
function containersOf(spec) {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
}

/**
 * Kubernetes quantities in base units ("4" and "4000m" are both 4; "1Gi" is 1073741824).
 *
 * @param {unknown} quantity
 * @returns {number}
 */
export function parseQuantity(quantity) {
  const match = /^([+-]?[0-9.]+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(String(quantity ?? '').trim());
  if (!match) {
    return Number.NaN;
  }
  /** @type {Record<string, number>} */
  const factors = {
    '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
    Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
  };
  return Number(match[1]) * factors[match[2] ?? ''];
}

/**
 * @param {Record<string, string>} selector
 * @param {Record<string, string>} labels
 */
function selects(selector, labels) {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

/**
 * @param {any} labelSelector a LabelSelector (matchLabels and matchExpressions)
 * @param {Record<string, string>} labels
 */
function matchesLabelSelector(labelSelector, labels) {
  if (!selects(labelSelector?.matchLabels ?? {}, labels)) {
    return false;
  }
  return (labelSelector?.matchExpressions ?? []).every((/** @type {any} */ e) => {
    const has = Object.hasOwn(labels, e.key);
    switch (e.operator) {
      case 'In': return has && e.values.includes(labels[e.key]);
      case 'NotIn': return !has || !e.values.includes(labels[e.key]);
      case 'Exists': return has;
      case 'DoesNotExist': return !has;
      default: return false;
    }
  });
}

/**
 * The required objects exist, and every namespaced object is in the lab's namespace.
 *
 * @param {any[]} objects
 * @param {[string, string][]} required [kind, name] pairs
 * @returns {string[]}
 */
export function checkNamesAndNamespace(objects, required) {
  const violations = [];
  for (const [kind, name] of required) {
    if (!objects.some((o) => o.kind === kind && o.metadata?.name === name)) {
      violations.push(`missing ${kind} ${name}`);
    }
  }
  for (const object of objects) {
    const namespace = object.metadata?.namespace;
    if (CLUSTER_SCOPED.has(object.kind)) {
      if (namespace) violations.push(`${describe(object)}: cluster-scoped, yet has a namespace`);
    } else if (namespace !== NAMESPACE) {
      violations.push(`${describe(object)}: namespace is ${namespace ?? 'unset'}, not ${NAMESPACE}`);
    }
  }
  return violations;
}

/**
 * app.kubernetes.io/name and app.kubernetes.io/part-of on every object and pod.
 *
 * @param {any[]} objects
 * @returns {string[]}
 */
export function checkLabels(objects) {
  const violations = [];
  const need = (/** @type {Record<string, string>} */ labels, /** @type {string} */ where) => {
    if (!labels['app.kubernetes.io/name']) violations.push(`${where}: no app.kubernetes.io/name label`);
    if (labels['app.kubernetes.io/part-of'] !== 'starvation-lab') violations.push(`${where}: app.kubernetes.io/part-of is not starvation-lab`);
  };
  for (const object of objects) {
    need(object.metadata?.labels ?? {}, describe(object));
  }
  for (const pod of pods(objects)) {
    need(pod.labels, `${pod.where} pod template`);
  }
  return violations;
}

/**
 * The measured Deployments (checkNamesAndNamespace requires both): a CPU limit of exactly 4 (the
 * CFS quota the JVM reads: 4 carriers) and requests = limits (Guaranteed QoS); the datasource comes
 * from the environment and the Secret; the starvation readiness check stays off.
 *
 * @param {any[]} objects
 * @returns {string[]}
 */
export function checkLabDeployments(objects) {
  const violations = [];
  for (const deployment of objects.filter((o) => o.kind === 'Deployment' && LAB_DEPLOYMENTS.includes(o.metadata?.name))) {
    const where = describe(deployment);
    for (const container of containersOf(deployment.spec?.template?.spec ?? {})) {
      const at = `${where} container ${container.name}`;
      const requests = container.resources?.requests ?? {};
      const limits = container.resources?.limits ?? {};
      for (const resource of ['cpu', 'memory']) {
        if (requests[resource] === undefined || limits[resource] === undefined) {
          violations.push(`${at}: ${resource} request and limit must both be set (Guaranteed QoS)`);
        } else if (parseQuantity(requests[resource]) !== parseQuantity(limits[resource])) {
          violations.push(`${at}: ${resource} request ${requests[resource]} != limit ${limits[resource]} (Guaranteed QoS needs them equal)`);
        }
      }
      for (const [kind, value] of [['request', requests.cpu], ['limit', limits.cpu]]) {
        if (value !== undefined && parseQuantity(value) !== LAB_CPUS) {
          violations.push(`${at}: cpu ${kind} is ${value}, not ${LAB_CPUS} (the carriers are the CPU limit)`);
        }
      }
      const env = new Map((container.env ?? []).map((/** @type {any} */ e) => [e.name, e]));
      if (!env.get('QUARKUS_DATASOURCE_JDBC_URL')?.value?.startsWith('jdbc:postgresql://')) {
        violations.push(`${at}: QUARKUS_DATASOURCE_JDBC_URL must point at PostgreSQL`);
      }
      for (const secretEnv of ['QUARKUS_DATASOURCE_USERNAME', 'QUARKUS_DATASOURCE_PASSWORD']) {
        if (!env.get(secretEnv)?.valueFrom?.secretKeyRef) {
          violations.push(`${at}: ${secretEnv} must come from a Secret`);
        }
      }
      if (env.get('LAB_EMBEDDED_POSTGRES_ENABLED')?.value !== 'false') {
        violations.push(`${at}: LAB_EMBEDDED_POSTGRES_ENABLED must be "false" (no database inside the pod)`);
      }
      if (String(env.get('LAB_STARVATION_READINESS_ENABLED')?.value ?? 'false') !== 'false') {
        violations.push(`${at}: LAB_STARVATION_READINESS_ENABLED would take the measured pod out of its Service mid-test`);
      }
    }
  }
  return violations;
}

/**
 * The load generators (pods labelled app.kubernetes.io/component=load-generator: the TestRun's
 * runner and initializer, the plain Job): every container that sets resources requests what it is
 * limited to, CPU and memory. A runner that requests less than its CPU limit is throttled whenever
 * its node is busy, and the throttling lands in every probe's latency; its k6 container must set both.
 *
 * @param {any[]} objects
 * @returns {string[]}
 */
export function checkLoadGenerators(objects) {
  const violations = [];
  for (const pod of pods(objects).filter((p) => p.labels['app.kubernetes.io/component'] === 'load-generator')) {
    for (const container of containersOf(pod.spec)) {
      const at = `${pod.where} container ${container.name}`;
      const requests = container.resources?.requests ?? {};
      const limits = container.resources?.limits ?? {};
      if (!container.resources) {
        if (container.name === 'k6') violations.push(`${at}: no resources: k6 needs requests = limits, CPU and memory`);
        continue;
      }
      for (const resource of ['cpu', 'memory']) {
        if (requests[resource] === undefined || limits[resource] === undefined) {
          violations.push(`${at}: ${resource} request and limit must both be set`);
        } else if (parseQuantity(requests[resource]) !== parseQuantity(limits[resource])) {
          violations.push(`${at}: ${resource} request ${requests[resource]} != limit ${limits[resource]}`
            + (resource === 'cpu' ? ' (throttled on a busy node: the load adds latency to every probe)' : ''));
        }
      }
    }
  }
  return violations;
}

/**
 * The lab containers' probes use the health endpoint each probe is for, on port 8080, with a
 * timeout shorter than the period.
 *
 * @param {any[]} objects
 * @returns {string[]}
 */
export function checkProbes(objects) {
  const violations = [];
  for (const object of objects.filter((o) => o.kind === 'Deployment' && LAB_DEPLOYMENTS.includes(o.metadata?.name))) {
    for (const container of object.spec?.template?.spec?.containers ?? []) {
      const at = `${describe(object)} container ${container.name}`;
      for (const [probeName, path] of Object.entries(HEALTH_PATHS)) {
        const probe = container[probeName];
        if (!probe) {
          violations.push(`${at}: no ${probeName}`);
          continue;
        }
        if (probe.httpGet?.path !== path) {
          violations.push(`${at}: ${probeName} calls ${probe.httpGet?.path ?? '(no httpGet)'}, the service serves ${path} for it`);
        }
        const port = probe.httpGet?.port;
        const number = typeof port === 'number' ? port
          : (container.ports ?? []).find((/** @type {any} */ p) => p.name === port)?.containerPort;
        if (number !== SERVICE_PORT) {
          violations.push(`${at}: ${probeName} port ${port} is not ${SERVICE_PORT}`);
        }
        if ((probe.timeoutSeconds ?? 1) > (probe.periodSeconds ?? 10)) {
          violations.push(`${at}: ${probeName} timeoutSeconds exceeds periodSeconds`);
        }
      }
    }
  }
  return violations;
}

/**
 * Selectors select: a workload's selector its own template, a Service's and a NetworkPolicy's
 * some pod, a ServiceMonitor's some Service (and a port it has).
 *
 * @param {any[]} objects
 * @returns {string[]}
 */
export function checkSelectors(objects) {
  const violations = [];
  const allPods = pods(objects);
  for (const object of objects.filter((o) => WORKLOAD_KINDS.has(o.kind) && o.spec?.selector)) {
    const labels = object.spec?.template?.metadata?.labels ?? {};
    if (!matchesLabelSelector(object.spec.selector, labels)) {
      violations.push(`${describe(object)}: selector ${JSON.stringify(object.spec.selector)} does not match its pod template's labels`);
    }
  }
  for (const service of objects.filter((o) => o.kind === 'Service' && o.spec?.selector)) {
    const matched = allPods.filter((p) => p.owner.metadata?.namespace === service.metadata?.namespace && selects(service.spec.selector, p.labels));
    if (matched.length === 0) {
      violations.push(`${describe(service)}: selector ${JSON.stringify(service.spec.selector)} matches no pod`);
      continue;
    }
    for (const port of service.spec?.ports ?? []) {
      if (typeof port.targetPort !== 'string') continue;
      const named = matched.some((p) => containersOf(p.spec).some((c) => (c.ports ?? []).some((/** @type {any} */ cp) => cp.name === port.targetPort)));
      if (!named) {
        violations.push(`${describe(service)}: targetPort ${port.targetPort} names no container port of the pods it selects`);
      }
    }
  }
  for (const policy of objects.filter((o) => o.kind === 'NetworkPolicy')) {
    const inNamespace = allPods.filter((p) => p.owner.metadata?.namespace === policy.metadata?.namespace);
    if (!inNamespace.some((p) => matchesLabelSelector(policy.spec?.podSelector ?? {}, p.labels))) {
      violations.push(`${describe(policy)}: podSelector matches no pod`);
    }
    for (const rule of policy.spec?.ingress ?? []) {
      for (const peer of rule.from ?? []) {
        if (peer.podSelector && !peer.namespaceSelector && !inNamespace.some((p) => matchesLabelSelector(peer.podSelector, p.labels))) {
          violations.push(`${describe(policy)}: ingress podSelector ${JSON.stringify(peer.podSelector)} matches no pod`);
        }
      }
    }
  }
  for (const monitor of objects.filter((o) => o.kind === 'ServiceMonitor')) {
    const services = objects.filter((o) => o.kind === 'Service' && o.metadata?.namespace === monitor.metadata?.namespace
      && matchesLabelSelector(monitor.spec?.selector ?? {}, o.metadata?.labels ?? {}));
    if (services.length === 0) {
      violations.push(`${describe(monitor)}: selector matches no Service`);
    }
    for (const endpoint of monitor.spec?.endpoints ?? []) {
      for (const service of services) {
        if (endpoint.port && !(service.spec?.ports ?? []).some((/** @type {any} */ p) => p.name === endpoint.port)) {
          violations.push(`${describe(monitor)}: endpoint port ${endpoint.port} is not a port of ${describe(service)}`);
        }
      }
    }
  }
  for (const statefulSet of objects.filter((o) => o.kind === 'StatefulSet')) {
    const name = statefulSet.spec?.serviceName;
    if (name && !objects.some((o) => o.kind === 'Service' && o.metadata?.name === name)) {
      violations.push(`${describe(statefulSet)}: serviceName ${name} is no Service`);
    }
  }
  return violations;
}

/**
 * Every ConfigMap, Secret (and key) and in-namespace Service a pod refers to exists: env valueFrom,
 * envFrom, volumes, the TestRun's script, and *_URL environment values naming a Service.
 *
 * @param {any[]} objects the render under test
 * @param {any[]} [available] objects applied beside it (the lab, for the k6 renders)
 * @returns {string[]}
 */
export function checkReferences(objects, available = []) {
  const all = [...objects, ...available];
  const violations = [];
  const find = (/** @type {string} */ kind, /** @type {string} */ name) => all.find((o) => o.kind === kind && o.metadata?.name === name);
  const keysOf = (/** @type {any} */ object) => new Set([
    ...Object.keys(object?.data ?? {}), ...Object.keys(object?.stringData ?? {}), ...Object.keys(object?.binaryData ?? {})]);
  /**
   * @param {string} where
   * @param {string} kind
   * @param {string} name
   * @param {{ key?: string, optional?: boolean }} [options]
   */
  const need = (where, kind, name, { key, optional } = {}) => {
    const target = find(kind, name);
    if (!target) {
      if (!optional) violations.push(`${where}: refers to ${kind} ${name}, which is not in the render`);
      return;
    }
    if (key !== undefined && !keysOf(target).has(key) && !optional) {
      violations.push(`${where}: ${kind} ${name} has no key ${key}`);
    }
  };
  for (const pod of pods(objects)) {
    for (const volume of pod.spec.volumes ?? []) {
      const at = `${pod.where} volume ${volume.name}`;
      if (volume.configMap) {
        need(at, 'ConfigMap', volume.configMap.name, { optional: volume.configMap.optional });
        for (const item of volume.configMap.items ?? []) need(at, 'ConfigMap', volume.configMap.name, { key: item.key, optional: volume.configMap.optional });
      }
      if (volume.secret) {
        need(at, 'Secret', volume.secret.secretName, { optional: volume.secret.optional });
        for (const item of volume.secret.items ?? []) need(at, 'Secret', volume.secret.secretName, { key: item.key, optional: volume.secret.optional });
      }
      for (const source of volume.projected?.sources ?? []) {
        if (source.configMap) need(at, 'ConfigMap', source.configMap.name, { optional: source.configMap.optional });
        if (source.secret) need(at, 'Secret', source.secret.name, { optional: source.secret.optional });
      }
    }
    for (const container of containersOf(pod.spec)) {
      const at = `${pod.where} container ${container.name}`;
      for (const from of container.envFrom ?? []) {
        if (from.configMapRef) need(at, 'ConfigMap', from.configMapRef.name, { optional: from.configMapRef.optional });
        if (from.secretRef) need(at, 'Secret', from.secretRef.name, { optional: from.secretRef.optional });
      }
      for (const variable of container.env ?? []) {
        const ref = variable.valueFrom;
        if (ref?.configMapKeyRef) need(`${at} env ${variable.name}`, 'ConfigMap', ref.configMapKeyRef.name, ref.configMapKeyRef);
        if (ref?.secretKeyRef) need(`${at} env ${variable.name}`, 'Secret', ref.secretKeyRef.name, ref.secretKeyRef);
        const url = /_URL$/.test(variable.name) ? /^[a-z]+:(?:[a-z]+:)?\/\/([a-z0-9-]+):(\d+)(?:\/|$)/.exec(variable.value ?? '') : null;
        if (url) {
          const service = find('Service', url[1]);
          if (!service) {
            violations.push(`${at} env ${variable.name}: host ${url[1]} is no Service in the render`);
          } else if (!(service.spec?.ports ?? []).some((/** @type {any} */ p) => p.port === Number(url[2]))) {
            violations.push(`${at} env ${variable.name}: Service ${url[1]} has no port ${url[2]}`);
          }
        }
      }
    }
  }
  for (const testRun of objects.filter((o) => o.kind === 'TestRun')) {
    const script = testRun.spec?.script?.configMap;
    if (script) need(`${describe(testRun)} script`, 'ConfigMap', script.name, { key: script.file ?? 'test.js' });
  }
  return violations;
}

/**
 * Every image names an explicit tag (or a digest), never `latest`.
 *
 * @param {any[]} objects
 * @returns {string[]}
 */
export function checkImages(objects) {
  const violations = [];
  const check = (/** @type {string} */ where, /** @type {unknown} */ image) => {
    const ref = String(image ?? '');
    if (ref.includes('@sha256:')) return;
    const lastSlash = ref.lastIndexOf('/');
    const colon = ref.indexOf(':', lastSlash + 1);
    const tag = colon < 0 ? '' : ref.slice(colon + 1);
    if (!ref) violations.push(`${where}: no image`);
    else if (!tag) violations.push(`${where}: image ${ref} has no tag`);
    else if (tag === 'latest') violations.push(`${where}: image ${ref} uses latest`);
  };
  for (const pod of pods(objects)) {
    for (const container of containersOf(pod.spec)) {
      // the operator's own default image for the initializer (the runner's) and the starter
      if (pod.testRunPod && container.image === undefined && pod.testRunRole !== 'runner') continue;
      check(`${pod.where} container ${container.name}`, container.image);
    }
  }
  return violations;
}

/**
 * Every container runs non-root, without privilege escalation or capabilities, with the
 * RuntimeDefault seccomp profile and a read-only root file system; a writable /tmp comes from an
 * emptyDir.
 *
 * @param {any[]} objects
 * @returns {string[]}
 */
export function checkSecurity(objects) {
  const violations = [];
  for (const pod of pods(objects)) {
    const podContext = pod.spec.securityContext ?? {};
    const emptyDirs = new Set((pod.spec.volumes ?? []).filter((/** @type {any} */ v) => v.emptyDir).map((/** @type {any} */ v) => v.name));
    for (const container of containersOf(pod.spec)) {
      const at = `${pod.where} container ${container.name}`;
      const context = container.securityContext ?? {};
      if (context.allowPrivilegeEscalation !== false) violations.push(`${at}: allowPrivilegeEscalation must be false`);
      if (context.privileged === true) violations.push(`${at}: privileged`);
      if (context.readOnlyRootFilesystem !== true) violations.push(`${at}: readOnlyRootFilesystem must be true`);
      if (!(context.capabilities?.drop ?? []).includes('ALL')) violations.push(`${at}: capabilities must drop ALL`);
      if ((context.capabilities?.add ?? []).length > 0) violations.push(`${at}: adds capabilities`);
      if ((context.runAsNonRoot ?? podContext.runAsNonRoot) !== true) violations.push(`${at}: runAsNonRoot must be true`);
      if ((context.runAsUser ?? podContext.runAsUser) === 0) violations.push(`${at}: runs as uid 0`);
      if ((context.seccompProfile ?? podContext.seccompProfile)?.type !== 'RuntimeDefault') {
        violations.push(`${at}: seccompProfile must be RuntimeDefault`);
      }
      const tmp = (container.volumeMounts ?? []).find((/** @type {any} */ m) => m.mountPath === '/tmp');
      // the operator mounts nothing into the starter, whose curl writes no file
      if (pod.testRunRole !== 'starter' && context.readOnlyRootFilesystem === true && (!tmp || tmp.readOnly || !emptyDirs.has(tmp.name))) {
        violations.push(`${at}: a read-only root file system needs a writable emptyDir at /tmp`);
      }
    }
  }
  return violations;
}

/** Volume types Pod Security "restricted" admits. */
const RESTRICTED_VOLUMES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
/** Sysctls Pod Security "baseline" (and so "restricted") admits. */
const SAFE_SYSCTLS = new Set(['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_local_reserved_ports', 'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']);

/**
 * The Pod Security Standard "restricted" (latest), control by control, on every pod the objects run
 * (the TestRun's runner, initializer and starter as the operator builds them): what the namespace's
 * `pod-security.kubernetes.io/enforce: restricted` admission would refuse.
 * https://kubernetes.io/docs/concepts/security/pod-security-standards/
 *
 * @param {any[]} objects
 * @returns {string[]}
 */
export function checkRestricted(objects) {
  const violations = [];
  for (const pod of pods(objects)) {
    const spec = pod.spec;
    const podContext = spec.securityContext ?? {};
    const at = `${pod.where}: restricted`;
    for (const field of ['hostNetwork', 'hostPID', 'hostIPC']) {
      if (spec[field] === true) violations.push(`${at}: ${field} must not be true`);
    }
    if (podContext.windowsOptions?.hostProcess === true) violations.push(`${at}: hostProcess`);
    for (const volume of spec.volumes ?? []) {
      const type = Object.keys(volume).find((k) => k !== 'name');
      if (!RESTRICTED_VOLUMES.includes(String(type))) violations.push(`${at}: volume ${volume.name} is of type ${type}`);
    }
    for (const sysctl of podContext.sysctls ?? []) {
      if (!SAFE_SYSCTLS.has(sysctl.name)) violations.push(`${at}: sysctl ${sysctl.name} is not a safe one`);
    }
    if (podContext.runAsUser === 0) violations.push(`${at}: pod runAsUser 0`);
    if (podContext.runAsNonRoot === false) violations.push(`${at}: pod runAsNonRoot false`);
    const podSeccomp = podContext.seccompProfile?.type;
    if (podSeccomp !== undefined && !['RuntimeDefault', 'Localhost'].includes(podSeccomp)) violations.push(`${at}: pod seccompProfile ${podSeccomp}`);
    checkSelinuxAndAppArmor(podContext, `${at}: pod`, violations);
    for (const container of [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])]) {
      const cat = `${at}: container ${container.name}`;
      const context = container.securityContext ?? {};
      if (context.privileged === true) violations.push(`${cat}: privileged`);
      if (context.windowsOptions?.hostProcess === true) violations.push(`${cat}: hostProcess`);
      if (context.allowPrivilegeEscalation !== false) violations.push(`${cat}: allowPrivilegeEscalation must be false`);
      if (!(context.capabilities?.drop ?? []).includes('ALL')) violations.push(`${cat}: capabilities must drop ALL`);
      for (const capability of context.capabilities?.add ?? []) {
        if (capability !== 'NET_BIND_SERVICE') violations.push(`${cat}: adds capability ${capability}`);
      }
      if (context.runAsNonRoot === false || (context.runAsNonRoot !== true && podContext.runAsNonRoot !== true)) {
        violations.push(`${cat}: runAsNonRoot must be true (container or pod)`);
      }
      if (context.runAsUser === 0) violations.push(`${cat}: runAsUser 0`);
      const seccomp = context.seccompProfile?.type ?? podSeccomp;
      if (!['RuntimeDefault', 'Localhost'].includes(String(seccomp))) {
        violations.push(`${cat}: seccompProfile must be RuntimeDefault or Localhost (container or pod), is ${seccomp ?? 'unset'}`);
      }
      if (context.procMount !== undefined && context.procMount !== 'Default') violations.push(`${cat}: procMount ${context.procMount}`);
      checkSelinuxAndAppArmor(context, cat, violations);
      for (const port of container.ports ?? []) {
        if (port.hostPort) violations.push(`${cat}: hostPort ${port.hostPort}`);
      }
    }
  }
  return violations;
}

/** @param {any} context @param {string} at @param {string[]} violations */
function checkSelinuxAndAppArmor(context, at, violations) {
  const selinux = context.seLinuxOptions ?? {};
  if (selinux.type !== undefined && !['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t'].includes(selinux.type)) {
    violations.push(`${at}: seLinuxOptions.type ${selinux.type}`);
  }
  if (selinux.user || selinux.role) violations.push(`${at}: seLinuxOptions user/role set`);
  const apparmor = context.appArmorProfile?.type;
  if (apparmor !== undefined && !['RuntimeDefault', 'Localhost'].includes(apparmor)) violations.push(`${at}: appArmorProfile ${apparmor}`);
}

/**
 * The namespace enforces Pod Security "restricted" (and warns and audits at the same level).
 *
 * @param {any[]} objects
 * @returns {string[]}
 */
export function checkNamespaceEnforcesRestricted(objects) {
  const violations = [];
  for (const namespace of objects.filter((o) => o.kind === 'Namespace')) {
    const labels = namespace.metadata?.labels ?? {};
    for (const mode of ['enforce', 'warn', 'audit']) {
      if (labels[`pod-security.kubernetes.io/${mode}`] !== 'restricted') {
        violations.push(`${describe(namespace)}: pod-security.kubernetes.io/${mode} is ${labels[`pod-security.kubernetes.io/${mode}`] ?? 'unset'}, not restricted`);
      }
    }
  }
  return violations;
}
