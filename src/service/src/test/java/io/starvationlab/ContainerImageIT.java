package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Project;
import io.starvationlab.harness.ServiceConditions;
import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.harness.load.Latencies;
import io.starvationlab.harness.load.Probes;
import io.starvationlab.harness.plan.Plan;
import io.starvationlab.harness.plan.StarvationRule;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The JDK 21 image ({@code src/service/src/main/docker/Dockerfile.jvm}) built and run in a real container, as a
 * pod runs it: podman as root with runc, on base images made from Debian's packages
 * ({@code src/service/src/main/docker/debian-bases}, cached outside the repository), the pod's limits scaled to
 * this machine ({@code --cpus=1 --memory=1g}: 1 CPU of its 2, as the pod's 4 are of a bigger node),
 * its security context (read-only root, user 185, no capabilities), a PostgreSQL beside it on the
 * host network. The JVM must take its carriers from the CPU limit and read the memory limit, run the
 * image's collector, starve under pinned load and keep answering its health checks. Needs podman,
 * mmdebstrap and root; where one is missing it is skipped with the reason, and fails in CI.
 */
class ContainerImageIT {

    static final String IMAGE = ContainerImage.IMAGE;
    static final String CONTAINER = "starvation-lab-it-" + ProcessHandle.current().pid();
    static final int CPUS = 1;
    static final long MEMORY = 1L << 30;
    static final List<String> LIMITS = ContainerImage.LIMITS;
    static final StarvationRule RULE = Plan.ofProject().starved();

    static Path project;
    static EmbeddedPostgres database;
    static LabClient lab;
    static int port;
    static Thread removeAtExit;
    static boolean engineReady;

    @BeforeAll
    static void buildAndRunTheImage() throws IOException {
        project = Project.root();
        ContainerImage.require();
        engineReady = true;
        String built = ContainerImage.build(project);

        Path data = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "container-image-pg-");
        database = EmbeddedPostgres.builder().setPort(LabServer.freePort()).setDataDirectory(data).start();
        port = LabServer.freePort();
        long start = System.nanoTime();
        removeAtExit = new Thread(ContainerImageIT::removeContainer, "remove-" + CONTAINER);
        Runtime.getRuntime().addShutdownHook(removeAtExit);
        List<String> run = new ArrayList<>(ContainerImage.ENGINE);
        run.addAll(List.of("run", "-d", "--name", CONTAINER));
        run.addAll(LIMITS);
        run.addAll(List.of("--cpus=" + CPUS, "--memory=" + MEMORY,
                // the pod's securityContext: read-only root (a tmpfs /tmp as its emptyDir), user 185, no capabilities
                "--read-only", "--tmpfs", "/tmp:rw,size=1g", "--user", "185:185", "--cap-drop=ALL", "--security-opt=no-new-privileges",
                "-e", "QUARKUS_HTTP_PORT=" + port,
                "-e", "QUARKUS_DATASOURCE_JDBC_URL=jdbc:postgresql://localhost:" + database.getPort() + "/postgres",
                "-e", "QUARKUS_DATASOURCE_USERNAME=postgres", "-e", "QUARKUS_DATASOURCE_PASSWORD=trust-auth-ignores-it",
                "-e", "LAB_EMBEDDED_POSTGRES_ENABLED=false", IMAGE));
        ChildProcess.Result started = ChildProcess.of(run).run(Duration.ofMinutes(2));
        assertThat(started.exitCode()).as("%s:%n%s", String.join(" ", run), started.output()).isZero();
        lab = new LabClient(URI.create("http://localhost:" + port));
        awaitReady(Duration.ofSeconds(120));
        System.out.printf("container image: %s, ready %.1f s after run%n", built, seconds(start));
    }

    @AfterAll
    static void stop() throws IOException {
        if (removeAtExit != null) {
            Files.writeString(Project.testLogs().resolve("container-image.log"), ContainerImage.engine(List.of("logs", CONTAINER)).output());
            removeContainer();
            Runtime.getRuntime().removeShutdownHook(removeAtExit);
        }
        if (engineReady) {
            ContainerImage.remove();
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
        assertThat(lab.metrics().sum("lab_container_memory_limit_bytes", s -> true)).hasValue((double) MEMORY);
    }

    /** What the pods' limits would give without the image's flag: Serial, for the memory alone (2 CPUs here). */
    @Test
    void withoutTheImagesFlagTheJvmWouldPickSerialAtThePodsMemoryLimit() {
        List<String> command = new ArrayList<>(List.of("run", "--rm"));
        command.addAll(LIMITS);
        command.addAll(List.of("--cpus=2", "--memory=" + MEMORY, "--entrypoint", "java", IMAGE, "-XX:+PrintFlagsFinal", "-version"));
        ChildProcess.Result flags = ContainerImage.engine(command);
        assertThat(flags.exitCode()).as(flags.output()).isZero();
        assertThat(flags.output()).containsPattern("bool UseSerialGC\\s+= true\\s+\\{product\\} \\{ergonomic\\}")
                .containsPattern("bool UseG1GC\\s+= false");
    }

    @Test
    void pinnedLoadShouldStarveTheVirtualProbeWhileTheHealthChecksAnswer() throws Exception {
        assertThat(lab.get("/work/unpinned?ms=10&downstream=db").statusCode()).as("a query through the PostgreSQL beside it").isEqualTo(200);
        URI base = URI.create("http://localhost:" + port);
        Map<String, String> endpoints = Map.of("virtual", "/probe/virtual", "health-live", "/q/health/live", "health-ready", "/q/health/ready");
        try (Probes probes = Probes.start(base, endpoints, Map.of("virtual", 10.0, "health-live", 5.0, "health-ready", 5.0), Duration.ofSeconds(30))) {
            try (ClosedLoad warmUp = ClosedLoad.start(base.resolve("/work/pinned?ms=20&downstream=sleep"), 4, Duration.ofSeconds(30))) {
                LabServer.sleep(Duration.ofSeconds(2));
            }
            probes.nextWindow();
            LabServer.sleep(Duration.ofSeconds(3));
            Probes.Window idle = probes.nextWindow();
            ClosedLoad.Result load;
            try (ClosedLoad pinned = ClosedLoad.start(base.resolve("/work/pinned?ms=100&downstream=sleep"), 16, Duration.ofSeconds(60))) {
                LabServer.sleep(Duration.ofSeconds(6));
                load = pinned.stop(Duration.ofSeconds(5));
            }
            LabServer.sleep(Duration.ofSeconds(1));
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
        ServiceConditions.assertNoEventLoopBlocked("the container's log", ContainerImage.engine(List.of("logs", CONTAINER)).output());
    }

    private static void awaitReady(Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            ChildProcess.Result state = ContainerImage.engine(List.of("inspect", "--format", "{{.State.Running}}", CONTAINER));
            if (!state.output().trim().equals("true")) {
                fail("The container stopped while starting:\n" + ContainerImage.engine(List.of("logs", CONTAINER)).output());
            }
            try {
                if (lab.get("/q/health/ready", Duration.ofSeconds(5)).statusCode() == 200) {
                    return;
                }
            } catch (RuntimeException e) {
                // not listening yet
            }
            LabServer.sleep(Duration.ofMillis(500));
        }
        fail("The container was not ready within " + bound + ":\n" + ContainerImage.engine(List.of("logs", CONTAINER)).output());
    }

    /** The service's peak and current resident memory, from the kernel's view of the container's process. */
    private static String memory() throws IOException {
        String pid = ContainerImage.engine(List.of("inspect", "--format", "{{.State.Pid}}", CONTAINER)).output().trim();
        String status = Files.readString(Path.of("/proc", pid, "status"));
        return "VmHWM " + field(status, "VmHWM") + ", VmRSS " + field(status, "VmRSS") + " of a " + (MEMORY >> 20) + " MiB limit";
    }

    private static String field(String status, String name) {
        Matcher matcher = Pattern.compile("^" + name + ":\\s+(\\d+) kB", Pattern.MULTILINE).matcher(status);
        return matcher.find() ? (Long.parseLong(matcher.group(1)) >> 10) + " MiB" : "?";
    }

    private static void removeContainer() {
        ContainerImage.engine(List.of("rm", "--force", "--time", "10", CONTAINER));
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

}
