// The Dockerfiles under src/main/docker: pinned base images, the JDK each one promises, non-root,
// and the tags they document are the ones the overlays deploy.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkDockerfile, parseDockerfile } from './checks/dockerfiles.mjs';
import { LAB_KUSTOMIZATIONS, REPO, renderFor } from './checks/render.mjs';

const DOCKER = join(REPO, 'src', 'main', 'docker');
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
      .matchAll(/docker build -f src\/main\/docker\/(\S+) -t (\S+) \./g)].filter((m) => m[1] === name).map((m) => m[2])));
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
