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
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.junit.Needs;
import io.starvationlab.harness.junit.Servers;

/**
 * The packaged service inside a real CPU quota of one CPU, started in a cgroup as a container's CPU
 * limit starts it, with no {@code -XX:ActiveProcessorCount}: what {@code /lab/info} reads of the quota is
 * what HotSpot itself reports, and the group goes with what runs in it. That the JVM then runs one carrier
 * per CPU of the quota and carrier-bound work at quota ÷ wait is the experiment's finding
 * {@code container-cpu-limit-sets-carriers} (ExperimentQuickIT). Needs root (or {@code LAB_CGROUP_PARENT}
 * naming a group delegated to the user): elsewhere it is skipped with the reason, and fails in CI.
 */
class CpuQuotaIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    /** One CPU: below the machine's two, so the carriers can only come from the quota; {@code -Dlab.quota.cpus} for another. */
    static final int CPUS = Integer.getInteger("lab.quota.cpus", 1);

    static LabServer server;

    @BeforeAll
    static void startInsideAQuota() {
        System.out.println("CPU quota here: " + CpuQuota.unavailableReason().orElse("available"));
        try {
            server = servers.labInCpuQuota(CPUS, Map.of(), "cpu-quota-" + CPUS);
        } catch (CpuQuota.Unavailable e) {
            Needs.skip(Needs.missingInCi("No CPU quota can be set here: " + e.getMessage()));
        }
    }

    @AfterAll
    static void theQuotaGoesWithTheServer() {
        if (server != null) {
            server.close();
            assertThat(server.cpuQuota().orElseThrow().group()).as("the quota's group, removed with the server").doesNotExist();
        }
    }

    /** What /lab/info reads from the cgroup files is what HotSpot itself reports for a group of the same quota. */
    @Test
    void labInfoShouldAgreeWithTheJvmsOwnReport() {
        String settings;
        try (CpuQuota sameQuota = CpuQuota.create(CPUS)) {
            ChildProcess.Result result = ChildProcess.of(sameQuota.wrap(List.of(Jdks.current().launcher().toString(), "-XshowSettings:system",
                    "-version"))).run(Duration.ofSeconds(30));
            assertThat(result.exitCode()).as(result.output()).isZero();
            settings = result.output();
        }
        assertThat(server.cpuQuota().orElseThrow().pids()).as("the server JVM is in the group").contains(server.pid());
        JsonNode info = new LabClient(server.baseUri()).info();
        assertThat(info.path("jvmArguments").toString()).doesNotContain("ActiveProcessorCount");
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

    /** A group outlives nothing it started: what still runs in it is ended, and a group whose program died goes too. */
    @Test
    void closingAQuotaShouldEndWhatRunsInItAndRemoveIt() throws Exception {
        CpuQuota quota = CpuQuota.create(CPUS);
        Process died = new ProcessBuilder(quota.wrap(List.of("sleep", "300"))).start();
        Process left = new ProcessBuilder(quota.wrap(List.of("sleep", "300"))).start();
        Machine.pause(Duration.ofMillis(300));
        assertThat(quota.pids()).contains(died.pid(), left.pid());
        died.destroyForcibly().waitFor();

        quota.close();

        assertThat(left.waitFor(10, TimeUnit.SECONDS)).as("ended with its group").isTrue();
        assertThat(quota.group()).doesNotExist();
    }

}
