// What makes a cluster differ from the lab, said in kubernetes/README.md wherever the render makes it
// matter: nodes too small for a lab pod's whole CPUs, a volume claim that needs a default
// StorageClass, and locally built images that run only on nodes of the builder's architecture.

import { LAB_DEPLOYMENTS, parseQuantity } from './policy.mjs';
import { describe } from './render.mjs';

/**
 * @param {any[]} objects a rendered lab kustomization
 * @param {string} readme kubernetes/README.md
 * @returns {string[]}
 */
export function checkCaveats(objects, readme) {
  const violations = [];
  const text = readme.replace(/\s+/g, ' ');
  for (const deployment of objects.filter((o) => o.kind === 'Deployment' && LAB_DEPLOYMENTS.includes(o.metadata?.name))) {
    const cpus = parseQuantity(deployment.spec?.template?.spec?.containers?.[0]?.resources?.requests?.cpu);
    if (Number.isInteger(cpus) && !(text.includes(`exactly ${cpus} vCPUs`) && text.includes('allocatable'))) {
      violations.push(`${describe(deployment)} requests ${cpus} whole CPUs, which a node of exactly ${cpus} vCPUs never has allocatable: `
        + `the README must say so`);
    }
  }
  for (const set of objects.filter((o) => o.kind === 'StatefulSet')) {
    for (const claim of set.spec?.volumeClaimTemplates ?? []) {
      if (!claim.spec?.storageClassName && !(text.includes('default StorageClass') && text.includes('storageClassName'))) {
        violations.push(`${describe(set)} claim ${claim.metadata?.name} names no storageClassName, so it binds only with a default StorageClass: `
          + 'the README must say so, and how to name one (storageClassName)');
      }
    }
  }
  const local = objects.flatMap((o) => o.spec?.template?.spec?.containers ?? []).filter((c) => String(c.image).startsWith('starvation-lab:'));
  if (local.length > 0 && !(text.includes('--platform') && text.includes('architecture'))) {
    violations.push(`${local[0].image} is built locally, for the builder's CPU architecture: the README must say how to build for the nodes' (--platform)`);
  }
  return violations;
}
