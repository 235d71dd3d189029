package io.starvationlab.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.JudgedQuota;
import io.starvationlab.experiment.results.MadeUp;
import io.starvationlab.experiment.results.UnrelatedWait;
import io.starvationlab.harness.CpuQuota;

/** Sections of {@code report.md} on made-up figures: a row per run or phase, and why nothing ran where nothing could. */
class ReportTextTest {

    @Test
    void theColdStartsShouldHaveARowPerRunWithWhereTheEventLoopWaited() {
        String md = ReportText.coldStarts(List.of(MadeUp.lazy(1, MadeUp.STALL), MadeUp.eager(1, 12.5, 1.2, 0.8)));
        assertThat(md).contains("## A fresh JVM starved at once", "native work of 1 s",
                "| 1 | lazy | 4.2 s | 7 | 7.60 s | 7900 / 2.0 | 7900 / 1.0 | 40 x 400 | 7800 / - | vert.x-eventloop-thread-0: "
                        + "`io.quarkus.arc.impl.ContextInstances.computeIfAbsent(Unknown Source)` ← `io.starvationlab.rest.ProblemResponses_ClientProxy.end(Unknown Source)`"
                        + " ← `io.starvationlab.rest.WorkInput.read(WorkInput.java:57)` |",
                "| 1 | eager | 4.1 s | 0 | - | 11.2 / 1.2 | 10.8 / 0.8 | 40 x 400 | 22.5 / 12.5 | - |");
        assertThat(ReportText.coldStarts(List.of())).isEmpty();
    }

    @Test
    void theQuotaShouldSayWhyWhereNoneCanBeSet() {
        String md = ReportText.quota(new JudgedQuota("Cannot make a cgroup under /sys/fs/cgroup/cpu (AccessDeniedException): run as root",
                List.of("server JVM quota-1-cpu (no CPU quota can be set here: ...)"), 2, List.of()));
        assertThat(md).contains("## Inside a CPU quota", "Not measured: no CPU quota can be set here (Cannot make a cgroup", "run as root",
                "`CI=true`");
        assertThat(ReportText.quota(new JudgedQuota(null, List.of(), 2, List.of()))).as("no quota in the plan").isEmpty();
    }

    @Test
    void theQuotaShouldShowEachServerAndPhaseAndSayWhereTheQuotaIsTheMachines() {
        CpuQuota.Throttling throttling = new CpuQuota.Throttling(87, 3, 22);
        JudgedPhase one = MadeUp.phase("native-quota-1-cpu", UnrelatedWait.of(1562, 1500, 12, List.of(new UnrelatedWait.Probe(1, 793, 200, "0", 12))));
        JudgedPhase two = MadeUp.phase("native-quota-2-cpus", "native", "carriers", 19.5, 20, 677, JudgedPhase.STARVED);
        String md = ReportText.quota(new JudgedQuota(null, List.of("server JVM quota-4-cpus (a quota of 4 CPUs needs as many processors;"
                + " this machine has 2)"), 2, List.of(MadeUp.quotaServer("quota-1-cpu", 1, 1, throttling, new JudgedQuota.Phase(one, true, 10, throttling)),
                        MadeUp.quotaServer("quota-2-cpus", 2, 2, null, new JudgedQuota.Phase(two, true, 20, throttling)))));
        assertThat(md).contains("| quota-1-cpu | 1 CPU | 100000 / 100000 | v1 | 1 | 1 | 1 | Serial | 3 of 87 periods (22 ms) |",
                "| native-quota-1-cpu | native (carrier-bound) | 100 x 64 | 40.0 | 10.0 | 4.00x | 3 of 87 periods (22 ms) | 793 / 1586 | 1562 |"
                        + " 30.0 / 30.0 / 30.0 | starved |",
                "- Not run: server JVM quota-4-cpus", "quota-2-cpus: a quota of 2 CPUs on this machine's 2 processors", "System not containerized");
        assertThat(md).doesNotContain("quota-1-cpu: a quota of");
    }
}
