package io.starvationlab.experiment.findings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.MadeUp;

/** The meter's and JFR's findings on made-up phases: what a starved run and a free one show, and one of each broken. */
class PhaseFindingsTest {

    private static final String NATIVE = PhaseFindings.NATIVE_REASON;

    @Test
    void theMeterShouldTellHeldCarriersFromFreeOnes() {
        assertThat(PhaseFindings.meter(held(), free(3)).holds()).isTrue();
        assertThat(PhaseFindings.meter(held(), free(50)).holds()).as("a free phase whose canary waited 50 ms").isFalse();
        assertThat(PhaseFindings.meter(List.of(phase("native", 300, 200, 0, null, null)), free(3)).holds())
                .as("requests that waited far less than the queue model's 1 s").isFalse();
        assertThat(PhaseFindings.meter(List.of(Optional.empty()), free(3)).holds()).isNull();
    }

    @Test
    void jfrShouldNameTheUpcallAndTheMonitorAndNothingWhereNothingPins() {
        var servers = Map.of("default", MadeUp.info("default", 4, 4, false, null));
        Optional<JudgedPhase> upcall = phase("native", 300, 1400, 240, PhaseFindings.UPCALL, NATIVE);
        Optional<JudgedPhase> monitor = phase("pinned-legacy-locking", 300, 1400, 236, PhaseFindings.MONITOR, NATIVE);
        Optional<JudgedPhase> unpinned = phase("unpinned", 3, 5, 0, null, null);
        assertThat(PhaseFindings.pinningFrames(upcall, monitor, unpinned, servers).holds()).isTrue();
        assertThat(PhaseFindings.pinningFrames(upcall, monitor, phase("unpinned", 3, 5, 12, PhaseFindings.MONITOR, null), servers).holds())
                .as("pinned events where nothing pins").isFalse();
        assertThat(PhaseFindings.pinningFrames(phase("native", 300, 1400, 240, PhaseFindings.UPCALL, null), monitor, unpinned, servers).holds())
                .as("no reason on a JDK whose JFR names it").isFalse();
        assertThat(PhaseFindings.pinningFrames(phase("native", 300, 1400, 120, PhaseFindings.UPCALL, NATIVE), monitor, unpinned, servers).holds())
                .as("half the requests pinned").isFalse();
    }

    private static List<Optional<JudgedPhase>> held() {
        return List.of(phase("native", 300, 1400, 0, null, null), phase("cpu", 250, 1300, 0, null, null));
    }

    private static List<Optional<JudgedPhase>> free(double canaryMillis) {
        return List.of(phase("unpinned", canaryMillis, 5, 0, null, null));
    }

    /** 240 requests of 100 ms by 64 clients at 40/s; the canary's and the requests' p99; pinned events, and the top frame. */
    private static Optional<JudgedPhase> phase(String name, double canaryMillis, double requestsMillis, long pinned, String frame, String reason) {
        return Optional.of(new JudgedPhase(name, "default", name, "sleep", "private", 100, 64, 6, 40, 40, "carriers", 240, 0,
                Map.of("200", 240L), Map.of(), 1, canaryMillis, 0, requestsMillis, 0, pinned, frame, reason, JudgedPhase.STARVED, null, null));
    }
}
