// kubernetes/README.md walked top to bottom (checks/readme-walk.mjs): each shell command passes the
// check that stands in for it on a machine without a cluster, Docker or Helm repositories (the table
// "How each step is checked"), here with the heavy stand-in run: a Dockerfile's build stage. Then each kind
// of broken step fails.

import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DIAGNOSE_JAR } from './checks/diagnosis.mjs';
import { checkImageContents, copiedFromBuild, filesUnder, requireJdk, runBuildStage, stagesOf, WALK_MARKER } from './checks/images.mjs';
import { walk } from './checks/readme-walk.mjs';
import { KUBERNETES, REPO, renderer, requireTool } from './checks/render.mjs';

const builds = new Map();
// each build stage leaves a copy of the repository and its target/ (100 MB and more)
after(() => builds.forEach(({ root }) => rmSync(root, { recursive: true, force: true })));

/**
 * The stand-in for `docker build -f <file> -t <tag> .`: its build stage run here (once per distinct
 * stage; native: the native build steps up to native-image, which needs GraalVM), then what the final
 * stage copies from it must exist and be the application only.
 */
function buildImage(t, dockerfile) {
  const build = stagesOf(dockerfile).find((s) => s.alias === 'build');
  const native = (build?.steps.find((s) => s.instruction === 'RUN')?.args ?? []).some((a) => /^-P(.*,)?native(,|$)/.test(a));
  const extra = native ? ['-Dquarkus.native.sources-only=true'] : [];
  const key = JSON.stringify([build?.steps.map((s) => s.line), extra]);
  // the same build stage as Dockerfile.jvm's, which ContainerImageIT built for real with podman earlier in ./mvnw verify:
  // its /deployments (copied out of the image) is judged instead of running the build stage again here
  const built = join(REPO, 'target/container-build/quarkus-app');
  const jvm = stagesOf(join(dirname(dockerfile), 'Dockerfile.jvm')).find((s) => s.alias === 'build');
  if (!native && existsSync(built) && JSON.stringify(jvm?.steps.map((s) => s.line)) === JSON.stringify(build?.steps.map((s) => s.line))) {
    t.diagnostic(`${basename(dockerfile)}: its build stage is Dockerfile.jvm's, built for real by ContainerImageIT: ${built} judged`);
    return checkImageContents(filesUnder(built)).map((v) => `${basename(dockerfile)}: ${v.replace(`${REPO}/`, '')}`);
  }
  const jdk = requireJdk(t); // for the build stage alone
  if (!jdk) return [];
  t.diagnostic(`${basename(dockerfile)}: the build stage is FROM ${build?.from}; run here with ${jdk.version}${builds.has(key) ? ', as above' : ''}`);
  if (!builds.has(key)) builds.set(key, runBuildStage(dockerfile, { javaHome: jdk.home, extraMavenArgs: extra, log: (line) => t.diagnostic(line) }));
  const { root, workdir } = /** @type {{ root: string, workdir: string }} */ (builds.get(key));
  const copied = copiedFromBuild(dockerfile, root);
  const violations = copied.length ? [] : [`${basename(dockerfile)}: the final stage copies nothing from the build stage`];
  let nativeTarget = join(workdir, 'target'); // the native build's target/, from the final stage's COPY
  for (const { line, source, matches } of copied) {
    if (native && /-runner$/.test(source)) {
      // native-image's arguments must name the executable the final stage copies, and the jar they compile must exist
      nativeTarget = join(root, dirname(source));
      const args = join(nativeTarget, 'native-sources/native-image.args');
      const words = existsSync(args) ? readFileSync(args, 'utf8').trim().split(/\s+/) : [];
      const jar = words[words.indexOf('-jar') + 1];
      const name = words[words.indexOf('-jar') - 1];
      if (!words.length) violations.push(`${line}: no target/native-sources/native-image.args after the native build steps`);
      else if (!jar || !existsSync(join(nativeTarget, 'native-sources', jar))) {
        violations.push(`${line}: native-image.args names jar ${jar}, which is not there`);
      }
      if (words.length && !new RegExp(`^${basename(source).replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`).test(name ?? '')) {
        violations.push(`${line}: native-image would write ${name}, which ${source} does not match`);
      }
      if (words.length && !words.includes('--no-fallback')) violations.push(`${line}: a fallback image would need a JVM at run time`);
      continue;
    }
    if (matches.length === 0) violations.push(`${basename(dockerfile)}: ${line}: ${source} does not exist after the build stage`);
    violations.push(...checkImageContents(matches.flatMap(filesUnder)).map((v) => `${basename(dockerfile)}: ${v.replace(`${root}/`, '/')}`));
  }
  if (native) {
    const compiled = filesUnder(join(nativeTarget, 'native-sources')).filter((f) => f.endsWith('.jar'));
    const problems = checkImageContents(compiled, { postgresOnly: true });
    violations.push(...problems.map((v) => `${basename(dockerfile)}: native-image input ${v.replace(`${root}/`, '/')}`));
  }
  return violations;
}

