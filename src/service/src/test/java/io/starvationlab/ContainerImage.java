package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.Needs;
import io.starvationlab.harness.Project;

/**
 * The JDK 21 image of {@code src/service/src/main/docker/Dockerfile.jvm}, built with podman once per test JVM for
 * the tests that run it ({@link ContainerImageIT}) or read what its build stage made
 * ({@link ContainerBuildIT}): one build of the application in a container instead of two.
 */
final class ContainerImage {

    static final String IMAGE = "localhost/starvation-lab:jdk21-it";
    /** The machine's limits refused podman's defaults: ulimits no higher than its own, runc for its hybrid cgroups. */
    static final List<String> ENGINE = List.of("podman", "--runtime", "runc");
    static final List<String> LIMITS = List.of("--network=host", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1000:1000");
    /** Debian's Java trust store, which also holds the CAs the machine adds (/usr/local/share/ca-certificates). */
    static final Path TRUST_STORE = Path.of("/etc/ssl/certs/java/cacerts");

    private static String built;

    private ContainerImage() {
    }

    /** Why podman cannot build and run the image here (podman, mmdebstrap, root), or empty. */
    static Optional<String> unavailableReason() {
        List<String> missing = new ArrayList<>();
        for (String tool : List.of("podman", "mmdebstrap")) {
            if (Needs.optionalTool(tool, "Debian's " + tool + " package; .ci/with-test-tools installs it").isEmpty()) {
                missing.add(tool);
            }
        }
        String uid = ChildProcess.of("id", "-u").run(Duration.ofSeconds(10)).output().trim();
        return Optional.ofNullable(!missing.isEmpty() ? "no " + String.join(", no ", missing)
                : !uid.equals("0") ? "podman runs containers with CPU and memory limits as root here (cgroup v1), this is uid " + uid : null);
    }

    /** Skips the calling test class with the reason where the image cannot be built; fails in CI. */
    static void require() {
        unavailableReason().ifPresent(reason -> {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("The container image cannot be built and run here, required in CI: " + reason);
            }
            Assumptions.abort("The container image cannot be built and run here: " + reason);
        });
    }

    /**
     * Builds the image from the project's sources, on Debian-made bases, unless this JVM built it
     * already; it is removed when this JVM exits, if not before ({@link #remove()}).
     *
     * @return what the build cost, for the test's output
     */
    static synchronized String build(Path project) throws IOException {
        if (built != null) {
            return "built before in this run";
        }
        long start = System.nanoTime();
        ChildProcess.Result bases = ChildProcess.of(project.resolve("src/service/src/main/docker/debian-bases").toString(), "build-jdk25", "runtime-jdk21")
                .run(Duration.ofMinutes(15));
        assertThat(bases.exitCode()).as("debian-bases:%n%s", bases.output()).isZero();
        List<String> buildArgs = bases.output().lines().filter(line -> line.endsWith("# Dockerfile.jvm")).findFirst()
                .map(line -> List.of(line.replaceAll("\\s+#.*$", "").split("\\s+"))).orElseThrow();
        double basesSeconds = seconds(start);

        start = System.nanoTime();
        List<String> build = new ArrayList<>(ENGINE);
        // no layer cache: the sources differ on every run, and each run's layers would stay behind; Maven's
        // repository stays in the build's cache mount (/root/.m2), so only the first build downloads
        remove();
        build.addAll(List.of("build", "--layers=false"));
        build.addAll(LIMITS);
        if (Files.isRegularFile(TRUST_STORE)) {
            // the build's downloads (Maven) trust what this machine's Java trusts, a proxy's own CA included
            build.addAll(List.of("--volume", TRUST_STORE + ":" + TRUST_STORE + ":ro"));
        }
        Path repository = Path.of(System.getProperty("user.home"), ".m2", "repository");
        if (Files.isDirectory(repository)) {
            // what this build has resolved already, read-only behind the image's own repository: a first build in a
            // container downloads nothing the host has (Maven 3.9's tail repositories)
            build.addAll(List.of("--volume", repository + ":/host-m2:ro", "--build-arg", "MAVEN_ARGS=-Dmaven.repo.local.tail=/host-m2"));
        }
        build.addAll(buildArgs);
        build.addAll(List.of("-f", "src/service/src/main/docker/Dockerfile.jvm", "-t", IMAGE, "."));
        Runtime.getRuntime().addShutdownHook(new Thread(ContainerImage::remove, "remove-" + IMAGE));
        ChildProcess.Result result = ChildProcess.of(build).in(project).run(Duration.ofMinutes(20));
        Files.createDirectories(Project.testLogs());
        Files.writeString(Project.testLogs().resolve("container-image-build.log"), result.output());
        assertThat(result.exitCode()).as("%s:%n%s", String.join(" ", build), tail(result.output())).isZero();
        built = String.format("bases %.1f s, build %.1f s", basesSeconds, seconds(start));
        return built;
    }

    /** Copies a directory of the image out to {@code to}, through a container that is created and never started. */
    static Path copyOut(String directory, Path to) throws IOException {
        String container = "starvation-lab-copy-" + ProcessHandle.current().pid();
        ChildProcess.Result created = engine(List.of("create", "--name", container, IMAGE));
        assertThat(created.exitCode()).as(created.output()).isZero();
        try {
            Files.createDirectories(to.getParent());
            ChildProcess.Result copied = engine(List.of("cp", container + ":" + directory, to.toString()));
            assertThat(copied.exitCode()).as(copied.output()).isZero();
            return to;
        } finally {
            engine(List.of("rm", "--force", container));
        }
    }

    /** The image and its layers go with the run: the bases stay, cached. */
    static synchronized void remove() {
        engine(List.of("rmi", "--ignore", IMAGE));
        built = null;
    }

    static ChildProcess.Result engine(List<String> arguments) {
        List<String> command = new ArrayList<>(ENGINE);
        command.addAll(arguments);
        return ChildProcess.of(command).run(Duration.ofMinutes(2));
    }

    static String tail(String output) {
        List<String> lines = output.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
