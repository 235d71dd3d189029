// The lab pods' JVM runs the experiment's collector (checks/collector.mjs) on every overlay; the
// check fails when the image stops naming it, and when the pod's flags name another.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkCollector, DOCKERFILE_OF, ergonomicCollector } from './checks/collector.mjs';
import { brokenFixture, fixture } from './checks/fixtures.mjs';
import { LAB_KUSTOMIZATIONS, renderFor } from './checks/render.mjs';

const GiB = 2 ** 30;

describe('collector', () => {
  for (const kustomization of LAB_KUSTOMIZATIONS) {
    test(`${kustomization}: the lab pods run G1`, (t) => {
      const objects = renderFor(t, kustomization);
      if (!objects) return;
      assert.deepEqual(checkCollector(objects), []);
    });
  }

  test("HotSpot's own choice: Serial below 2 CPUs or 1792 MiB, so at the pods' 4 CPUs and 1 GiB", () => {
    assert.equal(ergonomicCollector(4, 1 * GiB), 'Serial');
    assert.equal(ergonomicCollector(4, 2 * GiB), 'G1');
    assert.equal(ergonomicCollector(1, 8 * GiB), 'Serial');
    assert.equal(ergonomicCollector(1.5, 2 * GiB), 'G1', 'a quota of 1.5 CPUs is 2 processors');
  });
});

describe('broken fixtures fail', () => {
  test('the good lab fixture passes (control)', () => {
    assert.deepEqual(checkCollector(fixture('lab-good.yaml')), []);
  });

  test('Dockerfile.jvm without -XX:+UseG1GC: the pod at 1 GiB runs Serial', () => {
    const dockerfile = join(mkdtempSync(join(tmpdir(), 'starvation-lab-collector-')), 'Dockerfile.jvm');
    const original = readFileSync(DOCKERFILE_OF['starvation-lab:jdk21'], 'utf8');
    writeFileSync(dockerfile, original.replace('"-XX:+UseG1GC", ', ''));
    assert.notEqual(readFileSync(dockerfile, 'utf8'), original, 'one defect: the flag is gone');
    assert.match(checkCollector(fixture('lab-good.yaml'), () => dockerfile).join('\n'),
      /lab-pinned container lab: its JVM runs Serial \(no collector flag: HotSpot's choice at 4000m CPU and 1024Mi, not a server-class machine\)/);
  });

  test('broken/deployment-serial-gc.yaml: two collectors named, the JVM refuses to start', () => {
    assert.match(checkCollector(brokenFixture('deployment-serial-gc')).join('\n'), /Serial and G1 named together .*: the JVM refuses to start/);
  });
});
