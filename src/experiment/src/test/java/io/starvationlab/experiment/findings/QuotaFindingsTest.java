package io.starvationlab.experiment.findings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.results.PhaseReport;
import io.starvationlab.experiment.results.QuotaReport;
import io.starvationlab.harness.CpuQuota;

/** The CPU-quota finding, judged on made-up server JVMs: carriers from the quota, carrier-bound work at quota ÷ wait. */
class QuotaFindingsTest {

    @Test
    void shouldHoldWhenEachQuotaSetsTheCarriersAndTheThroughput() {
        Finding finding = QuotaFindings.evaluate(report(server("quota-1-cpu", 1, 1, 9.8), server("quota-2-cpus", 2, 2, 19.2)));
        assertThat(finding.id()).isEqualTo("container-cpu-limit-sets-carriers");
        assertThat(finding.holds()).as(finding.measured()).isTrue();
        assertThat(finding.measured()).contains("quota-1-cpu: quota 100000 / 100000 us, 1 processors, 1 carriers",
                "native-quota-1-cpu 9.8/s vs 10.0/s (-2.0 %)", "the machine's 2 processors");
    }

    /** The broken fixture: -XX:ActiveProcessorCount=4 left on the command line, so the carriers are not the quota's. */
    @Test
    void shouldFailWhenTheCarriersAreNotTheQuotas() {
        Finding finding = QuotaFindings.evaluate(report(server("quota-1-cpu", 1, 4, 9.8)));
        assertThat(finding.holds()).isFalse();
    }

    @Test
    void shouldFailWhenCarrierBoundWorkMissesTheModelByMoreThanTenPercent() {
        assertThat(QuotaFindings.evaluate(report(server("quota-1-cpu", 1, 1, 8.9))).holds()).isFalse();
        assertThat(QuotaFindings.evaluate(report(server("quota-1-cpu", 1, 1, 11.1))).holds()).isFalse();
        assertThat(QuotaFindings.evaluate(report(server("quota-1-cpu", 1, 1, 9.1))).holds()).isTrue();
    }

    @Test
    void shouldFailWhenTheJvmDoesNotSeeTheQuota() {
        QuotaReport.Server blind = new QuotaReport.Server("quota-1-cpu", 1, "v1", null, null, 2, 1, 1, "G1", true, null,
                List.of(carrierBound("native-quota-1-cpu", 1, 9.9)));
        assertThat(QuotaFindings.evaluate(report(blind)).holds()).isFalse();
    }

    /** Only a cpu phase ran: the carriers are judged, the throughput is not, so the finding is not judged unless the carriers are wrong. */
    @Test
    void shouldJudgeTheCarriersAloneOnlyToFailThem() {
        QuotaReport.Phase cpu = new QuotaReport.Phase("cpu-quota-1-cpu", "cpu", 100, 16, false, 9.5, 10, throttling(), 1400, 2000, 1500,
                90, 90, 90, PhaseReport.STARVED);
        assertThat(QuotaFindings.evaluate(report(withPhases(1, 1, cpu))).holds()).isNull();
        assertThat(QuotaFindings.evaluate(report(withPhases(1, 4, cpu))).holds()).isFalse();
    }

    @Test
    void shouldSayWhyWhereNoQuotaCanBeSet() {
        Finding finding = QuotaFindings.evaluate(new QuotaReport("Cannot make a cgroup under /sys/fs/cgroup/cpu: run as root",
                List.of("server JVM quota-1-cpu (no CPU quota can be set here: ...)"), 2, List.of()));
        assertThat(finding.holds()).isNull();
        assertThat(finding.measured()).contains("no CPU quota can be set here", "run as root");
    }

    @Test
    void shouldNotJudgeARunWithoutQuotas() {
        assertThat(QuotaFindings.evaluate(new QuotaReport(null, List.of(), 2, List.of())).holds()).isNull();
        assertThat(QuotaFindings.evaluate(new QuotaReport(null, List.of("server JVM quota-4-cpus (a quota of 4 CPUs needs as many"
                + " processors; this machine has 2)"), 2, List.of())).measured()).contains("quota-4-cpus");
    }

    private static QuotaReport report(QuotaReport.Server... servers) {
        return new QuotaReport(null, List.of(), 2, List.of(servers));
    }

    private static QuotaReport.Server server(String jvm, int cpus, int carriers, double throughput) {
        return withPhases(jvm, cpus, carriers, carrierBound("native-" + jvm, cpus, throughput));
    }

    private static QuotaReport.Server withPhases(int cpus, int carriers, QuotaReport.Phase... phases) {
        return withPhases("quota-" + cpus, cpus, carriers, phases);
    }

    private static QuotaReport.Server withPhases(String jvm, int cpus, int carriers, QuotaReport.Phase... phases) {
        return new QuotaReport.Server(jvm, cpus, "v1", cpus * CpuQuota.PERIOD_MICROS, CpuQuota.PERIOD_MICROS, cpus, carriers,
                carriers, cpus < 2 ? "Serial" : "G1", cpus < 2, throttling(), List.of(phases));
    }

    private static QuotaReport.Phase carrierBound(String name, int cpus, double throughput) {
        return new QuotaReport.Phase(name, "native", 100, 16, true, throughput, cpus * 10.0, throttling(), 700, 1500, 1500, 20, 20, 20,
                PhaseReport.STARVED);
    }

    private static CpuQuota.Throttling throttling() {
        return new CpuQuota.Throttling(70, 2, 40);
    }
}
