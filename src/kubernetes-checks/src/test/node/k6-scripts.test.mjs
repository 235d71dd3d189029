// ConfigMap k6-scripts carries the whole k6 suite, and the runners run it as one judge.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkK6Scripts, K6_DIR, listedFiles, suiteFiles } from './checks/k6-scripts.mjs';
import { REPO, renderFor } from './checks/render.mjs';

describe('k6-scripts', () => {
  test('the generator lists exactly k6/*.js and k6/plan.json', () => {
    assert.deepEqual(checkK6Scripts(listedFiles(), suiteFiles()), []);
  });

  test('the rendered ConfigMap has every file under its own name', (t) => {
    const objects = renderFor(t, 'k6/scripts');
    if (!objects) return;
    const configMap = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'k6-scripts');
    assert.deepEqual(Object.keys(configMap.data).sort(), suiteFiles());
  });

  test('the TestRun runs starvation.js with one runner, the Job the same script and image', (t) => {
    const operator = renderFor(t, 'k6');
    const plain = renderFor(t, 'k6/job');
    if (!operator || !plain) return;
    const testRun = operator.find((o) => o.kind === 'TestRun');
    assert.equal(testRun.spec.parallelism, 1, 'runners do not aggregate thresholds');
    assert.equal(testRun.spec.script.configMap.file, 'starvation.js');
    const job = plain.find((o) => o.kind === 'Job');
    const k6 = job.spec.template.spec.containers.find((/** @type {any} */ c) => c.name === 'k6');
    assert.match(k6.command.join(' '), /k6 run \/scripts\/starvation\.js/);
    assert.equal(k6.image, testRun.spec.runner.image);
    for (const env of [testRun.spec.runner.env, k6.env]) {
      const byName = Object.fromEntries(env.map((/** @type {any} */ e) => [e.name, e.value]));
      assert.equal(byName.PINNED_URL, 'http://lab-pinned:8080');
      assert.equal(byName.UNPINNED_URL, 'http://lab-unpinned:8080');
      assert.ok(byName.REPORT_DIR);
    }
  });
});

describe('k6 version', () => {
  test('the runner image is the k6 release the suite is typed against (@types/k6 in src/k6-checks/src/test/node)', (t) => {
    const objects = renderFor(t, 'k6');
    if (!objects) return;
    const image = objects.find((o) => o.kind === 'TestRun').spec.runner.image;
    const suite = JSON.parse(readFileSync(join(REPO, 'src', 'k6-checks', 'src', 'test', 'node', 'package.json'), 'utf8'));
    const types = String(suite.devDependencies?.['@types/k6'] ?? suite.dependencies?.['@types/k6'] ?? '');
    const [major, minor] = types.replace(/^[^0-9]*/, '').split('.');
    assert.ok(major, 'src/k6-checks/src/test/node/package.json pins @types/k6');
    assert.match(image, new RegExp(`^grafana/k6:${major}\\.${minor}\\.`), `${image} against @types/k6 ${types}`);
  });
});

describe('broken fixtures fail', () => {
  const present = ['lib-config.js', 'plan.json', 'starvation.js'];
  const listed = (/** @type {string[]} */ names) => names.map((n) => join(K6_DIR, n));

  test('a suite file missing from the generator', () => {
    assert.match(checkK6Scripts(listed(['plan.json', 'starvation.js']), present).join('\n'), /k6\/lib-config\.js is missing from the k6-scripts ConfigMap generator/);
  });

  test('a listed file that does not exist', () => {
    assert.match(checkK6Scripts(listed([...present, 'lib-gone.js']), present).join('\n'), /lists lib-gone\.js, which does not exist/);
  });

  test('a file from another directory (its key would need a "/")', () => {
    assert.match(checkK6Scripts([...listed(present), join(K6_DIR, 'sub', 'x.js')], present).join('\n'), /not in/);
  });
});
