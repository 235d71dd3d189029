package io.starvationlab.harness.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The plan's server JVMs inside a CPU quota, read from {@code k6/plan.json}: at 1, 2 and 4 CPUs, each with a
 * carrier-bound phase on every JDK, none on the JVM k6 runs, and one in the quick run.
 */
class QuotaPlanTest {

    private static final Plan PLAN = Plan.ofProject();
    private static final List<Integer> JDKS = List.of(21, 22, 23, 24, 25, 26, 27);

    @Test
    void theQuotasShouldBeOneTwoAndFourCpusWithNoFlagThatSetsTheCarriers() {
        assertThat(PLAN.jvms().values().stream().filter(jvm -> jvm.cpuQuota() != null).map(Plan.Jvm::cpuQuota)).containsExactly(1.0, 2.0, 4.0);
        PLAN.jvms().values().stream().filter(jvm -> jvm.cpuQuota() != null)
                .forEach(jvm -> assertThat(jvm.commandLine()).noneMatch(flag -> flag.contains("ActiveProcessorCount") || flag.contains("parallelism")));
    }

    /** On every JDK each quota runs one carrier-bound mode (native from 22, pinned on 21, where synchronized pins) and cpu. */
    @Test
    void eachQuotaShouldHaveOneCarrierBoundPhaseOnEveryJdk() {
        PLAN.phasesByJvm(false).forEach((jvm, phases) -> {
            if (PLAN.jvms().get(jvm).cpuQuota() == null) {
                return;
            }
            for (int jdk : JDKS) {
                List<String> carrierBound = phases.stream().filter(phase -> phase.appliesTo(jdk))
                        .filter(phase -> Prediction.of(jdk, phase.mode(), phase.downstream(), List.of(), Map.of()).outcome() == Prediction.Outcome.STARVES)
                        .filter(phase -> !"cpu".equals(phase.mode())).map(Plan.Phase::name).toList();
                assertThat(carrierBound).as("%s on JDK %d", jvm, jdk).hasSize(1);
                assertThat(phases.stream().filter(phase -> phase.appliesTo(jdk)).map(Plan.Phase::mode)).as("%s on JDK %d", jvm, jdk).contains("cpu");
            }
        });
    }

    /** k6 runs only the phases of the default JVM: it cannot start a server inside a cgroup. */
    @Test
    void noQuotaPhaseShouldRunOnTheJvmK6Runs() {
        assertThat(PLAN.phases()).filteredOn(phase -> PLAN.jvms().get(phase.jvm()).cpuQuota() != null)
                .isNotEmpty().noneMatch(phase -> "default".equals(phase.jvm()));
    }

    @Test
    void theQuickRunShouldHaveOneQuotaPhaseOnEachJdkAtOneCpu() {
        for (int jdk : JDKS) {
            List<Plan.Phase> quota = PLAN.phasesByJvm(true).values().stream().flatMap(List::stream)
                    .filter(phase -> PLAN.jvms().get(phase.jvm()).cpuQuota() != null && phase.appliesTo(jdk)).toList();
            assertThat(quota).as("JDK %d", jdk).singleElement().satisfies(phase -> assertThat(PLAN.jvms().get(phase.jvm()).cpuQuota()).isEqualTo(1.0));
        }
    }
}
