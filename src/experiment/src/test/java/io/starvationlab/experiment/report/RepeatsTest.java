package io.starvationlab.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.findings.Finding;
import io.starvationlab.experiment.results.K6Comparison;
import io.starvationlab.experiment.results.PhaseReport;
import io.starvationlab.experiment.results.PrometheusReport;

/** Repeats of a plan: spreads per figure, and a verdict that differs between runs flagged, not averaged away. */
class RepeatsTest {

    @Test
    void shouldGiveEachFiguresSpreadAndNoFlagWhenVerdictsAgree() {
        Repeats repeats = Repeats.of(List.of(run(800, PhaseReport.STARVED, true), run(1500, PhaseReport.STARVED, true),
                run(1100, PhaseReport.STARVED, true)));
        Repeats.PhaseSpread native_ = repeats.phases().get("native");
        assertThat(native_.virtualP50Millis()).isEqualTo(new Repeats.Spread(800, 1500));
        assertThat(native_.flipped()).isFalse();
        assertThat(repeats.anyFlipped()).isFalse();
        assertThat(repeats.markdown()).contains("800.0 ms – 1500.0 ms").doesNotContain("FLIPPED");
    }

    /** The broken fixture: the second run calls the same phase not starved. */
    @Test
    void shouldFlagAVerdictThatDiffersBetweenRuns() {
        Repeats repeats = Repeats.of(List.of(run(800, PhaseReport.STARVED, true), run(30, PhaseReport.NOT_STARVED, true)));
        assertThat(repeats.phases().get("native").flipped()).isTrue();
        assertThat(repeats.anyFlipped()).isTrue();
        assertThat(repeats.markdown()).contains("**FLIPPED** starved, not starved");
    }

    @Test
    void shouldFlagAFindingThatHoldsInOneRunAndFailsInAnother() {
        Repeats repeats = Repeats.of(List.of(run(800, PhaseReport.STARVED, true), run(800, PhaseReport.STARVED, false)));
        assertThat(repeats.findings().get("an-id").flipped()).isTrue();
        assertThat(repeats.phases().get("native").flipped()).isFalse();
        assertThat(repeats.anyFlipped()).isTrue();
    }

    private static ExperimentReport run(double virtualP50, String verdict, boolean holds) {
        PhaseReport.ProbeFigures virtual = new PhaseReport.ProbeFigures(virtualP50, virtualP50 * 3, virtualP50 * 4, 200, 0);
        PhaseReport phase = new PhaseReport("native", "default", "native", "sleep", "private", 100, 64, 6, 38, 40, "carriers", 230, 0,
                Map.of(), Map.of("virtual", virtual), virtualP50, 1000, 1000, 1500, 1600, 0, null, null, verdict, null, null);
        return new ExperimentReport("now", false, null, Map.of(), List.of(phase), List.of(),
                List.of(new Finding("an-id", "claim", "expected", "measured", holds)), "rule",
                new PrometheusReport(false, "not in this test", 0, 0, List.of(), List.of(), List.of(), null, null), null, null, List.of(),
                K6Comparison.notRun("not in this test"), Map.of(), List.of());
    }
}
