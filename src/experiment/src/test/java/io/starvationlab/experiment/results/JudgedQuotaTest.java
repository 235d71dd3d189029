package io.starvationlab.experiment.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.starvationlab.harness.CpuQuota;

/** A phase inside a quota beside its model: quota ÷ wait, and which loads that model is about. */
class JudgedQuotaTest {

    /**
     * Each phase of 100 ms inside a quota of {@code cpus}: native is carrier-bound at the quota's carriers ÷ its wait; cpu holds its carriers
     * too, but by using their CPUs: the same model, and no part in the finding; pinned where synchronized does not pin (JEP 491) is bound by
     * its clients, not by the carriers; the JVM rounds a fractional quota up (1.5 CPUs give 2 carriers).
     */
    @ParameterizedTest
    @CsvSource({ "native, carriers, 19.2, 2, true, 2, 0.96", "cpu, carriers, 9.1, 1, false, 1, 0.91", "pinned, concurrency, 150, 1, false, 1, 15",
            "native, carriers, 19, 1.5, true, 2, 0.95" })
    void aPhaseShouldBeCarrierBoundOnlyWhenItsCarriersBoundItAndModelledAtTheQuotasCarriersOverItsWait(String mode, String basis, double throughput,
            double cpus, boolean carrierBound, int carriers, double toModel) {
        JudgedPhase figures = MadeUp.phase(mode + "-quota", mode, basis, throughput, 10, 700, JudgedPhase.STARVED);
        JudgedQuota.Phase phase = JudgedQuota.phase(figures, cpus, new CpuQuota.Throttling(80, 4, 30));
        assertThat(phase.carrierBound()).isEqualTo(carrierBound);
        assertThat(phase.modelPerSecond()).isEqualTo(carriers * 10.0);
        assertThat(phase.throughputToModel()).isCloseTo(toModel, within(1e-9));
        assertThat(new JudgedQuota.Server("quota", cpus, null, true, null, List.of()).expectedCarriers()).isEqualTo(carriers);
    }
}
