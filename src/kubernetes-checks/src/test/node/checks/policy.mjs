// The rules a render must keep beyond its schemas: what the API server, Pod Security admission and the
// scheduler would do with it, and the lab's own. Each check takes rendered objects and returns
// violations (empty: it holds), so that a broken fixture can prove it fails.

import { describe, NAMESPACE } from './render.mjs';

export const LAB_DEPLOYMENTS = ['lab-pinned', 'lab-unpinned'];
const HEALTH_PATHS = { startupProbe: '/q/health/started', livenessProbe: '/q/health/live', readinessProbe: '/q/health/ready' };
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PersistentVolume', 'StorageClass',
  'PriorityClass']);
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);
/** What a measured container's environment must hold: [variable, whether its entry holds, why not]. */
const MEASURED_ENV = /** @type {[string, (e: any) => boolean, string][]} */ ([
  ['QUARKUS_DATASOURCE_JDBC_URL', (e) => Boolean(e?.value?.startsWith('jdbc:postgresql://')), 'must point at PostgreSQL'],
  ['QUARKUS_DATASOURCE_USERNAME', (e) => Boolean(e?.valueFrom?.secretKeyRef), 'must come from a Secret'],
  ['QUARKUS_DATASOURCE_PASSWORD', (e) => Boolean(e?.valueFrom?.secretKeyRef), 'must come from a Secret'],
  ['LAB_EMBEDDED_POSTGRES_ENABLED', (e) => e?.value === 'false', 'must be "false" (no database inside the pod)'],
  ['LAB_STARVATION_READINESS_ENABLED', (e) => String(e?.value ?? 'false') === 'false', 'would take the measured pod out of its Service mid-test'],
]);

