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
        waits.observe(dump(0, 8));
        waits.observe(dump(500, 7, 8));
        waits.observe(dump(1000, 7, 9));
        waits.observe(dump(1500, 9));
        CarrierWaits.Seen seen = waits.seen();
        assertThat(seen.work()).containsExactlyInAnyOrder(new CarrierWaits.Wait(8, "t8", Duration.ofMillis(500), false),
                new CarrierWaits.Wait(7, "t7", Duration.ofMillis(500), false), new CarrierWaits.Wait(9, "t9", Duration.ofMillis(500), true));
        assertThat(seen.longestAtLeast()).isEqualTo(Duration.ofMillis(500));
        assertThat(seen.dumps()).isEqualTo(4);
        assertThat(seen.workWaiting()).as("1, 2, 2 and 1 waiting").isEqualTo(1.5);
    }

    @Test
    void aThreadThatRanBetweenDumpsStartsOver() {
        CarrierWaits waits = new CarrierWaits();
        waits.observe(dump(0, 7));
        waits.observe(dump(500));
        waits.observe(dump(1000, 7));
        assertThat(waits.seen().longestAtLeast()).isEqualTo(Duration.ZERO);
        assertThat(waits.seen().work()).hasSize(2);
    }

    /** Issue 39: the canary probe, queued for the whole load, read as the wait for a carrier. */
    @Test
    void theMetersCanaryProbesAreKeptApartFromTheWork() {
        CarrierWaits waits = new CarrierWaits();
        for (int i = 0; i <= 10; i++) {
            ThreadDump.Thread canary = new ThreadDump.Thread(1000, CarrierWaits.CANARY, true, null, null, List.of(), List.of(), List.of(), null, null,
                    T0.plusSeconds(i));
            waits.observe(new ThreadDump(T0.plusSeconds(i), i % 2 == 0 ? List.of(canary, thread(i, T0.plusSeconds(i))) : List.of(canary), false));
        }
        CarrierWaits.Seen seen = waits.seen();
        assertThat(seen.canary()).singleElement().satisfies(w -> assertThat(w.atLeast()).isEqualTo(Duration.ofSeconds(10)));
        assertThat(seen.longestAtLeast()).as("the work's longest: each thread seen once").isZero();
        assertThat(seen.workWaiting()).as("6 threads in 11 dumps, the canary left out").isEqualTo(6 / 11.0);
    }

    /** A JDK 21 dump (no states) of the virtual threads {@code waiting}: empty stacks, each at the dump's time. */
    private static ThreadDump dump(long millis, long... waiting) {
        Instant at = T0.plusMillis(millis);
        return new ThreadDump(at, Arrays.stream(waiting).mapToObj(id -> thread(id, at)).toList(), false);
    }

    private static ThreadDump.Thread thread(long id, Instant at) {
        return new ThreadDump.Thread(id, "t" + id, true, null, null, List.of(), List.of(), List.of(), null, null, at);
    }
}
