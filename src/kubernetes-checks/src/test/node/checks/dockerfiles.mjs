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
  /** @type {Record<string, string>} */
  const globalArgs = {};
  for (const line of lines) {
    const [instruction, ...rest] = line.split(/\s+/);
    if (/^ARG$/i.test(instruction) && stages.length === 0) {
      const [name, ...value] = rest.join(' ').split('=');
      globalArgs[name] = value.join('=');
    } else if (/^FROM$/i.test(instruction)) {
      const args = rest.filter((a) => !a.startsWith('--'));
      stages.push({ from: withArgs(args[0], globalArgs), alias: /^AS$/i.test(args[1] ?? '') ? args[2] : undefined });
    } else if (/^USER$/i.test(instruction) && stages.length > 0) {
      stages[stages.length - 1].user = rest[0];
    }
  }
  return { stages };
}

/**
 * A FROM's image with the ARGs declared before the first FROM replaced by their defaults, as a build
 * without --build-arg resolves it.
 *
 * @param {string} image
 * @param {Record<string, string>} args
 */
export function withArgs(image, args) {
  return String(image).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, braced, bare) => args[braced ?? bare] ?? '');
}

/**
 * The JVM flags of the runtime stage's exec-form ENTRYPOINT (everything between java and -jar).
 *
 * @param {string} file
 * @returns {string[]}
 */
export function entrypointFlags(file) {
  const lines = readFileSync(file, 'utf8').replace(/\\\n/g, ' ').split('\n').map((l) => l.trim());
  const entrypoint = lines.filter((l) => /^ENTRYPOINT\s+\[/i.test(l)).at(-1);
  if (!entrypoint) return [];
  const words = JSON.parse(entrypoint.replace(/^ENTRYPOINT\s+/i, ''));
  const jar = words.indexOf('-jar');
  return words.slice(1, jar < 0 ? undefined : jar);
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
