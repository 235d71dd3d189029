// The images' Dockerfiles: pinned base images, and a service that does not run as root.

import { readFileSync } from 'node:fs';

/**
 * @param {string} file
 * @returns {{ stages: { from: string, alias?: string, user?: string }[] }}
 */
export function parseDockerfile(file) {
  const lines = readFileSync(file, 'utf8').replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  /** @type {{ from: string, alias?: string, user?: string }[]} */
  const stages = [];
  for (const line of lines) {
    const [instruction, ...rest] = line.split(/\s+/);
    if (/^FROM$/i.test(instruction)) {
      const args = rest.filter((a) => !a.startsWith('--'));
      stages.push({ from: args[0], alias: /^AS$/i.test(args[1] ?? '') ? args[2] : undefined });
    } else if (/^USER$/i.test(instruction) && stages.length > 0) {
      stages[stages.length - 1].user = rest[0];
    }
  }
  return { stages };
}

/**
 * @param {string} file
 * @returns {string[]} violations
 */
export function checkDockerfile(file) {
  const violations = [];
  const { stages } = parseDockerfile(file);
  const aliases = new Set(stages.map((s) => s.alias).filter(Boolean));
  for (const stage of stages) {
    if (aliases.has(stage.from)) continue;
    const lastSlash = stage.from.lastIndexOf('/');
    const colon = stage.from.indexOf(':', lastSlash + 1);
    const tag = colon < 0 ? '' : stage.from.slice(colon + 1);
    if (stage.from.includes('@sha256:')) continue;
    if (!tag) violations.push(`${file}: FROM ${stage.from} has no tag`);
    else if (tag === 'latest') violations.push(`${file}: FROM ${stage.from} uses latest`);
  }
  const runtime = stages[stages.length - 1];
  const user = runtime?.user?.split(':')[0];
  if (!user || user === 'root' || user === '0') {
    violations.push(`${file}: the runtime stage must switch to a non-root USER`);
  }
  return violations;
}
