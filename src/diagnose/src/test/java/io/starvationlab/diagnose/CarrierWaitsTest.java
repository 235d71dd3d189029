package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class CarrierWaitsTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void aThreadSeenWaitingInSuccessiveDumpsWaitedAtLeastFromFirstToLastSighting() {
        CarrierWaits waits = new CarrierWaits();
        waits.observe(dump(0, 7, 8));
        waits.observe(dump(500, 7));
        waits.observe(dump(1000, 7, 9));
        assertThat(waits.longest()).isEqualTo(new CarrierWaits.Longest(7, "t7", Duration.ofMillis(1000), true));
        waits.observe(dump(1500, 9));
        assertThat(waits.longest().ongoing()).as("7 got its carrier").isFalse();
        assertThat(waits.longest().atLeast()).isEqualTo(Duration.ofMillis(1000));
    }

    @Test
    void aThreadThatRanBetweenDumpsStartsOver() {
        CarrierWaits waits = new CarrierWaits();
        waits.observe(dump(0, 7));
        waits.observe(dump(500));
        waits.observe(dump(1000, 7));
        assertThat(waits.longest().atLeast()).isEqualTo(Duration.ZERO);
    }

    /** A JDK 21 dump (no states) of the virtual threads {@code waiting}: empty stacks, each at the dump's time. */
    private static ThreadDump dump(long millis, long... waiting) {
        Instant at = T0.plusMillis(millis);
        return new ThreadDump(at, Arrays.stream(waiting)
                .mapToObj(id -> new ThreadDump.Thread(id, "t" + id, true, null, null, List.of(), List.of(), at)).toList(), false);
    }
}
