// The Dockerfiles under src/service/src/main/docker: pinned base images, the JDK each one promises, non-root,
// and the tags they document are the ones the overlays deploy.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkDockerfile, parseDockerfile } from './checks/dockerfiles.mjs';
import { LAB_KUSTOMIZATIONS, REPO, renderFor } from './checks/render.mjs';

const DOCKER = join(REPO, 'src', 'service', 'src', 'main', 'docker');
const DOCKERFILES = ['Dockerfile.jvm', 'Dockerfile.jvm25', 'Dockerfile.native'];

describe('Dockerfiles', () => {
  for (const name of DOCKERFILES) {
    test(`${name}: tagged base images, non-root runtime`, () => {
      assert.deepEqual(checkDockerfile(join(DOCKER, name)), []);
    });
  }

  test('each runtime is the JDK it promises', () => {
    const runtime = (/** @type {string} */ name) => parseDockerfile(join(DOCKER, name)).stages.at(-1)?.from ?? '';
    const builder = (/** @type {string} */ name) => parseDockerfile(join(DOCKER, name)).stages[0]?.from ?? '';
    assert.match(runtime('Dockerfile.jvm'), /^eclipse-temurin:21[.-]/);
    assert.match(runtime('Dockerfile.jvm25'), /^eclipse-temurin:25[.-]/);
    assert.match(builder('Dockerfile.jvm'), /^eclipse-temurin:25[.-].*jdk/, 'the FFM class needs JDK 22+ to compile');
    assert.match(builder('Dockerfile.native'), /^quay\.io\/quarkus\/ubi9-quarkus-mandrel-builder-image:/);
    assert.match(runtime('Dockerfile.native'), /^registry\.access\.redhat\.com\/ubi9\/ubi-minimal:/);
  });

  test('every image tag the overlays deploy is built by a documented command', (t) => {
    const documented = new Set(DOCKERFILES.flatMap((name) => [...readFileSync(join(DOCKER, name), 'utf8')
      .matchAll(/docker build -f src\/service\/src\/main\/docker\/(\S+) -t (\S+) \./g)].filter((m) => m[1] === name).map((m) => m[2])));
    for (const kustomization of LAB_KUSTOMIZATIONS) {
      const objects = renderFor(t, kustomization);
      if (!objects) return;
      for (const deployment of objects.filter((o) => o.kind === 'Deployment')) {
        const { image } = deployment.spec.template.spec.containers[0];
        assert.ok(documented.has(image), `${kustomization}: ${image} is built by none of ${[...documented].join(', ')}`);
      }
    }
  });
});

describe('broken fixtures fail', () => {
  test('untagged and latest base images, and a root runtime', () => {
    const violations = checkDockerfile(fileURLToPath(new URL('./fixtures/Dockerfile.broken', import.meta.url))).join('\n');
    assert.match(violations, /FROM eclipse-temurin has no tag/);
    assert.match(violations, /FROM eclipse-temurin:latest uses latest/);
    assert.match(violations, /non-root USER/);
  });
});

/**
 * The line endings git gives a file in a checkout, from the .gitattributes of `dir`.
 *
 * @param {string} dir a directory holding .gitattributes
 * @param {string} path
 */
function eolOf(dir, path) {
  const run = spawnSync('git', ['-C', dir, 'check-attr', 'eol', '--', path], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim().split(': ').at(-1);
}

/** A scratch git repository holding only `attributes` as its .gitattributes. */
function scratchRepository(/** @type {string | null} */ attributes) {
  const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-attributes-'));
  assert.equal(spawnSync('git', ['init', '-q', dir]).status, 0);
  if (attributes) copyFileSync(attributes, join(dir, '.gitattributes'));
  else writeFileSync(join(dir, '.gitattributes'), '');
  return dir;
}

describe('line endings a clone gets on any platform', () => {
  test('mvnw and scripts LF (the Linux build stage runs them), *.cmd CRLF', () => {
    const dir = scratchRepository(join(REPO, '.gitattributes'));
    for (const path of ['mvnw', '.ci/run', 'scripts/x.sh']) assert.equal(eolOf(dir, path), 'lf', path);
    assert.equal(eolOf(dir, 'mvnw.cmd'), 'crlf');
  });

  test('without the rules a Windows clone decides (control)', () => {
    assert.equal(eolOf(scratchRepository(null), 'mvnw'), 'unspecified');
  });
});

describe('the build context', () => {
  test('.dockerignore leaves out target/, node_modules/ and .git', async () => {
    const { dockerignore } = await import('./checks/image-build.mjs');
    const ignored = dockerignore();
    for (const path of ['target', 'src/service/target/quarkus-app/quarkus-run.jar', '.git', 'src/k6-checks/src/test/node/node_modules/x.js', 'src/service/src/test/java/io/starvationlab/StarvationIT.java']) assert.ok(ignored(path), path);
    for (const path of ['mvnw', 'pom.xml', 'src/service/src/main/java/io/starvationlab/rest/WorkResource.java', 'src/service/pom.xml', '.mvn/wrapper/maven-wrapper.properties']) {
      assert.ok(!ignored(path), path);
    }
  });
});
