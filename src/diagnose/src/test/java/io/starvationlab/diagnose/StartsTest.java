package io.starvationlab.diagnose;

import static io.starvationlab.diagnose.Observed.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class StartsTest {

    /** Measured under pinning on JDK 21: counted from the span's own beginning, the rate read 8-16 a second where 22 started. */
    @Test
    void aSpanIsTimedFromItsFirstStartAsTheTargetAppliesTheSettingLate() {
        List<Instant> starts = new ArrayList<>();
        for (int i = 0; i < 14; i++) {
            starts.add(T0.plusMillis(350 + 50L * i)); // 20 a second, from 350 ms into the span
        }
        FlightRecording.Starts late = new FlightRecording.Starts(starts, List.of(new FlightRecording.Starts.Span(T0, T0.plusMillis(1000))));
        assertThat(late.perSecond()).isCloseTo(20, offset(0.1));

        List<Instant> burst = List.of(T0.plusMillis(500), T0.plusMillis(500), T0.plusMillis(501), T0.plusMillis(501), T0.plusMillis(501));
        assertThat(new FlightRecording.Starts(burst, List.of(new FlightRecording.Starts.Span(T0, T0.plusMillis(1000)))).perSecond())
                .as("five threads started at once half-way: not thousands a second").isCloseTo(8, offset(0.1));
        assertThat(new FlightRecording.Starts(List.of(), List.of(new FlightRecording.Starts.Span(T0, T0.plusMillis(1000)))).perSecond()).isZero();
        assertThat(new FlightRecording.Starts(List.of(), List.of()).perSecond()).isNaN();
    }
}
