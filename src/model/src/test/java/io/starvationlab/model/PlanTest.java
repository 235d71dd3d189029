package io.starvationlab.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What {@code k6/plan.json} states. A quick run: its phases, each for its seconds, as the k6 layout reads them too
 * ({@code src/k6-checks/src/test/node/tests/layout.test.mjs}). The server JVMs inside a CPU quota: at 1, 2 and 4 CPUs,
 * each with a carrier-bound phase on every JDK, none on the JVM k6 runs, and one in the quick run.
 */
class PlanTest {

    private static final Plan PLAN = Plan.ofProject();
    private static final List<Integer> JDKS = List.of(21, 22, 23, 24, 25, 26, 27);

    @Test
    void aQuickRunShouldRunTheQuickPhasesForTheirSecondsInThePlansOrder() throws Exception {
        JsonNode quick = new ObjectMapper().readTree(Plan.file().toFile()).path("quick");
        List<String> ran = new ArrayList<>();
        PLAN.phasesByJvm(true).values().forEach(phases -> phases.forEach(phase -> {
            ran.add(phase.name());
            assertThat(PLAN.phaseDuration(phase, true)).as(phase.name())
                    .isEqualTo(Duration.ofMillis((long) (quick.path("phases").path(phase.name()).asDouble() * 1000)));
        }));
        List<String> stated = new ArrayList<>();
        quick.path("phases").fieldNames().forEachRemaining(stated::add);
        assertThat(ran).containsExactlyInAnyOrderElementsOf(stated);
        assertThat(PLAN.baseline(true)).isEqualTo(Duration.ofMillis((long) (quick.path("baselineSeconds").asDouble() * 1000)));
        assertThat(PLAN.drain(true)).isEqualTo(Duration.ofMillis((long) (quick.path("drainSeconds").asDouble() * 1000)));
        assertThat(PLAN.phasesByJvm(false).values().stream().mapToInt(List::size).sum()).isEqualTo(PLAN.phases().size());
    }

    @Test
    void aQuickPhaseThatIsNoPhaseOfThePlanShouldBeRefused() {
        assertThatThrownBy(() -> withQuick(new Plan.Quick(3, 1, Map.of("pinned-legacy-lockng", 3.0), List.of())).phasesByJvm(true))
                .hasMessageContaining("quick.phases names no phase of the plan: [pinned-legacy-lockng]");
        assertThatThrownBy(() -> withQuick(new Plan.Quick(3, 1, Map.of("cpu", 3.0), List.of("cpu", "unpinned"))).phasesByJvm(true))
                .hasMessageContaining("quick.k6Phases names no phase of quick.phases: [unpinned]");
    }

    private static Plan withQuick(Plan.Quick quick) {
        return new Plan(PLAN.version(), PLAN.carriers(), PLAN.starved(), PLAN.untouched(), PLAN.probes(), PLAN.baselineSeconds(),
                PLAN.drainSeconds(), quick, PLAN.jvms(), PLAN.phases(), PLAN.matrix(), PLAN.coldStart());
    }

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
