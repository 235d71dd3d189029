package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.CpuQuota;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Needs;
import io.starvationlab.harness.ServerJdk;
import io.starvationlab.harness.Servers;
import io.starvationlab.harness.ServiceConditions;
import io.starvationlab.harness.load.PhaseResult;
import io.starvationlab.harness.load.PhaseRunner;

/**
 * The packaged service inside a real CPU quota of one CPU, started in a cgroup as a container's CPU
 * limit starts it, with no {@code -XX:ActiveProcessorCount}: the JVM reads the quota, reports it, and
 * runs as many carriers as the quota gives CPUs; carrier-bound work then runs at quota ÷ wait. Needs
 * root (or {@code LAB_CGROUP_PARENT} naming a group delegated to the user): elsewhere it is skipped
 * with the reason, and fails in CI.
 */
class CpuQuotaIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    /** One CPU: below the machine's two, so the carriers can only come from the quota; {@code -Dlab.quota.cpus} for another. */
    static final int CPUS = Integer.getInteger("lab.quota.cpus", 1);
    static final Duration WAIT = Duration.ofMillis(100);
    static final int CONCURRENCY = 16;

    static LabServer server;
    static PhaseRunner phases;
    static ServerJdk jdk;

    @BeforeAll
    static void startInsideAQuota() {
        System.out.println("CPU quota here: " + CpuQuota.unavailableReason().orElse("available"));
        try {
            server = servers.labInCpuQuota(CPUS, Map.of(), "cpu-quota-" + CPUS);
        } catch (CpuQuota.Unavailable e) {
            Needs.skip(Needs.missingInCi("No CPU quota can be set here: " + e.getMessage()));
        }
        phases = servers.keep(new PhaseRunner(server));
        jdk = ServerJdk.of(phases.lab());
    }

    @AfterAll
    static void theQuotaGoesWithTheServer() {
        if (server != null) {
            server.close();
            assertThat(server.cpuQuota().orElseThrow().group()).as("the quota's group, removed with the server").doesNotExist();
        }
    }

    @Test
    void theJvmShouldSeeTheQuotaAndRunOneCarrierPerCpu() {
        CpuQuota quota = server.cpuQuota().orElseThrow();
        assertThat(quota.pids()).as("the server JVM is in the group").contains(server.pid());
        JsonNode info = phases.lab().info();
        assertThat(info.path("jvmArguments").toString()).doesNotContain("ActiveProcessorCount");
        assertThat(info.path("cpuQuotaMicros").asLong()).isEqualTo(CPUS * CpuQuota.PERIOD_MICROS);
        assertThat(info.path("cpuPeriodMicros").asLong()).isEqualTo(CpuQuota.PERIOD_MICROS);
        assertThat(info.path("effectiveCpuCount").asInt()).isEqualTo(CPUS);
        assertThat(info.path("availableProcessors").asInt()).isEqualTo(CPUS);
        assertThat(info.path("carrierParallelism").asInt()).as("carriers = the quota's CPUs").isEqualTo(CPUS);
        if (CPUS < 2) {
            // one CPU is never a "server class machine": the JVM picks Serial, as it would in a pod this size
            assertThat(info.path("garbageCollector").asText()).isEqualTo("Serial");
        }
        System.out.printf("quota %d CPU: /lab/info cgroup %s, quota %d us / period %d us, effective CPUs %d, processors %d, carriers %d, GC %s%n",
                CPUS, info.path("cgroupVersion").asText(), info.path("cpuQuotaMicros").asLong(), info.path("cpuPeriodMicros").asLong(),
                info.path("effectiveCpuCount").asInt(), info.path("availableProcessors").asInt(), info.path("carrierParallelism").asInt(),
                info.path("garbageCollector").asText());
    }

    /** What /lab/info reads from the cgroup files is what HotSpot itself reports for the same group. */
    @Test
    void labInfoShouldAgreeWithTheJvmsOwnReport() {
        String settings;
        try (CpuQuota sameQuota = CpuQuota.create(CPUS)) {
            ChildProcess.Result result = ChildProcess.of(sameQuota.wrap(List.of(Jdks.current().launcher().toString(), "-XshowSettings:system",
                    "-version"))).run(Duration.ofSeconds(30));
            assertThat(result.exitCode()).as(result.output()).isZero();
            settings = result.output();
        }
        JsonNode info = phases.lab().info();
        int machine = Runtime.getRuntime().availableProcessors();
        if (CPUS >= machine) {
            // HotSpot reports a container only when one of its limits is below the machine's
            assertThat(settings).contains("System not containerized");
            assertThat(info.path("effectiveCpuCount").asInt()).isEqualTo(machine);
            return;
        }
        assertThat(settings).as("java -XshowSettings:system in a group of the same quota")
                .contains("Provider: cgroup" + info.path("cgroupVersion").asText())
                .contains("Effective CPU Count: " + info.path("effectiveCpuCount").asInt())
                .contains("CPU Period: " + info.path("cpuPeriodMicros").asLong() + "us")
                .contains("CPU Quota: " + info.path("cpuQuotaMicros").asLong() + "us");
    }

    /**
     * A mode that holds its carrier while it waits (native; pinned on JDK 21) and uses almost no CPU, so
     * the quota's one CPU is not what limits it: its carriers are. Model: carriers ÷ wait.
     */
    @Test
    void carrierBoundWorkShouldRunAtQuotaOverWait() throws Exception {
        String mode = jdk.hasFfm() ? "native" : "pinned";
        String work = "/work/" + mode + "?ms=" + WAIT.toMillis() + "&downstream=sleep";
        // the same load first: a fresh JVM compiles its hot paths, and within one CPU the compiler's
        // time is the carriers' time
        phases.run("warm-up", work, CONCURRENCY, Duration.ofSeconds(4), Duration.ofSeconds(1));
        PhaseResult idle = phases.baseline("idle", Duration.ofSeconds(3), Duration.ofMillis(500));
        CpuQuota.Throttling before = server.cpuQuota().orElseThrow().throttling();
        PhaseResult load = phases.run(mode, work, CONCURRENCY, Duration.ofSeconds(6), Duration.ofSeconds(1));
        CpuQuota.Throttling throttled = server.cpuQuota().orElseThrow().throttling().since(before);
        StarvationIT.report(load);
        System.out.printf("quota %d CPU during the load: throttled in %d of %d periods, %.0f ms in all%n", CPUS, throttled.throttledPeriods(),
                throttled.periods(), throttled.throttledMillis());

        double model = CPUS * 1000.0 / WAIT.toMillis();
        System.out.printf("quota %d CPU, %s ms=%d: %.2f/s against the model %.1f/s (%.1f %%)%n", CPUS, mode, WAIT.toMillis(), load.throughput(),
                model, 100 * (load.throughput() / model - 1));
        assertThat(load.throughput()).as("%s at quota %d ÷ %d ms", mode, CPUS, WAIT.toMillis()).isBetween(0.9 * model, 1.1 * model);
        StarvationIT.assertStarved(true, load, idle);
        ServiceConditions.assertNoEventLoopBlocked(server);
    }

    /** A group outlives nothing it started: what still runs in it is ended, and a group whose program died goes too. */
    @Test
    void closingAQuotaShouldEndWhatRunsInItAndRemoveIt() throws Exception {
        CpuQuota quota = CpuQuota.create(CPUS);
        Process died = new ProcessBuilder(quota.wrap(List.of("sleep", "300"))).start();
        Process left = new ProcessBuilder(quota.wrap(List.of("sleep", "300"))).start();
        LabServer.sleep(Duration.ofMillis(300));
        assertThat(quota.pids()).contains(died.pid(), left.pid());
        died.destroyForcibly().waitFor();

        quota.close();

        assertThat(left.waitFor(10, TimeUnit.SECONDS)).as("ended with its group").isTrue();
        assertThat(quota.group()).doesNotExist();
    }

}
