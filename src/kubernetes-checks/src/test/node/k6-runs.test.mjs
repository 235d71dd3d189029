// How the in-cluster k6 runs behave before and after the load: the runner's memory fits the VUs the
// layout can reach, the TestRun's initializer hands the init code the runner's knobs (a bad one fails before load), its runner shows
// progress, and report.md comes out: the runner's sidecar prints it when the kubelet stops it, the
// Job's report container once k6 wrote its exit code, giving up when k6 leaves none.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runKnobs } from '../../../../../k6/lib-knobs.js';
import { buildLayout } from '../../../../../k6/lib-layout.js';
import { probeVusFor } from '../../../../../k6/lib-probe-schedule.js';
import { parseQuantity } from './checks/policy.mjs';
import { LAB_KUSTOMIZATIONS, onRenders, PLAN } from './checks/render.mjs';

/** This suite's memory per VU on k6 2.2.0, 0.6 MiB as measured (k6/README.md, "Memory"), rounded up. */
const BYTES_PER_VU = 2 ** 20;
/** k6 itself, its metrics and the summary's samples. */
const BASE_BYTES = 256 * 2 ** 20;

/** The probe VUs of each target's probe scenario (k6/lib-run.js): all started before the run. @param {Record<string, string>} env */
const probeVus = (env) => {
  const layout = buildLayout(env, PLAN);
  return layout.targets.map((t) => probeVusFor(layout.probes.filter((r) => r.target === t.name), runKnobs(env, PLAN).probeTimeoutMs));
};
/** The most VUs the run of `env` holds at once: every probe scenario's, every load at its ceiling. @param {Record<string, string>} env */
const peakVus = (env) => probeVus(env).reduce((sum, vus) => sum + vus, 0)
  + buildLayout(env, PLAN).loads.reduce((sum, load) => sum + Math.max(load.vus, load.maxVus), 0);

/** The environment k6 sees in a pod: envFrom lab-experiment, then env (env wins). @param {any[]} lab @param {any} container */
const environmentOf = (lab, container) => Object.assign({}, ...(container.envFrom ?? [])
  .map((/** @type {any} */ f) => lab.find((o) => o.kind === 'ConfigMap' && o.metadata.name === f.configMapRef?.name)?.data ?? {}),
Object.fromEntries((container.env ?? []).filter((/** @type {any} */ v) => v.value !== undefined).map((/** @type {any} */ v) => [v.name, v.value])));

/** The containers that run the load: the TestRun's runner, the Job's k6. @param {any[]} k6 */
const runners = (k6) => k6.flatMap((o) => (o.kind === 'TestRun' ? [{ where: 'TestRun runner', container: o.spec.runner }]
  : o.kind === 'Job' ? [{ where: 'Job k6', container: o.spec.template.spec.containers.find((/** @type {any} */ c) => c.name === 'k6') }] : []));

const sh = (script, env) => spawnSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 30_000 });

describe('k6 runner memory', () => {
  for (const kustomization of LAB_KUSTOMIZATIONS) {
    test(`${kustomization}: the runners' memory limit holds the peak VUs at ${BYTES_PER_VU / 2 ** 20} MiB each`,
      onRenders([kustomization, 'k6', 'k6/job'], (lab, operator, plain) => {
      for (const { where, container } of [...runners(operator), ...runners(plain)]) {
        const vus = peakVus(environmentOf(lab, container));
        const limit = parseQuantity(container.resources.limits.memory);
        const needed = vus * BYTES_PER_VU + BASE_BYTES;
        assert.ok(limit >= needed, `${where}: ${vus} VUs need ${needed / 2 ** 20} MiB, the limit is ${container.resources.limits.memory}`);
      }
    }));
  }

  test('the arithmetic catches a load that outgrows the runner (LOAD_VUS=1000)', onRenders(['base', 'k6'], (lab, operator) => {
    const [{ container }] = runners(operator);
    const vus = peakVus({ ...environmentOf(lab, container), LOAD_VUS: '1000' });
    assert.equal(vus, 2 * probeVus(environmentOf(lab, container))[0] + 2 * 1000);
    assert.ok(parseQuantity(container.resources.limits.memory) < vus * BYTES_PER_VU + BASE_BYTES);
  }));
});

