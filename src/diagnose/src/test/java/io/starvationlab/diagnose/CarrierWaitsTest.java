package io.starvationlab.diagnose;

import static io.starvationlab.diagnose.Observed.T0;
import static io.starvationlab.diagnose.Observed.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class CarrierWaitsTest {

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
            Instant at = T0.plusSeconds(i);
            ThreadDump.Thread canary = waiting(1000, CarrierWaits.CANARY, at);
            waits.observe(new ThreadDump(at, i % 2 == 0 ? List.of(canary, waiting(i, "t" + i, at)) : List.of(canary), false));
        }
        CarrierWaits.Seen seen = waits.seen();
        assertThat(seen.canary()).singleElement().satisfies(w -> assertThat(w.atLeast()).isEqualTo(Duration.ofSeconds(10)));
        assertThat(seen.longestAtLeast()).as("the work's longest: each thread seen once").isZero();
        assertThat(seen.workWaiting()).as("6 threads in 11 dumps, the canary left out").isEqualTo(6 / 11.0);
    }

    /** A JDK 21 dump (no states) of the virtual threads {@code ids} waiting: empty stacks, each at the dump's time. */
    private static ThreadDump dump(long millis, long... ids) {
        Instant at = T0.plusMillis(millis);
        return new ThreadDump(at, Arrays.stream(ids).mapToObj(id -> waiting(id, "t" + id, at)).toList(), false);
    }
}
