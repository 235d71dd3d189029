package io.starvationlab.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.findings.Finding;
import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.JudgedRun;
import io.starvationlab.experiment.results.MadeUp;

/** Repeats of a plan: spreads per figure, and a verdict that differs between runs flagged, not averaged away. */
class RepeatsTest {

    @Test
    void shouldGiveEachFiguresSpreadAndNoFlagWhenVerdictsAgree() {
        Repeats repeats = Repeats.of(List.of(run(800, JudgedPhase.STARVED, true), run(1500, JudgedPhase.STARVED, true),
                run(1100, JudgedPhase.STARVED, true)));
        Repeats.PhaseSpread native_ = repeats.phases().get("native");
        assertThat(native_.virtualP50Millis()).isEqualTo(new Repeats.Spread(800, 1500));
        assertThat(native_.flipped()).isFalse();
        assertThat(repeats.anyFlipped()).isFalse();
        assertThat(repeats.markdown()).contains("800.0 ms – 1500.0 ms").doesNotContain("FLIPPED");
    }

    /** The broken fixtures: the second run calls the same phase not starved; a finding holds in one run and fails in the other. */
    @Test
    void shouldFlagAVerdictOrAFindingThatDiffersBetweenRuns() {
        Repeats verdict = Repeats.of(List.of(run(800, JudgedPhase.STARVED, true), run(30, JudgedPhase.NOT_STARVED, true)));
        assertThat(verdict.phases().get("native").flipped()).isTrue();
        assertThat(verdict.anyFlipped()).isTrue();
        assertThat(verdict.markdown()).contains("**FLIPPED** starved, not starved");
        Repeats finding = Repeats.of(List.of(run(800, JudgedPhase.STARVED, true), run(800, JudgedPhase.STARVED, false)));
        assertThat(finding.findings().get("an-id").flipped()).isTrue();
        assertThat(finding.phases().get("native").flipped()).isFalse();
        assertThat(finding.anyFlipped()).isTrue();
    }

    private static ExperimentReport run(double virtualP50, String verdict, boolean holds) {
        JudgedRun run = new JudgedRun(Map.of(), List.of(MadeUp.phase("native", "native", "carriers", 38, 40, virtualP50, verdict)), List.of(),
                null, null, null, List.of(), null, Map.of(), List.of(), List.of());
        return new ExperimentReport("now", false, null, "rule", run, List.of(new Finding("an-id", "claim", "expected", "measured", holds)), null);
    }
}