/** Kubernetes quantities in base units ("4" and "4000m" are 4; "1Gi" is 1073741824). @param {unknown} quantity */
export function parseQuantity(quantity) {
  const match = /^([+-]?[0-9.]+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(String(quantity ?? '').trim());
  const factors = /** @type {Record<string, number>} */ ({ '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
    Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 });
  return match ? Number(match[1]) * factors[match[2] ?? ''] : Number.NaN;
}

/**
 * Every pod the objects would run: workloads' templates, and the pods the k6-operator builds from a
 * TestRun (grafana/k6-operator pkg/resources/jobs: runner.go, initializer.go, starter.go, helpers.go).
 * The runner and the initializer run one container named k6 with the script's ConfigMap mounted, plus
 * spec.<pod>.initContainers, which get the pod's containerSecurityContext and imagePullPolicy
 * (getInitContainers); without spec.initializer the initializer copies the runner. The starter is one
 * curl container (the pod takes starter.securityContext, the container starter.containerSecurityContext).
 */
export function pods(objects) {
  return objects.flatMap((object) => {
    if (WORKLOADS.has(object.kind)) {
      return [{ owner: object, where: describe(object), labels: object.spec?.template?.metadata?.labels ?? {}, spec: object.spec?.template?.spec ?? {} }];
    }
    if (object.kind !== 'TestRun') return [];
    const script = object.spec?.script?.configMap;
    return ['runner', 'initializer', 'starter'].map((role) => {
      const pod = (role === 'initializer' ? object.spec?.initializer ?? object.spec?.runner : object.spec?.[role]) ?? {};
      const securityContext = pod.containerSecurityContext;
      const k6 = role !== 'starter';
      // the operator's own labels win over the spec's (pkg/resources/jobs helpers.go newLabels, runner.go)
      const operatorLabels = { app: 'k6', k6_cr: object.metadata?.name, ...(role === 'runner' ? { runner: 'true' } : {}) };
      return {
        owner: object,
        where: `${describe(object)} ${role}`,
        labels: { ...(pod.metadata?.labels ?? {}), ...operatorLabels },
        role,
        spec: {
          securityContext: pod.securityContext,
          topologySpreadConstraints: pod.topologySpreadConstraints,
          volumes: k6 ? [...(script ? [{ name: 'k6-test-volume', configMap: { name: script.name } }] : []), ...(pod.volumes ?? [])] : [],
          initContainers: (pod.initContainers ?? []).map((/** @type {any} */ c) => ({ ...c, securityContext, imagePullPolicy: pod.imagePullPolicy })),
          containers: [k6
            ? { name: 'k6', image: pod.image, env: pod.env, envFrom: pod.envFrom, resources: pod.resources, securityContext, volumeMounts: pod.volumeMounts,
              ports: role === 'runner' ? [{ containerPort: 6565 }, ...(object.spec?.ports ?? [])] : [] }
            : { name: 'k6-curl', image: pod.image, securityContext }],
        },
      };
    });
  });
}

/** A pod of a measured Deployment. @param {any} pod one of pods() */
const measured = (pod) => pod.owner.kind === 'Deployment' && LAB_DEPLOYMENTS.includes(pod.owner.metadata?.name);

/** @param {any} spec a pod spec @returns {any[]} init containers (sidecars too) and containers */
export const containersOf = (spec) => [...(spec.initContainers ?? []), ...(spec.containers ?? [])];

const selects = (selector, labels) => Object.entries(selector ?? {}).every(([key, value]) => labels[key] === value);

/** A LabelSelector: matchLabels and matchExpressions. @param {any} selector @param {Record<string, string>} labels */
export function matches(selector, labels) {
  return selects(selector?.matchLabels, labels) && (selector?.matchExpressions ?? []).every((/** @type {any} */ e) => {
    const has = Object.hasOwn(labels, e.key);
    return { In: has && e.values.includes(labels[e.key]), NotIn: !has || !e.values.includes(labels[e.key]), Exists: has, DoesNotExist: !has }[
      /** @type {'In'} */ (e.operator)] ?? false;
  });
}

/**
 * The required objects exist, every namespaced one in the lab's namespace.
 *
 * @param {[string, string][]} required [kind, name] pairs
 */
export function checkNamesAndNamespace(objects, required = []) {
  return [
    ...required.filter(([kind, name]) => !objects.some((o) => o.kind === kind && o.metadata?.name === name)).map(([kind, name]) => `missing ${kind} ${name}`),
    ...objects.flatMap((o) => (CLUSTER_SCOPED.has(o.kind) ? (o.metadata?.namespace ? [`${describe(o)}: cluster-scoped, yet has a namespace`] : [])
      : o.metadata?.namespace === NAMESPACE ? [] : [`${describe(o)}: namespace is ${o.metadata?.namespace ?? 'unset'}, not ${NAMESPACE}`])),
  ];
}

/** app.kubernetes.io/name and part-of on every object and pod. @param {any[]} objects */
export function checkLabels(objects) {
  return [...objects.map((o) => ({ where: describe(o), labels: o.metadata?.labels ?? {} })),
    ...pods(objects).map((p) => ({ where: `${p.where} pod template`, labels: p.labels }))]
    .flatMap(({ where, labels }) => [
      ...(labels['app.kubernetes.io/name'] ? [] : [`${where}: no app.kubernetes.io/name label`]),
      ...(labels['app.kubernetes.io/part-of'] === 'starvation-lab' ? [] : [`${where}: app.kubernetes.io/part-of is not starvation-lab`]),
    ]);
}

/**
 * The measured pods and the load generators are Guaranteed: every container, init containers and
 * sidecars too, limits CPU and memory at what it requests (Kubernetes pkg/apis/core/helper/qos
 * GetPodQOS), so that the scheduler places them only where that much is free and a busy node cannot
 * squeeze them. The measured pods get exactly 4 CPUs (the CFS quota: 4 carriers), which lab-experiment's CPUS
 * names for the load to check (k6/lib-run.js readyFacts), their datasource
 * from the environment and a Secret, and keep the starvation readiness check off.
 */
export function checkGuaranteed(objects) {
  // the starter's curl only unpauses the runner, before the load
  const load = (/** @type {any} */ p) => p.labels['app.kubernetes.io/name'] === 'k6' && p.role !== 'starter';
  return pods(objects).filter((p) => measured(p) || load(p)).flatMap((pod) => containersOf(pod.spec).flatMap((c) => {
    const at = `${pod.where} container ${c.name}`;
    const { requests = {}, limits = {} } = c.resources ?? {};
    const env = new Map((c.env ?? []).map((/** @type {any} */ e) => [e.name, e]));
    const violations = [];
    for (const r of ['cpu', 'memory']) {
      if (requests[r] === undefined || limits[r] === undefined) violations.push(`${at}: ${r} request and limit must both be set (Guaranteed)`);
      else if (parseQuantity(requests[r]) !== parseQuantity(limits[r])) {
        violations.push(`${at}: ${r} request ${requests[r]} != limit ${limits[r]} (Guaranteed needs them equal)`);
      }
    }
    if (!measured(pod)) return violations;
    if (parseQuantity(limits.cpu) !== 4) violations.push(`${at}: cpu limit is ${limits.cpu}, not 4 (the carriers are the CPU limit)`);
    const experiment = objects.find((o) => o.kind === 'ConfigMap' && o.metadata?.name === 'lab-experiment');
    const cpus = experiment?.data?.CPUS;
    if (experiment && cpus === undefined) violations.push(`${at}: lab-experiment sets no CPUS: the load would not check the pod's carriers`);
    else if (cpus !== undefined && Number(cpus) !== parseQuantity(limits.cpu)) {
      violations.push(`${at}: lab-experiment's CPUS ${cpus} is not its cpu limit ${limits.cpu}: the load would stop a pod that has its carriers`);
    }
    return [...violations, ...MEASURED_ENV.filter(([name, holds]) => !holds(env.get(name))).map(([name, , why]) => `${at}: ${name} ${why}`)];
  }));
}

/** The measured pods probe the health endpoint each probe is for, on 8080, with a timeout under the period. @param {any[]} objects */
export function checkProbes(objects) {
  return pods(objects).filter(measured).flatMap((pod) => pod.spec.containers.flatMap((/** @type {any} */ c) => Object.entries(HEALTH_PATHS).flatMap(([name, path]) => {
    const at = `${pod.where} container ${c.name}: ${name}`;
    const probe = c[name];
    const port = probe?.httpGet?.port;
    const number = typeof port === 'number' ? port : (c.ports ?? []).find((/** @type {any} */ p) => p.name === port)?.containerPort;
    return !probe ? [`${pod.where} container ${c.name}: no ${name}`]
      : probe.httpGet?.path !== path ? [`${at} calls ${probe.httpGet?.path ?? '(no httpGet)'}, the service serves ${path}`]
        : number !== 8080 ? [`${at} port ${port} is not 8080`] : (probe.timeoutSeconds ?? 1) > (probe.periodSeconds ?? 10) ? [`${at} timeoutSeconds exceeds periodSeconds`] : [];
  })));
}

/**
 * Selectors select: a workload's its own template, a Service's and a NetworkPolicy's some pod (and a
 * named targetPort a port of it), a ServiceMonitor's some Service and a port it has.
 */
export function checkSelectors(objects) {
  const all = pods(objects);
  const violations = [];
  for (const o of objects) {
    const at = describe(o);
    const inNamespace = all.filter((p) => p.owner.metadata?.namespace === o.metadata?.namespace);
    if (WORKLOADS.has(o.kind) && o.spec?.selector && !matches(o.spec.selector, o.spec?.template?.metadata?.labels ?? {})) {
      violations.push(`${at}: selector ${JSON.stringify(o.spec.selector)} does not match its pod template's labels`);
    } else if (o.kind === 'Service' && o.spec?.selector) {
      const selected = inNamespace.filter((p) => selects(o.spec.selector, p.labels));
      if (selected.length === 0) violations.push(`${at}: selector ${JSON.stringify(o.spec.selector)} matches no pod`);
      for (const { targetPort } of (o.spec.ports ?? []).filter((/** @type {any} */ p) => typeof p.targetPort === 'string')) {
        const named = selected.some((p) => containersOf(p.spec).some((c) => (c.ports ?? []).some((/** @type {any} */ cp) => cp.name === targetPort)));
        if (selected.length && !named) violations.push(`${at}: targetPort ${targetPort} names no container port of the pods it selects`);
      }
    } else if (o.kind === 'NetworkPolicy') {
      // its peers are judged by the flows they admit (network.mjs), with the pods of the other renders
      if (!inNamespace.some((p) => matches(o.spec?.podSelector ?? {}, p.labels))) violations.push(`${at}: podSelector ${JSON.stringify(o.spec?.podSelector)} matches no pod`);
    } else if (o.kind === 'ServiceMonitor') {
      const services = objects.filter((s) => s.kind === 'Service' && s.metadata?.namespace === o.metadata?.namespace
        && matches(o.spec?.selector ?? {}, s.metadata?.labels ?? {}));
      if (services.length === 0) violations.push(`${at}: selector matches no Service`);
      for (const { port } of o.spec?.endpoints ?? []) {
        for (const s of services.filter((service) => port && !(service.spec?.ports ?? []).some((/** @type {any} */ p) => p.name === port))) {
          violations.push(`${at}: endpoint port ${port} is not a port of ${describe(s)}`);
        }
      }
    } else if (o.kind === 'StatefulSet' && o.spec?.serviceName && !objects.some((s) => s.kind === 'Service' && s.metadata?.name === o.spec.serviceName)) {
      violations.push(`${at}: serviceName ${o.spec.serviceName} is no Service`);
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
 */
export function checkReferences(objects, available = []) {
  const all = [...objects, ...available];
  const find = (/** @type {string} */ kind, /** @type {string} */ name) => all.find((o) => o.kind === kind && o.metadata?.name === name);
  const violations = [];
  const need = (at, kind, name, { key, optional } = {}) => {
    const target = find(kind, name);
    const keys = new Set([...Object.keys(target?.data ?? {}), ...Object.keys(target?.stringData ?? {}), ...Object.keys(target?.binaryData ?? {})]);
    if (optional) return;
    if (!target) violations.push(`${at}: refers to ${kind} ${name}, which is not in the render`);
    else if (key !== undefined && !keys.has(key)) violations.push(`${at}: ${kind} ${name} has no key ${key}`);
  };
  for (const pod of pods(objects)) {
    for (const v of pod.spec.volumes ?? []) {
      const at = `${pod.where} volume ${v.name}`;
      for (const [kind, source, name] of [['ConfigMap', v.configMap, v.configMap?.name], ['Secret', v.secret, v.secret?.secretName]]) {
        for (const key of source ? [undefined, ...(source.items ?? []).map((/** @type {any} */ i) => i.key)] : []) {
          need(at, kind, name, { key, optional: source.optional });
        }
      }
      for (const s of v.projected?.sources ?? []) {
        if (s.configMap) need(at, 'ConfigMap', s.configMap.name, s.configMap);
        if (s.secret) need(at, 'Secret', s.secret.name, s.secret);
      }
    }
    for (const c of containersOf(pod.spec)) {
      const at = `${pod.where} container ${c.name}`;
      for (const f of c.envFrom ?? []) {
        if (f.configMapRef) need(at, 'ConfigMap', f.configMapRef.name, { optional: f.configMapRef.optional });
        if (f.secretRef) need(at, 'Secret', f.secretRef.name, { optional: f.secretRef.optional });
      }
      for (const v of c.env ?? []) {
        if (v.valueFrom?.configMapKeyRef) need(`${at} env ${v.name}`, 'ConfigMap', v.valueFrom.configMapKeyRef.name, v.valueFrom.configMapKeyRef);
        if (v.valueFrom?.secretKeyRef) need(`${at} env ${v.name}`, 'Secret', v.valueFrom.secretKeyRef.name, v.valueFrom.secretKeyRef);
        const url = /_URL$/.test(v.name) ? /^[a-z]+:(?:[a-z]+:)?\/\/([a-z0-9-]+):(\d+)(?:\/|$)/.exec(v.value ?? '') : null;
        const service = url ? find('Service', url[1]) : null;
        if (url && !service) violations.push(`${at} env ${v.name}: host ${url[1]} is no Service in the render`);
        else if (url && !(service.spec?.ports ?? []).some((/** @type {any} */ p) => p.port === Number(url[2]))) {
          violations.push(`${at} env ${v.name}: Service ${url[1]} has no port ${url[2]}`);
        }
      }
    }
  }
  for (const o of objects.filter((t) => t.kind === 'TestRun' && t.spec?.script?.configMap)) {
    need(`${describe(o)} script`, 'ConfigMap', o.spec.script.configMap.name, { key: o.spec.script.configMap.file ?? 'test.js' });
  }
  return violations;
}

/** Why an image reference (a pod's or a Dockerfile's FROM) is not pinned: it needs a tag or a digest, never `latest`. @param {string} ref */
export function unpinned(ref) {
  const tag = ref.includes('@sha256:') ? 'a digest' : /:([^/:]*)$/.exec(ref)?.[1];
  return !tag ? ['has no tag'] : tag === 'latest' ? ['uses latest'] : [];
}

/**
 * Every image is pinned; a TestRun may leave only the initializer's to the runner's. The lab's own tags from a registry
 * name a build (a commit): jdk21 and jdk25 are pushed again with each build, and under IfNotPresent (the default for
 * a tag but latest) a node keeps running the image it pulled first. A local image (kind load) is never pulled.
 */
export function checkImages(objects) {
  return pods(objects).flatMap((pod) => containersOf(pod.spec).flatMap((c) => {
    if (pod.role === 'initializer' && c.image === undefined) return [];
    if (!c.image) return [`${pod.where} container ${c.name}: no image`];
    const moving = /^[^/]+\.[^/]+\/.*starvation-lab:jdk\d+$/.test(c.image) && (c.imagePullPolicy ?? 'IfNotPresent') !== 'Always';
    return [...unpinned(c.image).map((why) => `${pod.where} container ${c.name}: image ${c.image} ${why}`),
      ...(moving ? [`${pod.where} container ${c.name}: image ${c.image} is re-pushed with every build, and IfNotPresent keeps a node's first pull: `
        + 'push a tag by commit'] : [])];
  }));
}

const RESTRICTED_VOLUMES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
const SAFE_SYSCTLS = new Set(['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start', 'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range', 'net.ipv4.ip_local_reserved_ports', 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes']);
const SELINUX_TYPES = ['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t'];

/**
 * The Pod Security Standard "restricted" (latest), control by control, on every pod the objects run,
 * as the namespace's `pod-security.kubernetes.io/enforce: restricted` admission would judge it
 * (https://kubernetes.io/docs/concepts/security/pod-security-standards/); and the lab's stricter own:
 * a read-only root file system with a writable emptyDir at /tmp for every main container (the
 * starter's curl writes nothing), no added capability, the RuntimeDefault seccomp profile.
 */
export function checkSecurity(objects) {
  const violations = [];
  for (const { spec, where, role } of pods(objects)) {
    const pod = spec.securityContext ?? {};
    const at = `${where}: restricted`;
    const emptyDirs = new Set((spec.volumes ?? []).filter((/** @type {any} */ v) => v.emptyDir).map((/** @type {any} */ v) => v.name));
    const seLinuxAndAppArmor = (/** @type {any} */ context, /** @type {string} */ on) => {
      const { seLinuxOptions: selinux = {}, appArmorProfile: apparmor = {} } = context;
      if (selinux.type !== undefined && !SELINUX_TYPES.includes(selinux.type)) violations.push(`${on}: seLinuxOptions.type ${selinux.type}`);
      if (selinux.user || selinux.role) violations.push(`${on}: seLinuxOptions user/role set`);
      if (apparmor.type !== undefined && !['RuntimeDefault', 'Localhost'].includes(apparmor.type)) violations.push(`${on}: appArmorProfile ${apparmor.type}`);
    };
    for (const field of ['hostNetwork', 'hostPID', 'hostIPC'].filter((f) => spec[f] === true)) violations.push(`${at}: ${field} must not be true`);
    if (pod.windowsOptions?.hostProcess === true) violations.push(`${at}: hostProcess`);
    for (const volume of spec.volumes ?? []) {
      const type = Object.keys(volume).find((k) => k !== 'name');
      if (!RESTRICTED_VOLUMES.includes(String(type))) violations.push(`${at}: volume ${volume.name} is of type ${type}`);
    }
    for (const { name } of pod.sysctls ?? []) {
      if (!SAFE_SYSCTLS.has(name)) violations.push(`${at}: sysctl ${name} is not a safe one`);
    }
    if (pod.runAsUser === 0) violations.push(`${at}: pod runAsUser 0`);
    if (pod.runAsNonRoot === false) violations.push(`${at}: pod runAsNonRoot false`);
    seLinuxAndAppArmor(pod, `${at}: pod`);
    for (const c of [...containersOf(spec), ...(spec.ephemeralContainers ?? [])]) {
      const on = `${at}: container ${c.name}`;
      const context = c.securityContext ?? {};
      const seccomp = context.seccompProfile?.type ?? pod.seccompProfile?.type;
      const tmp = (c.volumeMounts ?? []).find((/** @type {any} */ m) => m.mountPath === '/tmp');
      if (context.privileged === true) violations.push(`${on}: privileged`);
      if (context.windowsOptions?.hostProcess === true) violations.push(`${on}: hostProcess`);
      if (context.allowPrivilegeEscalation !== false) violations.push(`${on}: allowPrivilegeEscalation must be false`);
      if (!(context.capabilities?.drop ?? []).includes('ALL')) violations.push(`${on}: capabilities must drop ALL`);
      for (const capability of context.capabilities?.add ?? []) violations.push(`${on}: adds capability ${capability}`);
      if (context.runAsNonRoot === false || (context.runAsNonRoot !== true && pod.runAsNonRoot !== true)) {
        violations.push(`${on}: runAsNonRoot must be true (container or pod)`);
      }
      if (context.runAsUser === 0) violations.push(`${on}: runAsUser 0`);
      if (seccomp !== 'RuntimeDefault') violations.push(`${on}: seccompProfile must be RuntimeDefault (container or pod), is ${seccomp ?? 'unset'}`);
      if (context.procMount !== undefined && context.procMount !== 'Default') violations.push(`${on}: procMount ${context.procMount}`);
      seLinuxAndAppArmor(context, on);
      for (const { hostPort } of (c.ports ?? []).filter((/** @type {any} */ p) => p.hostPort)) violations.push(`${on}: hostPort ${hostPort}`);
      if (context.readOnlyRootFilesystem !== true) violations.push(`${on}: readOnlyRootFilesystem must be true`);
      else if ((spec.containers ?? []).includes(c) && role !== 'starter' && (!tmp || tmp.readOnly || !emptyDirs.has(tmp.name))) {
        violations.push(`${on}: a read-only root file system needs a writable emptyDir at /tmp`);
      }
    }
  }
  return violations;
}

/**
 * OpenShift's restricted-v2 SCC: runAsUser MustRunAsRange and fsGroup MustRunAs, the range being the project's
 * (its openshift.io/sa.scc.uid-range annotation), assigned at admission. A fixed UID, GID or fsGroup outside it is
 * refused, and no manifest knows the range beforehand, so none may be set
 * (https://docs.openshift.com/container-platform/4.16/authentication/managing-security-context-constraints.html).
 */
export function checkRestrictedV2(objects) {
  return pods(objects).flatMap(({ spec, where }) => [
    ...['runAsUser', 'runAsGroup', 'fsGroup'].filter((f) => spec.securityContext?.[f] !== undefined).map((f) => `${where}: restricted-v2: pod ${f} ${spec.securityContext[f]}`),
    ...containersOf(spec).flatMap((c) => ['runAsUser', 'runAsGroup'].filter((f) => c.securityContext?.[f] !== undefined)
      .map((f) => `${where}: restricted-v2: container ${c.name} ${f} ${c.securityContext[f]}`)),
  ]);
}

/** The namespace enforces, warns and audits Pod Security "restricted". @param {any[]} objects */
export function checkNamespaceEnforcesRestricted(objects) {
  return objects.filter((o) => o.kind === 'Namespace').flatMap((o) => ['enforce', 'warn', 'audit'].flatMap((mode) => {
    const level = o.metadata?.labels?.[`pod-security.kubernetes.io/${mode}`];
    return level === 'restricted' ? [] : [`${describe(o)}: pod-security.kubernetes.io/${mode} is ${level ?? 'unset'}, not restricted`];
  }));
}

/**
 * Each StatefulSet's claim templates are whole claims: the StatefulSet controller creates the claim
 * from its template, and the API server refuses one without an access mode or a storage request
 * (kubernetes pkg/apis/core/validation/validation.go, ValidatePersistentVolumeClaimSpec), so the pod
 * never starts.
 */
export function checkClaims(objects) {
  return objects.filter((o) => o.kind === 'StatefulSet').flatMap((o) => (o.spec?.volumeClaimTemplates ?? []).flatMap((/** @type {any} */ claim) => {
    const at = `${describe(o)} claim ${claim.metadata?.name}`;
    return [...(claim.spec?.accessModes?.length ? [] : [`${at}: spec.accessModes: Required value: at least 1 access mode is required`]),
      ...(claim.spec?.resources?.requests?.storage ? [] : [`${at}: spec.resources[storage]: Required value`])];
  }));
}

/**
 * The two measured Deployments run the same pod under two names (their instance label apart), so that
 * they differ only in the load they receive: a change for one (JMX for a diagnosis) is for both.
 */
export function checkMeasuredTwins(objects) {
  const templates = LAB_DEPLOYMENTS.map((name) => objects.find((o) => o.kind === 'Deployment' && o.metadata?.name === name)?.spec?.template)
    .filter(Boolean).map((t) => JSON.stringify({ ...t, metadata: { ...t.metadata, labels: { ...t.metadata?.labels, 'app.kubernetes.io/instance': undefined } } }));
  return templates.length === 2 && templates[0] !== templates[1] ? [`${LAB_DEPLOYMENTS.join(' and ')} run different pods: they may differ only in their names`] : [];
}

/**
 * Every rule above on a render, as `kubectl apply` with strict validation, the namespace's admission
 * and the controllers would meet it.
 *
 * @param {any[]} [available] objects applied beside it
 */
export function checkPolicy(objects, available = []) {
  return [...checkNamesAndNamespace(objects), ...checkLabels(objects), ...checkGuaranteed(objects), ...checkProbes(objects), ...checkSelectors(objects),
    ...checkReferences(objects, available), ...checkImages(objects), ...checkSecurity(objects), ...checkNamespaceEnforcesRestricted(objects),
    ...checkClaims(objects), ...checkMeasuredTwins(objects)];
}
