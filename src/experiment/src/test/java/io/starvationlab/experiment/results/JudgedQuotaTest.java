package io.starvationlab.experiment.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.CpuQuota;

/** A phase inside a quota beside its model: quota ÷ wait, and which loads that model is about. */
class JudgedQuotaTest {

    @Test
    void aNativePhaseShouldBeCarrierBoundAtTheQuotasCarriersOverItsWait() {
        JudgedQuota.Phase phase = JudgedQuota.phase(figures("native", "carriers", 19.2), 2, new CpuQuota.Throttling(80, 4, 30));
        assertThat(phase.carrierBound()).isTrue();
        assertThat(phase.modelPerSecond()).isEqualTo(20.0);
        assertThat(phase.throughputToModel()).isEqualTo(0.96);
    }

    /** cpu holds its carriers too, but by using their CPUs: the same model, and no part in the finding. */
    @Test
    void cpuWorkShouldHaveTheSameModelButNotCountAsCarrierBound() {
        JudgedQuota.Phase phase = JudgedQuota.phase(figures("cpu", "carriers", 9.1), 1, null);
        assertThat(phase.carrierBound()).isFalse();
        assertThat(phase.modelPerSecond()).isEqualTo(10.0);
    }

    /** pinned where synchronized does not pin (JEP 491) is bound by its clients, not by the carriers. */
    @Test
    void aPhaseNotBoundByItsCarriersShouldNotBeCarrierBound() {
        assertThat(JudgedQuota.phase(figures("pinned", "concurrency", 150), 1, null).carrierBound()).isFalse();
    }

    /** The JVM rounds a fractional quota up: 1.5 CPUs give 2 carriers. */
    @Test
    void aFractionalQuotaShouldGiveItsCpusRoundedUp() {
        assertThat(JudgedQuota.phase(figures("native", "carriers", 19), 1.5, null).modelPerSecond()).isEqualTo(20.0);
        assertThat(new JudgedQuota.Server("quota", 1.5, null, true, null, List.of()).expectedCarriers()).isEqualTo(2);
    }

    private static JudgedPhase figures(String mode, String basis, double throughput) {
        return MadeUp.phase(mode + "-quota", mode, basis, throughput, 10, 700, JudgedPhase.STARVED);
    }
}
