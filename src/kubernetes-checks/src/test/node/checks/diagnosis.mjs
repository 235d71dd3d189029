// The next best thing to pointing the diagnosis at a pod through `kubectl port-forward`, without a
// cluster: the JMX flags the README sets on the Deployment, given to a local JVM (the second service of
// the tests, src/second-service, which no one else listens for), and the README's diagnosis command
// run against that JVM's JMX address. A local JVM's thread dumps are readable, a pod's are not, so the
// command gets --no-thread-dumps, and a short watch. The flags must also keep JMX off every address but
// loopback, which the port-forward reaches from inside the pod.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './render.mjs';

export const DIAGNOSE_JAR = 'src/diagnose/target/starvation-diagnose.jar';
export const SECOND_SERVICE = 'src/second-service/target/second-service.jar';

/** What the flags must say, so that one forwarded port reaches JMX and nothing else in the cluster does. */
const REQUIRED = {
  'com.sun.management.jmxremote.host': '127.0.0.1',
  'java.rmi.server.hostname': '127.0.0.1',
  'com.sun.management.jmxremote.authenticate': 'false',
  'com.sun.management.jmxremote.ssl': 'false',
};

/**
 * The JMX port the flags open, or the reasons they would not work through a port-forward.
 *
 * @param {string[]} flags
 * @returns {{ port?: number, violations: string[] }}
 */
export function checkJmxFlags(flags) {
  /** @type {Record<string, string>} */
  const properties = {};
  const violations = [];
  for (const flag of flags) {
    const [, key, value] = /^-D([^=]+)=(.*)$/.exec(flag) ?? [];
    if (!key) violations.push(`${flag}: not a -Dkey=value system property`);
    else properties[key] = value;
  }
  const port = Number(properties['com.sun.management.jmxremote.port']);
  if (!Number.isInteger(port) || port <= 0) violations.push('no -Dcom.sun.management.jmxremote.port: JMX stays closed');
  if (properties['com.sun.management.jmxremote.rmi.port'] !== String(port)) {
    violations.push('-Dcom.sun.management.jmxremote.rmi.port must be the same port: a port-forward forwards one');
  }
  for (const [key, value] of Object.entries(REQUIRED)) {
    if (properties[key] !== value) {
      const why = { 'com.sun.management.jmxremote.host': 'JMX would listen on every address of the pod',
        'java.rmi.server.hostname': "the stubs would name the pod's address, which a port-forward does not reach" }[key] ?? 'the client connects without';
      violations.push(`-D${key}=${value} is missing (${why})`);
    }
  }
  return { port, violations };
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** @param {string} host @param {number} port @returns {Promise<boolean>} whether something accepts a connection there */
function answers(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.on('connect', () => { socket.destroy(); resolve(true); });
    socket.on('timeout', () => { socket.destroy(); resolve(false); });
    socket.on('error', () => resolve(false));
  });
}

/**
 * The stand-in: starts the second service with the flags (its port replaced by a free one), runs the
 * README's command against it, and judges what came back.
 *
 * @param {{ home: string, feature: number }} jdk a JDK 21+ to run both with
 * @param {string[]} flags the README's JDK_JAVA_OPTIONS
 * @param {string[]} args the README's diagnosis arguments after `java -jar <jar>`
 * @param {(line: string) => void} log
 * @returns {Promise<string[]>} violations
 */
export async function standIn(jdk, flags, args, log) {
  const java = join(jdk.home, 'bin', 'java');
  const jmxPort = await freePort();
  const httpPort = await freePort();
  const localFlags = flags.map((f) => f.replace(/^(-Dcom\.sun\.management\.jmxremote(\.rmi)?\.port)=\d+$/, `$1=${jmxPort}`));
  const service = spawn(java, ['--enable-native-access=ALL-UNNAMED', '-jar', join(REPO, SECOND_SERVICE), String(httpPort)],
    { env: { ...process.env, JDK_JAVA_OPTIONS: localFlags.join(' ') }, stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  service.stdout.on('data', (d) => { printed += d; });
  service.stderr.on('data', (d) => { printed += d; });
  const dir = mkdtempSync(join(tmpdir(), 'starvation-lab-diagnosis-'));
  try {
    const started = Date.now();
    while (!(await answers('127.0.0.1', jmxPort))) {
      if (service.exitCode !== null || Date.now() - started > 60_000) return [`the JVM with the README's flags did not open JMX on ${jmxPort}:\n${printed}`];
      await new Promise((r) => setTimeout(r, 200));
    }
    const violations = [];
    const others = Object.values(networkInterfaces()).flat().filter((a) => a && !a.internal && a.family === 'IPv4').map((a) => /** @type {any} */ (a).address);
    for (const address of others) {
      if (await answers(address, jmxPort)) violations.push(`JMX answers on ${address}:${jmxPort}: beyond loopback, anyone in the cluster could connect`);
    }
    const json = join(dir, 'report.json');
    const command = [...args.map((a) => a.replace(/^localhost:\d+$/, `localhost:${jmxPort}`))];
    const seconds = command.indexOf('--seconds');
    if (seconds >= 0) command[seconds + 1] = '3';
    else command.push('--seconds', '3');
    command.push('--no-thread-dumps', '--json', json);
    log(`stand-in: ${SECOND_SERVICE} on JDK ${jdk.feature} with the README's flags (JMX on ${jmxPort}); java -jar ${DIAGNOSE_JAR} ${command.join(' ')}`);
    const run = spawnSync(java, ['-jar', join(REPO, DIAGNOSE_JAR), ...command], { encoding: 'utf8', timeout: 90_000 });
    if (run.status !== 0 && run.status !== 1) {
      return [...violations, `the diagnosis could not diagnose through the JMX address (exit ${run.status}):\n${run.stdout}${run.stderr}`];
    }
    const report = JSON.parse(readFileSync(json, 'utf8'));
    if (!(report.carriers?.parallelism >= 1)) violations.push(`the report names no carriers: ${JSON.stringify(report.carriers)}`);
    if (report.verdict?.starved !== false) violations.push(`an idle JVM was judged starved: ${JSON.stringify(report.verdict)}`);
    if (!String(report.target).startsWith('JMX localhost:')) violations.push(`the report's target is ${report.target}, not the JMX address`);
    log(`stand-in: ${run.stdout.split('\n').slice(0, 3).join(' | ')}`);
    return violations;
  } finally {
    service.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
