package io.starvationlab.experiment.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.CpuQuota;

/** A phase inside a quota beside its model: quota ÷ wait, and which loads that model is about. */
class QuotaReportTest {

    @Test
    void aNativePhaseShouldBeCarrierBoundAtTheQuotasCarriersOverItsWait() {
        QuotaReport.Phase phase = QuotaReport.phase(report("native", "carriers", 19.2), 2, new CpuQuota.Throttling(80, 4, 30));
        assertThat(phase.carrierBound()).isTrue();
        assertThat(phase.modelPerSecond()).isEqualTo(20.0);
        assertThat(phase.throughputToModel()).isEqualTo(0.96);
        assertThat(phase.throttledShare()).isEqualTo(0.05);
        assertThat(phase.virtualP50Millis()).isEqualTo(700);
        assertThat(phase.workerP99Millis()).isEqualTo(30);
    }

    /** cpu holds its carriers too, but by using their CPUs: the same model, and no part in the finding. */
    @Test
    void cpuWorkShouldHaveTheSameModelButNotCountAsCarrierBound() {
        QuotaReport.Phase phase = QuotaReport.phase(report("cpu", "carriers", 9.1), 1, null);
        assertThat(phase.carrierBound()).isFalse();
        assertThat(phase.modelPerSecond()).isEqualTo(10.0);
        assertThat(phase.throttledShare()).isNaN();
    }

    /** pinned where synchronized does not pin (JEP 491) is bound by its clients, not by the carriers. */
    @Test
    void aPhaseNotBoundByItsCarriersShouldNotBeCarrierBound() {
        assertThat(QuotaReport.phase(report("pinned", "concurrency", 150), 1, null).carrierBound()).isFalse();
    }

    /** The JVM rounds a fractional quota up: 1.5 CPUs give 2 carriers. */
    @Test
    void aFractionalQuotaShouldGiveItsCpusRoundedUp() {
        assertThat(QuotaReport.phase(report("native", "carriers", 19), 1.5, null).modelPerSecond()).isEqualTo(20.0);
        assertThat(new QuotaReport.Server("quota", 1.5, "v2", 150_000L, 100_000L, 2, 2, 2, "G1", true, null, java.util.List.of())
                .expectedCarriers()).isEqualTo(2);
    }

    private static PhaseReport report(String mode, String basis, double throughput) {
        PhaseReport.ProbeFigures fast = new PhaseReport.ProbeFigures(3, 30, 40, 60, 0);
        return new PhaseReport(mode + "-quota", "quota", mode, "sleep", "private", 100, 16, 6, throughput, 10, basis, 60, 0, Map.of(),
                Map.of("virtual", new PhaseReport.ProbeFigures(700, 900, 950, 220, 0), "worker", fast, "event-loop", fast, "health-live", fast),
                200, 900, 900, 950, 950, 50, null, null, PhaseReport.STARVED, null, null);
    }
}
