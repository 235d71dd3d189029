// How the in-cluster k6 runs behave before and after the load: the runner's memory fits the VUs the
// layout can reach, the TestRun's initializer rejects a bad knob before load starts, its runner
// shows progress, and the Job's report container gives up when k6 leaves no exit code.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { buildLayout } from '../../../../../k6/lib-layout.js';
import { parseQuantity } from './checks/policy.mjs';
import { LAB_KUSTOMIZATIONS, REPO, renderFor } from './checks/render.mjs';

const PLAN = JSON.parse(readFileSync(join(REPO, 'k6', 'plan.json'), 'utf8'));
/** This suite's memory per VU on k6 2.2.0, 0.6 MiB as measured (k6/README.md, "Memory"), rounded up. */
const BYTES_PER_VU = 2 ** 20;
/** k6 itself, its metrics and the summary's samples. */
const BASE_BYTES = 256 * 2 ** 20;

/**
 * The most VUs a layout can hold at once: every probe scenario's (all started before the run), every load at its ceiling.
 *
 * @param {import('../../../../../k6/lib-layout.js').Layout} layout
 */
export function peakVus(layout) {
  const probeScenarios = new Set(layout.probes.map((route) => route.scenario)).size;
  return probeScenarios * layout.probeVus + layout.loads.reduce((sum, load) => sum + Math.max(load.vus, load.maxVus), 0);
}

/**
 * The environment k6 sees in a pod: envFrom lab-experiment, then env (env wins).
 *
 * @param {any[]} lab the lab's render (holds lab-experiment)
 * @param {{ envFrom?: any[], env?: any[] }} container
 */
function environmentOf(lab, container) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const from of container.envFrom ?? []) {
    const configMap = lab.find((o) => o.kind === 'ConfigMap' && o.metadata.name === from.configMapRef?.name);
    Object.assign(env, configMap?.data ?? {});
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) env[variable.name] = variable.value;
  }
  return env;
}

/**
 * @param {any[]} k6 render of kubernetes/k6 or kubernetes/k6/job
 * @returns {{ where: string, container: any }[]} the containers that run the load
 */
function runners(k6) {
  const found = [];
  for (const object of k6) {
    if (object.kind === 'TestRun') {
      const { runner } = object.spec;
      found.push({ where: 'TestRun runner', container: { ...runner, resources: runner.resources } });
    }
    if (object.kind === 'Job') {
      found.push({ where: 'Job k6', container: object.spec.template.spec.containers.find((/** @type {any} */ c) => c.name === 'k6') });
    }
  }
  return found;
}

/** @param {string} script @param {Record<string, string>} env */
function sh(script, env) {
  return spawnSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 30_000 });
}

describe('k6 runner memory', () => {
  for (const kustomization of LAB_KUSTOMIZATIONS) {
    test(`${kustomization}: the runners' memory limit holds the peak VUs at ${BYTES_PER_VU / 2 ** 20} MiB each`, (t) => {
      const lab = renderFor(t, kustomization);
      const operator = renderFor(t, 'k6');
      const plain = renderFor(t, 'k6/job');
      if (!lab || !operator || !plain) return;
      for (const { where, container } of [...runners(operator), ...runners(plain)]) {
        const vus = peakVus(buildLayout(environmentOf(lab, container), PLAN));
        const needed = vus * BYTES_PER_VU + BASE_BYTES;
        const limit = parseQuantity(container.resources.limits.memory);
        assert.ok(limit >= needed, `${where}: ${vus} VUs need ${needed / 2 ** 20} MiB, the limit is ${container.resources.limits.memory}`);
        assert.equal(parseQuantity(container.resources.requests.memory), limit, `${where}: memory request = limit, so the node has it`);
      }
    });
  }

  test('the arithmetic catches a load that outgrows the runner (LOAD_VUS=1000)', (t) => {
    const lab = renderFor(t, 'base');
    const operator = renderFor(t, 'k6');
    if (!lab || !operator) return;
    const [{ container }] = runners(operator);
    const vus = peakVus(buildLayout({ ...environmentOf(lab, container), LOAD_VUS: '1000' }, PLAN));
    assert.equal(vus, 2 * buildLayout(environmentOf(lab, container), PLAN).probeVus + 2 * 1000);
    assert.ok(parseQuantity(container.resources.limits.memory) < vus * BYTES_PER_VU + BASE_BYTES);
  });
});

describe('the TestRun', () => {
  test('its initializer reads lab-experiment, and k6 archive is told to pass it to the init code', (t) => {
    const operator = renderFor(t, 'k6');
    if (!operator) return;
    const { spec } = operator.find((o) => o.kind === 'TestRun');
    assert.deepEqual(spec.initializer.envFrom, [{ configMapRef: { name: 'lab-experiment' } }]);
    assert.deepEqual(spec.initializer.env, spec.runner.env, 'the initializer sees what the runner will');
    assert.match(spec.arguments, /(^|\s)--include-system-env-vars(\s|$)/,
      'k6 archive reads no system environment without it, and the operator passes only env as -e');
  });

  test('the knobs it would see are validated by the init code: a typo in lab-experiment throws', (t) => {
    const lab = renderFor(t, 'base');
    const operator = renderFor(t, 'k6');
    if (!lab || !operator) return;
    const { spec } = operator.find((o) => o.kind === 'TestRun');
    const env = environmentOf(lab, spec.initializer);
    assert.doesNotThrow(() => buildLayout(env, PLAN));
    assert.throws(() => buildLayout({ ...env, PINNED_MODE: 'natve' }, PLAN), /PINNED_MODE must be one of .*not 'natve'/);
    assert.throws(() => buildLayout({ ...env, LOAD_SECONDS: '3m' }, PLAN), /LOAD_SECONDS must be a whole number/);
  });

  test('the runner shows progress (the operator adds --quiet unless quiet is "false")', (t) => {
    const operator = renderFor(t, 'k6');
    if (!operator) return;
    assert.equal(operator.find((o) => o.kind === 'TestRun').spec.quiet, 'false');
  });
});

describe("the Job's report container", () => {
  /** @param {any[]} job */
  function reportContainer(job) {
    return job.find((o) => o.kind === 'Job').spec.template.spec.containers.find((/** @type {any} */ c) => c.name === 'report');
  }

  test('gives up within the run length plus its grace when k6 leaves no exit code', (t) => {
    const job = renderFor(t, 'k6/job');
    if (!job) return;
    const script = reportContainer(job).command[2];
    const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-report-'));
    const started = Date.now();
    const run = sh(script, { REPORT_DIR: dir, BASELINE_SECONDS: '1', LOAD_SECONDS: '1', K6_GRACE_SECONDS: '0', POLL_SECONDS: '1', REPORT_HOLD_SECONDS: '0' });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /k6 wrote no exit code within 2s/);
    assert.ok(Date.now() - started < 10_000, 'bounded');
  });

  test('prints the report once k6 wrote its exit code (control)', (t) => {
    const job = renderFor(t, 'k6/job');
    if (!job) return;
    const container = reportContainer(job);
    const env = Object.fromEntries(container.env.map((/** @type {any} */ e) => [e.name, e.value]));
    assert.ok(Number(env.K6_GRACE_SECONDS) > 0 && Number(env.POLL_SECONDS) > 0);
    const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-report-'));
    writeFileSync(join(dir, 'k6-exit-code'), '99\n');
    writeFileSync(join(dir, 'report.md'), '# report\n');
    const run = sh(container.command[2], { ...env, REPORT_DIR: dir, POLL_SECONDS: '1', REPORT_HOLD_SECONDS: '0' });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /k6 exited with 99[\s\S]*# report/);
  });
});
