package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.ServiceConditions;
import io.starvationlab.harness.Needs;
import io.starvationlab.harness.Project;

/**
 * The diagnosis, itself run on JDK 21, attached by pid to the packaged service on JDK 21, where
 * {@code synchronized} pins and the JVM offers no scheduler MXBean and thread dumps without states. JDK 21
 * comes from {@link Needs#jdk(int)}: missing, the class fails in CI and is skipped elsewhere.
 */
class DiagnoseLabJdk21IT {

    static Jdks.Jdk jdk21;
    static LabServer server;

    @BeforeAll
    static void start() {
        jdk21 = Needs.jdk(21);
        server = LabServer.start(jdk21, List.of(), Map.of(), Project.testLogs(), "diagnose-jdk21");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void noEventLoopBlocked() {
        ServiceConditions.assertNoEventLoopBlocked(server);
    }

    @Test
    void pinnedLoadIsStarvationPinnedInTheMonitor() {
        Diagnosis diagnosis = Diagnosis.underLoad(server.uri("/work/pinned?ms=100&downstream=sleep"), jdk21, "--pid", String.valueOf(server.pid()),
                "--skip", DiagnoseLabIT.LAB_CLIENTS);

        assertThat(diagnosis.exitCode()).as(diagnosis.text()).isEqualTo(1);
        assertThat(diagnosis.cause()).as(diagnosis.summary()).isEqualTo("PINNED");
        assertThat(diagnosis.frame()).isEqualTo("io.starvationlab.service.WorkService.callInsideMonitor");
        assertThat(diagnosis.inferredWaitMillis()).as(diagnosis.waitBasis()).isGreaterThanOrEqualTo(500);
        assertThat(diagnosis.visibility()).as("what JDK 21 does not show")
                .anyMatch(line -> line.startsWith("no the scheduler's queue"))
                .anyMatch(line -> line.startsWith("no thread states"))
                .anyMatch(line -> line.startsWith("no why a thread pinned"));
    }

    @Test
    void unpinnedLoadIsNotStarvation() {
        Diagnosis diagnosis = Diagnosis.underLoad(server.uri("/work/unpinned?ms=100&downstream=sleep"), jdk21, "--pid", String.valueOf(server.pid()),
                "--skip", DiagnoseLabIT.LAB_CLIENTS);

        assertThat(diagnosis.exitCode()).as(diagnosis.text()).isZero();
        assertThat(diagnosis.cause()).isEqualTo("NONE");
    }
}