describe('the TestRun', () => {
  test('its initializer reads lab-experiment as the runner will, k6 archive passes it to the init code, which accepts it; progress shown',
    onRenders(['base', 'k6'], (lab, operator) => {
    const { spec } = operator.find((o) => o.kind === 'TestRun');
    assert.deepEqual(spec.initializer.envFrom, [{ configMapRef: { name: 'lab-experiment' } }]);
    assert.deepEqual(spec.initializer.env, spec.runner.env, 'the initializer sees what the runner will');
    assert.match(spec.arguments, /(^|\s)--include-system-env-vars(\s|$)/,
      'k6 archive reads no system environment without it, and the operator passes only env as -e');
    // the init code's refusals themselves: src/k6-checks layout.test.mjs
    assert.doesNotThrow(() => [buildLayout, runKnobs].forEach((read) => read(environmentOf(lab, spec.initializer), PLAN)));
    assert.equal(spec.quiet, 'false', 'the operator adds --quiet unless quiet is "false"');
  }));

  test("its runner's report sidecar prints report.md when the kubelet stops it (after k6 has exited), and says so when there is none",
    onRenders(['k6'], async (operator) => {
    const { runner } = operator.find((o) => o.kind === 'TestRun').spec;
    const sidecar = runner.initContainers.find((/** @type {any} */ c) => c.name === 'report');
    assert.equal(sidecar.restartPolicy, 'Always', 'a native sidecar: stopped only after k6');
    const reports = runner.volumeMounts.find((/** @type {any} */ m) => m.name === 'reports').mountPath;
    assert.deepEqual(sidecar.volumeMounts.find((/** @type {any} */ m) => m.name === 'reports')?.mountPath, reports);
    for (const report of ['# report\n', null]) {
      const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-sidecar-'));
      const env = Object.fromEntries(sidecar.env.map((/** @type {any} */ e) => [e.name, e.value === reports ? dir : e.value]));
      // detached: its own process group, which the runtime kills whole after the grace period, as here
      const child = spawn(sidecar.command[0], sidecar.command.slice(1), { env: { PATH: process.env.PATH, ...env }, detached: true });
      const exited = new Promise((r) => child.on('exit', r));
      let out = '';
      child.stdout.on('data', (d) => { out += d; });
      await new Promise((r) => setTimeout(r, 500));
      if (report) writeFileSync(join(dir, 'report.md'), report);
      const started = Date.now();
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
      process.kill(-(child.pid ?? 0), 'SIGKILL');
      assert.ok(Date.now() - started < 5_000, 'within the kubelet\'s grace');
      assert.equal(out, report ?? 'no report.md: see the log of container k6\n');
    }
  }));
});

describe("the Job's report container", () => {
  test('prints the report once k6 wrote its exit code, and gives up within the run length plus its grace when k6 leaves none', onRenders(['k6/job'], (job) => {
    const container = job.find((o) => o.kind === 'Job').spec.template.spec.containers.find((/** @type {any} */ c) => c.name === 'report');
    const env = Object.fromEntries(container.env.map((/** @type {any} */ e) => [e.name, e.value]));
    assert.ok(Number(env.K6_GRACE_SECONDS) > 0 && Number(env.POLL_SECONDS) > 0);
    const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-report-'));
    writeFileSync(join(dir, 'k6-exit-code'), '99\n');
    writeFileSync(join(dir, 'report.md'), '# report\n');
    const run = sh(container.command[2], { ...env, REPORT_DIR: dir, POLL_SECONDS: '1', REPORT_HOLD_SECONDS: '0' });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /k6 exited with 99[\s\S]*# report/);
    const started = Date.now();
    const none = sh(container.command[2], { REPORT_DIR: mkdtempSync(join(tmpdir(), 'starvation-lab-report-')), BASELINE_SECONDS: '1',
      LOAD_SECONDS: '1', K6_GRACE_SECONDS: '0', POLL_SECONDS: '1', REPORT_HOLD_SECONDS: '0' });
    assert.equal(none.status, 1, none.stdout + none.stderr);
    assert.match(none.stdout, /k6 wrote no exit code within 2s/);
    assert.ok(Date.now() - started < 10_000, 'bounded');
  }));
});
