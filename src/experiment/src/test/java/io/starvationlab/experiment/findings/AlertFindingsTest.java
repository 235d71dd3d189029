package io.starvationlab.experiment.findings;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.prometheus.AlertEpisode;
import io.starvationlab.experiment.prometheus.AlertRules;
import io.starvationlab.experiment.prometheus.MeasuredPrometheus;
import io.starvationlab.experiment.prometheus.PhaseWindow;
import io.starvationlab.experiment.prometheus.Series;
import io.starvationlab.experiment.results.JudgedPrometheus;
import io.starvationlab.model.StarvationRule;

/** The alert findings, judged on made-up ALERTS series against made-up phases: caught, late, false, never resolved. */
class AlertFindingsTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration STEP = Duration.ofSeconds(1);
    private static final String POD = "lab-default-1";
    private static final List<AlertRules.Alert> RULES = List.of(
            new AlertRules.Alert("CarrierStarvation", "x", Duration.ofSeconds(30)), new AlertRules.Alert("CarrierStall", "y", Duration.ZERO));
    /** unpinned 0-8 s, native 8-16 s, cpu 16-24 s, reentrant 24-32 s: each 6 s of load and 2 s of drain. */
    private static final List<PhaseWindow> PHASES = List.of(
            phase("unpinned", StarvationRule.NOT_STARVED, 0), phase("native", StarvationRule.STARVED, 8),
            phase("cpu", StarvationRule.STARVED, 16), phase("reentrant", StarvationRule.NOT_STARVED, 24));

    private static PhaseWindow phase(String name, String verdict, int start) {
        return new PhaseWindow(name, "default", POD, verdict, T0.plusSeconds(start), T0.plusSeconds(start + 6), T0.plusSeconds(start + 8));
    }

    /** ALERTS as a range query returns it: one series per state, a sample each second the alert was in that state. */
    private static Series alerts(String alert, String state, int from, int to) {
        return new Series(Map.of("alertname", alert, "alertstate", state, "pod", POD),
                IntStream.rangeClosed(from, to).mapToObj(s -> new Series.Sample(T0.plusSeconds(s), 1)).toList());
    }

    private static Finding finding(List<Finding> findings, String id) {
        return findings.stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow();
    }

    /** What Prometheus recorded of {@code phases}, {@code episodes} of {@link #RULES}, judged. */
    private static JudgedPrometheus judged(List<PhaseWindow> phases, List<AlertEpisode> episodes) {
        return JudgedPrometheus.of(new MeasuredPrometheus(true, "", 25, 0, 0, null, phases, episodes, RULES, List.of(), null));
    }

    @Test
    void shouldReadEpisodesFromAlertsSeries() {
        List<AlertEpisode> episodes = AlertEpisode.of(List.of(alerts("CarrierStall", "firing", 10, 30), alerts("CarrierStarvation", "pending", 9, 12),
                alerts("CarrierStarvation", "pending", 20, 40)), STEP, T0.plusSeconds(40));

        assertThat(episodes).extracting(AlertEpisode::alert).containsExactly("CarrierStarvation", "CarrierStall", "CarrierStarvation");
        assertThat(episodes.get(0).resolved()).isEqualTo(T0.plusSeconds(13));
        assertThat(episodes.get(0).firing()).isNull();
        assertThat(episodes.get(1).firing()).isEqualTo(T0.plusSeconds(10));
        assertThat(episodes.get(2).resolved()).as("still active at the last evaluation").isNull();
    }

    @Test
    void shouldHoldWhenTheAlertsCatchEveryStarvedPhaseAndNothingElse() {
        List<AlertEpisode> episodes = AlertEpisode.of(List.of(alerts("CarrierStarvation", "pending", 10, 40),
                alerts("CarrierStall", "firing", 11, 40)), STEP, T0.plusSeconds(60));
        JudgedPrometheus judged = judged(PHASES, episodes);
        List<Finding> findings = AlertFindings.evaluate(judged);

        assertThat(finding(findings, "carrier-starvation-pending").holds()).isTrue();
        assertThat(finding(findings, "carrier-starvation-pending").measured()).isEqualTo("native 2 s, cpu still active from native");
        assertThat(finding(findings, "carrier-stall-resolves").measured()).isEqualTo("cpu 19 s after its load");
        assertThat(finding(findings, "no-false-alarms").holds()).as("still active in reentrant, since native: not an onset there").isTrue();
        assertThat(finding(findings, "carrier-starvation-fires").holds()).as("no phase outlasts for: 30 s").isNull();
        assertThat(judged.rules()).filteredOn(rule -> rule.alert().equals("CarrierStall")).singleElement()
                .satisfies(rule -> assertThat(rule.detectionSeconds()).containsExactly(3.0));
        assertThat(judged.alerts()).filteredOn(row -> row.phase().equals("reentrant") && row.alert().equals("CarrierStall"))
                .singleElement().satisfies(row -> assertThat(row.carriedFrom()).isEqualTo("native"));
    }

    @Test
    void shouldFailOnALateOnsetAFalseAlarmAndAnAlertThatNeverResolves() {
        List<AlertEpisode> episodes = AlertEpisode.of(List.of(alerts("CarrierStall", "firing", 3, 4),
                alerts("CarrierStarvation", "pending", 15, 60), alerts("CarrierStall", "firing", 14, 20)), STEP, T0.plusSeconds(60))
                .stream().map(e -> e.pending().equals(T0.plusSeconds(3)) ? e.withOnset(List.of("max_over_time(lab_x) > 0.5: 0.700")) : e)
                .toList();
        List<Finding> findings = AlertFindings.evaluate(judged(PHASES, episodes));

        assertThat(finding(findings, "carrier-starvation-pending").holds()).as("pending 7 s after native started").isFalse();
        assertThat(finding(findings, "carrier-stall-pending").holds()).as("cpu never").isFalse();
        assertThat(finding(findings, "carrier-starvation-resolves").holds()).isFalse();
        assertThat(finding(findings, "no-false-alarms").measured()).isEqualTo("1 false alarms: CarrierStall in unpinned (at onset max_over_time(lab_x) > 0.5: 0.700)");
        assertThat(finding(findings, "no-false-alarms").holds()).isFalse();
    }

    @Test
    void shouldListAnOnsetThatNeverFiredInAPhaseThatIsNotStarvedWithoutCallingItAFalseAlarm() {
        List<AlertEpisode> episodes = AlertEpisode.of(List.of(alerts("CarrierStarvation", "pending", 2, 7)), STEP, T0.plusSeconds(60))
                .stream().map(e -> e.withOnset(List.of("histogram_quantile(lab_x) > 0.1: 0.130"))).toList();
        Finding falseAlarms = finding(AlertFindings.evaluate(judged(PHASES, episodes)), "no-false-alarms");

        assertThat(falseAlarms.holds()).isTrue();
        assertThat(falseAlarms.measured()).isEqualTo("0 false alarms in 2 phases that are not starved; pending, never fired: "
                + "CarrierStarvation in unpinned (at onset histogram_quantile(lab_x) > 0.1: 0.130)");
    }

    @Test
    void shouldRequireFiringInAStarvedPhaseLongerThanFor() {
        List<PhaseWindow> longPhase = List.of(new PhaseWindow("native-http2", "http2", POD, StarvationRule.STARVED, T0, T0.plusSeconds(30),
                T0.plusSeconds(40)));
        List<AlertEpisode> pendingOnly = AlertEpisode.of(List.of(alerts("CarrierStarvation", "pending", 2, 38)), STEP, T0.plusSeconds(60));
        List<AlertEpisode> fired = AlertEpisode.of(List.of(alerts("CarrierStarvation", "pending", 2, 32),
                alerts("CarrierStarvation", "firing", 33, 38)), STEP, T0.plusSeconds(60));

        assertThat(finding(AlertFindings.evaluate(judged(longPhase, pendingOnly)), "carrier-starvation-fires").holds()).isFalse();
        assertThat(finding(AlertFindings.evaluate(judged(longPhase, fired)), "carrier-starvation-fires").measured())
                .isEqualTo("native-http2 firing at 33 s");
    }
}
