package io.starvationlab.harness.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.starvationlab.harness.Project;

/**
 * A quick run is what {@code k6/plan.json}'s {@code quick} states: its phases, each for its seconds, as the
 * k6 layout reads them too ({@code src/k6-checks/src/test/node/tests/layout.test.mjs}).
 */
class PlanTest {

    private static final Plan PLAN = Plan.ofProject();

    @Test
    void aQuickRunShouldRunTheQuickPhasesForTheirSecondsInThePlansOrder() throws Exception {
        JsonNode quick = new ObjectMapper().readTree(Project.k6().resolve("plan.json").toFile()).path("quick");
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
        Plan typo = new Plan(PLAN.version(), PLAN.carriers(), PLAN.starved(), PLAN.untouched(), PLAN.probes(), PLAN.baselineSeconds(),
                PLAN.drainSeconds(), new Plan.Quick(3, 1, Map.of("pinned-legacy-lockng", 3.0)), PLAN.jvms(), PLAN.phases(), PLAN.matrix(),
                PLAN.coldStart());
        assertThatThrownBy(() -> typo.phasesByJvm(true)).hasMessageContaining("quick.phases names no phase of the plan: [pinned-legacy-lockng]");
    }
}
