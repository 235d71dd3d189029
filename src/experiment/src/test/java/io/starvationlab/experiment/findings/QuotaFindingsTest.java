package io.starvationlab.experiment.findings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.JudgedQuota;
import io.starvationlab.experiment.results.MadeUp;
import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.harness.CpuQuota;

/** The CPU-quota finding, judged on made-up server JVMs: carriers from the quota, carrier-bound work at quota ÷ wait. */
class QuotaFindingsTest {

    private static final CpuQuota.Throttling THROTTLING = new CpuQuota.Throttling(70, 2, 40);

    @Test
    void shouldHoldWhenEachQuotaSetsTheCarriersAndTheThroughput() {
        Finding finding = QuotaFindings.evaluate(report(server("quota-1-cpu", 1, 1, 9.8), server("quota-2-cpus", 2, 2, 19.2)));
        assertThat(finding.id()).isEqualTo("container-cpu-limit-sets-carriers");
        assertThat(finding.holds()).as(finding.measured()).isTrue();
        assertThat(finding.measured()).contains("quota-1-cpu: quota 100000 / 100000 us, 1 processors, 1 carriers",
                "native-quota-1-cpu 9.8/s vs 10.0/s (-2.0 %)", "the machine's 2 processors");
    }

    /** The broken fixtures: -XX:ActiveProcessorCount=4 left on the command line, so the carriers are not the quota's; a throughput off by over 10 %. */
    @ParameterizedTest
    @CsvSource({ "4, 9.8, false", "1, 8.9, false", "1, 11.1, false", "1, 9.1, true" })
    void shouldFailWhenTheCarriersAreNotTheQuotasOrCarrierBoundWorkMissesTheModelByMoreThanTenPercent(int carriers, double throughput, boolean holds) {
        assertThat(QuotaFindings.evaluate(report(server("quota-1-cpu", 1, carriers, throughput))).holds()).isEqualTo(holds);
    }

    @Test
    void shouldFailWhenTheJvmDoesNotSeeTheQuota() {
        MeasuredServer.Info blind = MadeUp.info("quota-1-cpu", 1, 1, null, new MeasuredServer.Info.Container("v1", null, null, 2, "G1"));
        assertThat(QuotaFindings.evaluate(report(new JudgedQuota.Server("quota-1-cpu", 1, blind, true, null,
                List.of(carrierBound("native-quota-1-cpu", 1, 9.9))))).holds()).isFalse();
    }

    /** Only a cpu phase ran: the carriers are judged, the throughput is not, so the finding is not judged unless the carriers are wrong. */
    @Test
    void shouldJudgeTheCarriersAloneOnlyToFailThem() {
        JudgedQuota.Phase cpu = new JudgedQuota.Phase(MadeUp.phase("cpu-quota-1-cpu", "cpu", "carriers", 9.5, 10, 1400, JudgedPhase.STARVED), false,
                10, THROTTLING);
        assertThat(QuotaFindings.evaluate(report(MadeUp.quotaServer("quota-1", 1, 1, THROTTLING, cpu))).holds()).isNull();
        assertThat(QuotaFindings.evaluate(report(MadeUp.quotaServer("quota-1", 1, 4, THROTTLING, cpu))).holds()).isFalse();
    }

    @Test
    void shouldNotJudgeWithoutQuotasAndSayWhy() {
        Finding finding = QuotaFindings.evaluate(new JudgedQuota("Cannot make a cgroup under /sys/fs/cgroup/cpu: run as root",
                List.of("server JVM quota-1-cpu (no CPU quota can be set here: ...)"), 2, List.of()));
        assertThat(finding.holds()).isNull();
        assertThat(finding.measured()).contains("no CPU quota can be set here", "run as root");
        assertThat(QuotaFindings.evaluate(new JudgedQuota(null, List.of(), 2, List.of())).holds()).isNull();
        assertThat(QuotaFindings.evaluate(new JudgedQuota(null, List.of("server JVM quota-4-cpus (a quota of 4 CPUs needs as many"
                + " processors; this machine has 2)"), 2, List.of())).measured()).contains("quota-4-cpus");
    }

    private static JudgedQuota report(JudgedQuota.Server... servers) {
        return new JudgedQuota(null, List.of(), 2, List.of(servers));
    }

    private static JudgedQuota.Server server(String jvm, int cpus, int carriers, double throughput) {
        return MadeUp.quotaServer(jvm, cpus, carriers, THROTTLING, carrierBound("native-" + jvm, cpus, throughput));
    }

    private static JudgedQuota.Phase carrierBound(String name, int cpus, double throughput) {
        return new JudgedQuota.Phase(MadeUp.phase(name, "native", "carriers", throughput, cpus * 10.0, 700, JudgedPhase.STARVED), true, cpus * 10.0,
                THROTTLING);
    }
}
