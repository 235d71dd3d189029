// The JMX flags the README sets on a Deployment for the diagnosis, as `kubectl port-forward` needs them. Its
// diagnosis command, with these flags, runs for real in src/diagnose's DiagnoseLabIT (the packaged service under
// load, JMX answering on loopback only).

export const DIAGNOSE_JAR = 'src/diagnose/target/starvation-diagnose.jar';

/** What the flags must say, so that one forwarded port reaches JMX and nothing else in the cluster does, and why. */
const REQUIRED = {
  'com.sun.management.jmxremote.host': ['127.0.0.1', 'JMX would listen on every address of the pod'],
  'java.rmi.server.hostname': ['127.0.0.1', "the stubs would name the pod's address, which a port-forward does not reach"],
  'com.sun.management.jmxremote.authenticate': ['false', 'the client connects without'],
  'com.sun.management.jmxremote.ssl': ['false', 'the client connects without'],
};

/**
 * The JMX port the flags open, or the reasons they would not work through a port-forward.
 */
export function checkJmxFlags(flags) {
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
  for (const [key, [value, why]] of Object.entries(REQUIRED)) {
    if (properties[key] !== value) violations.push(`-D${key}=${value} is missing (${why})`);
  }
  return { port, violations };
}
