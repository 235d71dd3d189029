package io.starvationlab.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.results.PhaseReport;
import io.starvationlab.experiment.results.QuotaReport;
import io.starvationlab.harness.CpuQuota;

/** The report's section on the quota: what each server saw, its phases beside the models, and why nothing ran where nothing could. */
class QuotaTextTest {

    @Test
    void shouldSayWhyWhereNoQuotaCanBeSet() {
        String md = QuotaText.markdown(new QuotaReport("Cannot make a cgroup under /sys/fs/cgroup/cpu (AccessDeniedException): run as root",
                List.of("server JVM quota-1-cpu (no CPU quota can be set here: ...)"), 2, List.of()));
        assertThat(md).contains("## Inside a CPU quota", "Not measured: no CPU quota can be set here (Cannot make a cgroup", "run as root",
                "`CI=true`");
    }

    @Test
    void shouldShowEachServerAndPhaseAndSayWhereTheQuotaIsTheMachines() {
        CpuQuota.Throttling throttling = new CpuQuota.Throttling(87, 3, 22);
        QuotaReport.Phase one = new QuotaReport.Phase("native-quota-1-cpu", "native", 100, 16, true, 9.6, 10, throttling, 793, 7418, 1562,
                95, 85, 62, PhaseReport.STARVED);
        QuotaReport.Phase two = new QuotaReport.Phase("native-quota-2-cpus", "native", 100, 16, true, 19.5, 20, throttling, 677, 914, 718,
                11, 12, 13, PhaseReport.STARVED);
        String md = QuotaText.markdown(new QuotaReport(null, List.of("server JVM quota-4-cpus (a quota of 4 CPUs needs as many processors;"
                + " this machine has 2)"), 2, List.of(
                        new QuotaReport.Server("quota-1-cpu", 1, "v1", 100_000L, 100_000L, 1, 1, 1, "Serial", true, throttling, List.of(one)),
                        new QuotaReport.Server("quota-2-cpus", 2, "v1", 200_000L, 100_000L, 2, 2, 2, "G1", false, null, List.of(two)))));
        assertThat(md).contains("| quota-1-cpu | 1 CPU | 100000 / 100000 | v1 | 1 | 1 | 1 | Serial | 3 of 87 periods (22 ms) |",
                "| native-quota-1-cpu | native (carrier-bound) | 100 x 16 | 9.6 | 10.0 | 0.96x | 3 of 87 periods (22 ms) | 793 / 7418 | 1562 |",
                "- Not run: server JVM quota-4-cpus", "quota-2-cpus: a quota of 2 CPUs on this machine's 2 processors", "System not containerized");
        assertThat(md).doesNotContain("quota-1-cpu: a quota of");
    }

    @Test
    void shouldSayNothingWhereThePlanHasNoQuota() {
        assertThat(QuotaText.markdown(new QuotaReport(null, List.of(), 2, List.of()))).isEmpty();
        assertThat(QuotaText.markdown(null)).isEmpty();
    }
}
