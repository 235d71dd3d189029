package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.Project;
import io.starvationlab.harness.ServerProcess;
import io.starvationlab.harness.junit.Needs;
import io.starvationlab.harness.junit.ServiceConditions;
import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.harness.load.Latencies;
import io.starvationlab.harness.load.Probes;
import io.starvationlab.model.Plan;
import io.starvationlab.model.StarvationRule;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The JDK 21 image ({@code src/service/src/main/docker/Dockerfile.jvm}) built and run in a real container, as a
 * pod runs it: podman as root with runc, on base images made from Debian's packages
 * ({@code src/service/src/main/docker/debian-bases}, cached outside the repository), the pod's limits scaled to
 * this machine ({@code --cpus=1 --memory=1g}: 1 CPU of its 2, as the pod's 4 are of a bigger node),
 * its security context (read-only root, user 185, no capabilities), a PostgreSQL beside it on the
 * host network. The JVM must take its carriers from the CPU limit and read the memory limit, run the
 * image's collector, starve under pinned load and keep answering its health checks. Its build stage
 * ({@code ./mvnw package -Pcontainer}) leaves no PostgreSQL binaries, no zonky jar and no embedded-database
 * class in {@code /deployments}, copied out to {@code target/container-build/quarkus-app} for the Kubernetes
 * checks; without a database URL the image refuses to start. Needs podman, mmdebstrap and root; where one is
 * missing it is skipped with the reason, and fails in CI.
 */
class ContainerImageIT {

    static final String IMAGE = "localhost/starvation-lab:jdk21-it";
    static final String CONTAINER = "starvation-lab-it-" + ProcessHandle.current().pid();
    static final String NO_DATABASE = CONTAINER + "-no-database";
    /** The machine's limits refused podman's defaults: ulimits no higher than its own, runc for its hybrid cgroups. */
    static final List<String> ENGINE = List.of("podman", "--runtime", "runc");
    static final List<String> LIMITS = List.of("--network=host", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1000:1000");
    /** Debian's Java trust store, which also holds the CAs the machine adds (/usr/local/share/ca-certificates). */
    static final Path TRUST_STORE = Path.of("/etc/ssl/certs/java/cacerts");
    static final int CPUS = 1;
    static final long MEMORY = 1L << 30;
    static final StarvationRule RULE = Plan.ofProject().starved();
    /** The image's build, as the Kubernetes checks judge it later in the build (readme-walk.test.mjs). */
    static final Path DEPLOYMENTS = Project.root().resolve("target/container-build/quarkus-app");

    static EmbeddedPostgres database;
    /** {@code podman run} attached: the container's output in its log, stopped with SIGTERM as a pod is. */
    static ServerProcess container;
    static LabClient lab;
    /** The container and the image go with the run, if not before ({@link #stop()}): the bases stay, cached. */
    static final Thread REMOVE = new Thread(ContainerImageIT::remove, "remove-" + CONTAINER);

    @BeforeAll
    static void buildAndRunTheImage() throws IOException {
        for (String tool : List.of("podman", "mmdebstrap")) {
            Needs.tool(tool, "Debian's " + tool + " package; .ci/with-test-tools installs it");
        }
        String uid = ChildProcess.of("id", "-u").run(Duration.ofSeconds(10)).output().trim();
        if (!uid.equals("0")) {
            Needs.skip(Needs.missingInCi("podman runs containers with CPU and memory limits as root here (cgroup v1), this is uid " + uid));
        }
        Runtime.getRuntime().addShutdownHook(REMOVE);
        remove(); // what a run ended before its clean-up left
        String built = build(Project.root());

        Path data = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "container-image-pg-");
        database = EmbeddedPostgres.builder().setPort(Machine.freePort()).setDataDirectory(data).start();
        int port = Machine.freePort();
        long start = System.nanoTime();
        List<String> command = Stream.concat(ENGINE.stream(), run("--name", CONTAINER, "--cpus=" + CPUS, "--memory=" + MEMORY,
                // the pod's securityContext: read-only root (a tmpfs /tmp as its emptyDir), user 185, no capabilities
                "--read-only", "--tmpfs", "/tmp:rw,size=1g", "--user", "185:185", "--cap-drop=ALL", "--security-opt=no-new-privileges",
                "-e", "QUARKUS_HTTP_PORT=" + port,
                "-e", "QUARKUS_DATASOURCE_JDBC_URL=jdbc:postgresql://localhost:" + database.getPort() + "/postgres",
                "-e", "QUARKUS_DATASOURCE_USERNAME=postgres", "-e", "QUARKUS_DATASOURCE_PASSWORD=trust-auth-ignores-it",
                "-e", "LAB_EMBEDDED_POSTGRES_ENABLED=false", IMAGE).stream()).toList();
        container = ServerProcess.start("the container", command, Project.testLogs().resolve("container-image.log"),
                URI.create("http://localhost:" + port), "/q/health/ready", Duration.ofSeconds(120));
        lab = new LabClient(container.baseUri());
        System.out.printf("container image: %s, ready %.1f s after run%n", built, seconds(start));
    }

    @AfterAll
    static void stop() throws IOException {
        if (container != null) {
            container.close();
        }
        if (Runtime.getRuntime().removeShutdownHook(REMOVE)) {
            remove();
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void theJvmShouldTakeItsCarriersFromTheCpuLimitAndSeeTheMemoryLimit() {
        JsonNode info = lab.info();
        System.out.println("container /lab/info: " + info);
        assertThat(info.path("javaVersion").asText()).startsWith("21");
        assertThat(info.path("jvmArguments").toString()).doesNotContain("ActiveProcessorCount");
        assertThat(info.path("cpuQuotaMicros").asLong()).isEqualTo(CPUS * 100_000L);
        assertThat(info.path("cpuPeriodMicros").asLong()).isEqualTo(100_000L);
        assertThat(info.path("effectiveCpuCount").asInt()).isEqualTo(CPUS);
        assertThat(info.path("availableProcessors").asInt()).isEqualTo(CPUS);
        assertThat(info.path("carrierParallelism").asInt()).as("carriers from --cpus").isEqualTo(CPUS);
        assertThat(info.path("memoryLimitBytes").asLong()).isEqualTo(MEMORY);
        assertThat(info.path("garbageCollector").asText()).as("the collector the image names, the experiment's").isEqualTo("G1");
        assertThat(info.path("embeddedDatabase").asBoolean(true)).isFalse();
        assertThat(info.path("synchronizedPins").asBoolean()).as("JDK 21, measured at start-up").isTrue();
        ObservabilityIT.assertContainerMeters(lab.metrics(), info);
        assertThat(lab.get("/work/unpinned?ms=10&downstream=db").statusCode()).as("a query through the PostgreSQL beside it").isEqualTo(200);
        assertThat(container.logText()).doesNotContain("Embedded PostgreSQL");
    }

    /** What the pods' limits would give without the image's flag: Serial, for the memory alone (2 CPUs here). */
    @Test
    void withoutTheImagesFlagTheJvmWouldPickSerialAtThePodsMemoryLimit() {
        ChildProcess.Result flags = engine(run("--rm", "--cpus=2", "--memory=" + MEMORY, "--entrypoint", "java", IMAGE, "-XX:+PrintFlagsFinal", "-version"));
        assertThat(flags.exitCode()).as(flags.output()).isZero();
        assertThat(flags.output()).containsPattern("bool UseSerialGC\\s+= true\\s+\\{product\\} \\{ergonomic\\}")
                .containsPattern("bool UseG1GC\\s+= false");
    }

    @Test
    void withoutADatabaseUrlTheImageShouldRefuseToStart() {
        // named, so that one that started after all goes with the clean-up
        ChildProcess.Result exit = engine(run("--rm", "--name", NO_DATABASE, "-e", "QUARKUS_HTTP_PORT=" + Machine.freePort(), IMAGE));
        assertThat(exit.exitCode()).as(exit.output()).isNotZero();
        assertThat(exit.output()).contains("No database configured: set QUARKUS_DATASOURCE_JDBC_URL")
                .contains("this build has no embedded PostgreSQL").doesNotContain("Embedded PostgreSQL started");
    }

    @Test
    void theImagesBuildShouldCarryNoPostgresBinariesAndNoEmbeddedDatabaseCode() throws IOException {
        // no zonky or PostgreSQL-binaries jar among its libraries: the Kubernetes checks judge the same copy (checks/images.mjs)
        List<Path> ours;
        try (Stream<Path> jars = Stream.concat(Files.list(DEPLOYMENTS.resolve("app")), Files.list(DEPLOYMENTS.resolve("quarkus")))) {
            ours = jars.filter(jar -> jar.toString().endsWith(".jar")).toList();
        }
        assertThat(ours).as("the application's own jars").isNotEmpty();
        for (Path jar : ours) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (ZipEntry entry : zip.stream().toList()) {
                    assertThat(entry.getName()).as("in %s", jar.getFileName()).doesNotStartWith("io/starvationlab/database/embedded/");
                    if (entry.getName().endsWith(".class") || entry.getName().startsWith("META-INF/services/")) {
                        String content = new String(zip.getInputStream(entry).readAllBytes(), StandardCharsets.ISO_8859_1);
                        assertThat(content).as("%s!%s", jar.getFileName(), entry.getName())
                                .doesNotContain("io/zonky").doesNotContain("io/starvationlab/database/embedded")
                                .doesNotContain("io.starvationlab.database.embedded");
                    }
                }
            }
        }
    }

    @Test
    void pinnedLoadShouldStarveTheVirtualProbeWhileTheHealthChecksAnswer() throws Exception {
        URI base = container.baseUri();
        Map<String, String> endpoints = Map.of("virtual", "/probe/virtual", "health-live", "/q/health/live", "health-ready", "/q/health/ready");
        try (Probes probes = Probes.start(base, endpoints, Map.of("virtual", 10.0, "health-live", 5.0, "health-ready", 5.0), Duration.ofSeconds(30))) {
            try (ClosedLoad warmUp = ClosedLoad.start(base.resolve("/work/pinned?ms=20&downstream=sleep"), 4, Duration.ofSeconds(30))) {
                Machine.pause(Duration.ofSeconds(2));
            }
            probes.nextWindow();
            Machine.pause(Duration.ofSeconds(3));
            Probes.Window idle = probes.nextWindow();
            ClosedLoad.Result load;
            try (ClosedLoad pinned = ClosedLoad.start(base.resolve("/work/pinned?ms=100&downstream=sleep"), 16, Duration.ofSeconds(60))) {
                Machine.pause(Duration.ofSeconds(6));
                load = pinned.stop(Duration.ofSeconds(5));
            }
            Machine.pause(Duration.ofSeconds(1));
            Probes.Window loaded = probes.nextWindow();

            Latencies virtual = loaded.latencies().get("virtual");
            System.out.printf("container, pinned ms=100 at %d CPU: %.2f/s against %.1f/s; virtual p50 %.1f ms (idle %.1f), live p99 %.1f ms,"
                    + " ready p99 %.1f ms%n", CPUS, load.throughput(), CPUS * 10.0, virtual.percentileMillis(50),
                    idle.latencies().get("virtual").percentileMillis(50), loaded.latencies().get("health-live").percentileMillis(99),
                    loaded.latencies().get("health-ready").percentileMillis(99));
            System.out.println("container memory after the load: " + memory());
            assertThat(RULE.starved(virtual.percentileMillis(RULE.percentile()),
                    idle.latencies().get("virtual").percentileMillis(RULE.percentile()))).as("starved, by the plan's rule").isTrue();
            assertThat(load.throughput()).as("carriers ÷ wait").isBetween(0.8 * CPUS * 10, 1.2 * CPUS * 10);
            for (String health : List.of("health-live", "health-ready")) {
                Latencies answers = loaded.latencies().get(health);
                assertThat(answers.count()).isPositive();
                assertThat(answers.failed()).as(health + " answered, and UP").isZero();
                assertThat(answers.percentileMillis(99)).as(health + " p99, ms, while the carriers starve").isLessThan(1_000);
            }
        }
        ServiceConditions.assertNoEventLoopBlocked(container.log().toString(), container.logText());
    }

    /**
     * Builds the image from the project's sources, on Debian-made bases, and copies its {@code /deployments} out to
     * {@link #DEPLOYMENTS}.
     *
     * @return what the build cost, for the test's output
     */
    private static String build(Path project) throws IOException {
        long start = System.nanoTime();
        ChildProcess.Result bases = ChildProcess.of(project.resolve("src/service/src/main/docker/debian-bases").toString(), "build-jdk25", "runtime-jdk21")
                .run(Duration.ofMinutes(15));
        assertThat(bases.exitCode()).as("debian-bases:%n%s", bases.output()).isZero();
        List<String> buildArgs = bases.output().lines().filter(line -> line.endsWith("# Dockerfile.jvm")).findFirst()
                .map(line -> List.of(line.replaceAll("\\s+#.*$", "").split("\\s+"))).orElseThrow();
        double basesSeconds = seconds(start);

        start = System.nanoTime();
        // no layer cache: the sources differ on every run, and each run's layers would stay behind; Maven's
        // repository stays in the build's cache mount (/root/.m2), so only the first build downloads
        List<String> build = new ArrayList<>(List.of("build", "--layers=false"));
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
        List<String> command = new ArrayList<>(ENGINE);
        command.addAll(build);
        ChildProcess.Result result = ChildProcess.of(command).in(project).run(Duration.ofMinutes(20));
        Files.createDirectories(Project.testLogs());
        Files.writeString(Project.testLogs().resolve("container-image-build.log"), result.output());
        List<String> lines = result.output().lines().toList();
        assertThat(result.exitCode()).as("%s:%n%s", String.join(" ", command),
                String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()))).isZero();
        // /deployments, through a container that is created and never started
        ChildProcess.of("rm", "-rf", DEPLOYMENTS.toString()).run(Duration.ofMinutes(1));
        Files.createDirectories(DEPLOYMENTS.getParent());
        ChildProcess.Result created = engine(List.of("create", "--name", CONTAINER, IMAGE));
        assertThat(created.exitCode()).as(created.output()).isZero();
        ChildProcess.Result copied = engine(List.of("cp", CONTAINER + ":/deployments", DEPLOYMENTS.toString()));
        engine(List.of("rm", "--force", CONTAINER));
        assertThat(copied.exitCode()).as(copied.output()).isZero();
        return String.format("bases %.1f s, build %.1f s", basesSeconds, seconds(start));
    }

    /** The service's peak and current resident memory, from the kernel's view of the container's process. */
    private static String memory() throws IOException {
        String pid = engine(List.of("inspect", "--format", "{{.State.Pid}}", CONTAINER)).output().trim();
        return Files.readAllLines(Path.of("/proc", pid, "status")).stream().filter(line -> line.matches("Vm(HWM|RSS):.*"))
                .map(line -> line.replaceAll("\\s+", " ")).toList() + " of a " + (MEMORY >> 20) + " MiB limit";
    }

    private static synchronized void remove() {
        engine(List.of("rm", "--force", "--time", "10", CONTAINER, NO_DATABASE));
        engine(List.of("rmi", "--ignore", IMAGE));
    }

    /** {@code run} with the machine's limits, then {@code options}: the image and its arguments last. */
    private static List<String> run(String... options) {
        return Stream.of(List.of("run"), LIMITS, List.of(options)).flatMap(List::stream).toList();
    }

    private static ChildProcess.Result engine(List<String> arguments) {
        List<String> command = new ArrayList<>(ENGINE);
        command.addAll(arguments);
        return ChildProcess.of(command).run(Duration.ofMinutes(2));
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
