// The garbage collector of the lab pods' JVM: the one the experiment's JVMs run (G1), whatever the
// pod's limits would make HotSpot pick by itself. The experiment measured on a machine HotSpot counts
// as "server class" (2 CPUs or more, 1792 MiB or more: it picks G1); a pod under 1792 MiB of memory
// limit is not one, and without a flag its JVM runs Serial (CpuQuotaIT and ContainerImageIT see both).

import { join } from 'node:path';
import { entrypointFlags } from './dockerfiles.mjs';
import { LAB_DEPLOYMENTS, parseQuantity } from './policy.mjs';
import { describe, REPO } from './render.mjs';

/** The collector of the experiment's server JVMs: HotSpot's choice on a machine of 2 CPUs and 1792 MiB or more. */
export const EXPERIMENT_COLLECTOR = 'G1';

/** Which Dockerfile builds each image the manifests deploy (the README's docker build lines). */
export const DOCKERFILE_OF = {
  'starvation-lab:jdk21': join(REPO, 'src', 'service', 'src', 'main', 'docker', 'Dockerfile.jvm'),
  'starvation-lab:jdk25': join(REPO, 'src', 'service', 'src', 'main', 'docker', 'Dockerfile.jvm25'),
};

const COLLECTOR_FLAG = /^-XX:\+Use(G1|Serial|Parallel|Z|Shenandoah|Epsilon)GC$/;

/**
 * HotSpot's choice without a collector flag (JDK 21-25, GCConfig::select_gc_ergonomically): G1 on a
 * server-class machine, Serial below it.
 *
 * @param {number} cpus the CPU limit (the quota, rounded up)
 * @param {number} memoryBytes the memory limit
 */
export function ergonomicCollector(cpus, memoryBytes) {
  return Math.ceil(cpus) >= 2 && memoryBytes >= 1792 * 2 ** 20 ? 'G1' : 'Serial';
}

/**
 * @param {string[]} flags JVM flags in the order the JVM reads them
 * @returns {string[]} the collectors they name
 */
function collectorsNamed(flags) {
  return flags.map((f) => COLLECTOR_FLAG.exec(f)?.[1]).filter((c) => c !== undefined).map((c) => (c === 'Z' ? 'ZGC' : String(c)));
}

/**
 * Each lab Deployment's JVM: the collector its image's ENTRYPOINT and its JAVA_TOOL_OPTIONS name,
 * or else the one its limits give, must be the experiment's.
 *
 * @param {any[]} objects a rendered lab kustomization
 * @param {(image: string) => string | undefined} [dockerfileOf]
 * @returns {string[]}
 */
export function checkCollector(objects, dockerfileOf = (image) => DOCKERFILE_OF[/** @type {keyof typeof DOCKERFILE_OF} */ (image)]) {
  const violations = [];
  for (const deployment of objects.filter((o) => o.kind === 'Deployment' && LAB_DEPLOYMENTS.includes(o.metadata?.name))) {
    for (const container of deployment.spec?.template?.spec?.containers ?? []) {
      const at = `${describe(deployment)} container ${container.name}`;
      const dockerfile = dockerfileOf(container.image);
      if (!dockerfile) {
        violations.push(`${at}: image ${container.image} is built by no Dockerfile the check knows`);
        continue;
      }
      const toolOptions = String((container.env ?? []).find((/** @type {any} */ e) => e.name === 'JAVA_TOOL_OPTIONS')?.value ?? '')
        .split(/\s+/).filter(Boolean);
      // JAVA_TOOL_OPTIONS come before the command line's flags
      const named = [...new Set(collectorsNamed([...toolOptions, ...entrypointFlags(dockerfile)]))];
      if (named.length > 1) {
        violations.push(`${at}: ${named.join(' and ')} named together (JAVA_TOOL_OPTIONS and the ENTRYPOINT of ${dockerfile}): the JVM refuses to start`);
        continue;
      }
      const limits = container.resources?.limits ?? {};
      const collector = named[0] ?? ergonomicCollector(parseQuantity(limits.cpu), parseQuantity(limits.memory));
      if (collector !== EXPERIMENT_COLLECTOR) {
        violations.push(`${at}: its JVM runs ${collector}${named.length ? '' : ` (no collector flag: HotSpot's choice at ${limits.cpu} CPU`
          + ` and ${limits.memory}, not a server-class machine)`}, the experiment's JVMs run ${EXPERIMENT_COLLECTOR}: name -XX:+Use${EXPERIMENT_COLLECTOR}GC`);
      }
    }
  }
  return violations;
}