describe('kubernetes/README.md, walked', () => {
  test('every shell command passes the check that stands in for it', async (t) => {
    assert.equal(process.env[WALK_MARKER], undefined, 'the walker runs inside a build it started');
    const kubectl = requireTool(t, 'kubectl');
    if (!kubectl) return;
    const failures = await walk(readFileSync(join(KUBERNETES, 'README.md'), 'utf8'), {
      renders: renderer(kubectl), buildImage: (dockerfile) => buildImage(t, dockerfile),
    }, (line) => t.diagnostic(line));
    assert.deepEqual(failures, []);
  });
});

describe('the walker rejects broken steps', () => {
  const sh = (/** @type {string[]} */ lines) => `# T\n\n\`\`\`sh\n${lines.join('\n')}\n\`\`\`\n`;
  const README = readFileSync(join(KUBERNETES, 'README.md'), 'utf8');
  /** A kustomization in the clone, the lab with the JMX component, `patch` patching its flags. @param {string} dir @param {string} patch */
  const ownLab = (dir, patch) => `\`\`\`yaml\n# ${dir}/kustomization.yaml\nresources:\n  - ../kubernetes/overlays/jdk21\ncomponents:\n  - ../kubernetes/components/jmx\n${patch}\`\`\`\n`;
  const BAD_JMX = ['patches:', '  - target:', '      kind: Deployment', '    patch: |-', '      - op: replace', '        path: /spec/template/spec/containers/0/env/0/value',
    '        value: -Dcom.sun.management.jmxremote.port=9010 -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false', ''].join('\n');
  const K6_APPLY = 'kubectl kustomize --load-restrictor=LoadRestrictionsNone kubernetes/k6 | kubectl apply --server-side -f -';
  const cases = [
    ['a command the walker does not know', sh(['kubectl -n starvation-lab exec deploy/lab-pinned -- jcmd 1 Thread.print', 'terraform apply']),
      [/not a command the walker knows/, /terraform apply\n\s+UNRECOGNISED/]],
    ['the k6-operator with --create-namespace while its chart creates the namespace (the Helm refusal)',
      sh(['helm install k6-operator grafana/k6-operator --version 4.2.0 --namespace k6-operator-system --create-namespace --wait']),
      [/--create-namespace creates it too: Helm refuses/]],
    ['unpinned charts, an undocumented value, a release the ServiceMonitor does not select', sh([
      'helm install k6-operator grafana/k6-operator --namespace k6-operator-system --create-namespace --set namespace.create=false',
      'helm install k6-operator grafana/k6-operator --version 4.2.0 --namespace x --create-namespace --set namespace.create=false --set namespace.name=x',
      'helm install prom prometheus-community/kube-prometheus-stack --namespace monitoring --create-namespace']),
    [/k6-operator: --version must pin the chart the walker knows \(4\.2\.0\), is undefined/, /--set namespace\.name is not a documented value/,
      /kube-prometheus-stack: --version must pin the chart the walker knows \(79\.7\.1\)/,
      /release prom: the ServiceMonitor and PrometheusRule carry release=kube-prometheus-stack/]],
    ['an overlay that does not exist, a typo in a patched knob', sh(['kubectl apply -k kubernetes/overlays/jdk22',
      `kubectl -n starvation-lab patch configmap lab-experiment --type merge -p '{"data":{"PINNED_MODE":"natve"}}'`]),
    [/overlays\/jdk22 is not a lab kustomization/, /the patched lab-experiment fails k6's init code: PINNED_MODE must be one of/]],
    ['JMX a port-forward cannot reach, a forward to another port, a diagnosis through no forward', `${ownLab('lab-bad-jmx', BAD_JMX)}${sh([
      'kubectl apply -k lab-bad-jmx', 'kubectl -n starvation-lab port-forward deployment/lab-pinned 19010:9010',
      'kubectl -n starvation-lab port-forward deployment/lab-pinned 8080:8080', K6_APPLY,
      `java -jar ${DIAGNOSE_JAR} --jmx localhost:9011 --seconds 30`, `java -jar ${DIAGNOSE_JAR} --pid 1`])}`,
    [/lab-pinned: -Dcom\.sun\.management\.jmxremote\.rmi\.port must be the same port/, /lab-unpinned: .*JMX would listen on every address of the pod/,
      /the stubs would name the pod's address/, /forward 9010 to the same local port/, /deployment\/lab-pinned opens no port 8080/,
      /no port-forward above listens on 9011/, /goes through a port-forward/]],
    ['a diagnosis with no load running; a measured pod restarted during a run, by an apply and by set env; a TestRun delete that needs the CRD',
      `${ownLab('lab-jmx', '')}${sh(['kubectl apply -k lab-jmx', 'kubectl -n starvation-lab port-forward deployment/lab-pinned 9010:9010',
        `java -jar ${DIAGNOSE_JAR} --jmx localhost:9010 --seconds 30`, K6_APPLY, 'kubectl apply -k kubernetes/overlays/jdk21',
        'kubectl -n starvation-lab set env deployment/lab-unpinned LAB_STARVATION_READINESS_ENABLED=true',
        'kubectl -n starvation-lab delete testrun starvation --ignore-not-found'])}`,
    [/--jmx localhost:9010 --seconds 30\n\s+the diagnosis reads a pod under load: no load runs here/,
      /restarts lab-pinned during the run started at line \d+: its pod template changes \(Recreate\)/,
      /kubectl set env changes deployment\/lab-unpinned: Recreate restarts the measured pod/,
      /--ignore-not-found covers a missing TestRun, not a missing CRD/]],
    ['a push of one JDK only, by a tag pushed again; a kustomization deploying a tag nobody pushed, under IfNotPresent',
      `${sh(['docker build -f src/service/src/main/docker/Dockerfile.jvm -t starvation-lab:jdk21 --platform linux/arm64 .',
        'docker tag starvation-lab:jdk21 registry.example.com/team/starvation-lab:jdk21', 'docker push registry.example.com/team/starvation-lab:jdk21'])}`
      + `\`\`\`yaml\n# my-lab/kustomization.yaml\nresources:\n  - ../starvation-lab/kubernetes/overlays/jdk25\nimages:\n  - name: starvation-lab\n`
      + `    newName: registry.example.com/team/starvation-lab\n\`\`\`\n${sh(['kubectl apply -k my-lab'])}`,
    [/registry\.example\.com\/team\/starvation-lab:jdk21: a tag pushed again with every build; tag it by commit/,
      /image registry\.example\.com\/team\/starvation-lab:jdk25 is pushed by no step above/,
      /lab-pinned container lab: image registry\.example\.com\/team\/starvation-lab:jdk25 is re-pushed with every build, and IfNotPresent keeps/,
      /the images pushed above hold no starvation-lab:jdk25, which overlays deploy/]],
    ['a password written into the kustomization', `\`\`\`yaml\n# my-lab/kustomization.yaml\nresources:\n  - ../starvation-lab/kubernetes/overlays/jdk21\n`
      + 'secretGenerator:\n  - name: postgres-credentials\n    namespace: starvation-lab\n    behavior: replace\n    literals:\n      - username=lab\n'
      + `      - password=a-password-of-your-own\n\`\`\`\n${sh(['kubectl apply -k my-lab'])}`,
    [/secretGenerator postgres-credentials: a password in my-lab\/kustomization\.yaml goes into git with it/]],
    ['kube-prometheus-stack on kind with its control-plane targets on', sh([
      'helm install kube-prometheus-stack prometheus-community/kube-prometheus-stack --version 79.7.1 --namespace monitoring --create-namespace --wait']),
    [/on kind: kubeControllerManager\.enabled is not false/, /on kind: kubeProxy\.enabled is not false/]],
    ['minikube nodes no row fits, a container driver, k3d with one agent and images for another cluster', sh([
      'minikube start --driver=kvm2 --nodes 2 --cpus 6 --memory 8g', 'minikube start --driver=docker --nodes 3',
      'k3d cluster create lab --agents 1', 'docker build -f src/service/src/main/docker/Dockerfile.jvm -t starvation-lab:jdk21 --platform linux/arm64 .',
      'k3d image import starvation-lab:jdk21 --cluster starvation-lab']),
    [/minikube start: 2 nodes of 6 CPUs and 8 GiB are no row of the node sizes above/, /--driver=docker: a VM driver/,
      /k3d cluster create lab: --agents 1, two needed/, /k3d image import into starvation-lab, created lab/]],
    ['an image loaded into the cluster that no docker build made', sh(['kind load docker-image starvation-lab:jdk23 --name starvation-lab']),
      [/image starvation-lab:jdk23 is built by no docker build above/]],
    ['the k6 objects applied client-side', sh(['kubectl kustomize --load-restrictor=LoadRestrictionsNone kubernetes/k6 | kubectl apply -f -']),
      [/the k6 objects go \| kubectl apply --server-side -f -/]],
    ['a StorageClass set by a strategic-merge patch (kubectl kustomize renders a claim without access mode or size)',
      readFileSync(new URL('./fixtures/readme-storageclass-strategic-merge.md', import.meta.url), 'utf8'),
    [/claim data: spec\.accessModes: Required value: at least 1 access mode is required/, /spec\.resources\[storage\]: Required value/]],
    ['nodes that each fit a lab pod, but not the runner beside it; too little memory for kind', `${README
      .replace('| 4 CPUs and 6 GiB (nodes of 5 or 6 vCPUs) | 3 |', '| 5 CPUs and 6 GiB (nodes of 6 vCPUs) | 2 |')
      .replace('8 CPUs and 12 GiB', '8 CPUs and 8 GiB').replace('under 4 CPUs', 'under 4.5 CPUs')
      .slice(0, README.indexOf('## Build and load the images'))}${sh(['kubectl apply -k kubernetes/overlays/jdk21', K6_APPLY])}`,
    [/\| 5 CPUs and 6 GiB \(nodes of 6 vCPUs\) \| 2 \|: starvation runner fits on no node after/, /kind: Docker's 8 GiB, under the 10\.5 GiB/,
      /under 4\.5 CPUs .*: says no node fits, yet every lab pod fits one/, /the README must say a node of 4 vCPUs runs no lab pod/]],
    ['a local image with no word on --platform, a claim with no StorageClass and no kustomization naming one', sh(['kubectl apply -k kubernetes/overlays/jdk21',
      'docker build -f src/service/src/main/docker/Dockerfile.jvm -t starvation-lab:jdk21 .']), [/the README must say how to build for the nodes' \(--platform\)/,
      /PostgreSQL's claim names no StorageClass, so it binds only with a default one/]],
  ];
  for (const [name, markdown, messages] of cases) {
    test(name, async (t) => {
      const kubectl = requireTool(t, 'kubectl');
      if (!kubectl) return;
      const failures = (await walk(markdown, {
        renders: renderer(kubectl), cluster: 'starvation-lab', buildImage: () => [],
        repos: new Map([['grafana', 'https://grafana.github.io/helm-charts'], ['prometheus-community', 'https://prometheus-community.github.io/helm-charts']]),
      })).join('\n');
      for (const message of messages) assert.match(failures, message);
    });
  }
});
