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
    void aWaitLastsAtLeastFromFirstToLastSightingAndAtMostFromTheDumpBeforeToTheDumpAfter() {
        CarrierWaits waits = new CarrierWaits();
        waits.observe(dump(0, 8));
        waits.observe(dump(500, 7, 8));
        waits.observe(dump(1000, 7, 9));
        waits.observe(dump(1500, 9));
        CarrierWaits.Seen seen = waits.seen();
        assertThat(seen.work()).containsExactlyInAnyOrder(
                new CarrierWaits.Wait(8, "t8", Duration.ofMillis(500), null, false),
                new CarrierWaits.Wait(7, "t7", Duration.ofMillis(500), Duration.ofMillis(1500), false),
                new CarrierWaits.Wait(9, "t9", Duration.ofMillis(500), null, true));
        assertThat(seen.work().stream().filter(w -> w.threadId() == 7).findFirst().orElseThrow().estimate()).as("between its bounds")
                .isEqualTo(Duration.ofMillis(1000));
        assertThat(seen.longestAtLeast()).isEqualTo(Duration.ofMillis(500));
        assertThat(seen.dumps()).isEqualTo(4);
        assertThat(seen.meanApart()).isEqualTo(Duration.ofMillis(500));
        assertThat(seen.ongoing()).isEqualTo(1);
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

    @Test
    void theMetersCanaryProbesAreKeptApartAndTheQuantilesAreTheWorks() {
        CarrierWaits waits = new CarrierWaits();
        ThreadDump.Thread canary = new ThreadDump.Thread(1000, CarrierWaits.CANARY, true, null, null, List.of(), List.of(), List.of(), null, null, T0);
        waits.observe(new ThreadDump(T0, List.of(canary), false));
        for (int i = 1; i <= 100; i++) {
            // thread i waits from the dump at i-1 to the one at i+1 (seen at i)
            waits.observe(dump(1000L * i, i));
        }
        waits.observe(dump(101_000));
        CarrierWaits.Seen seen = waits.seen();
        assertThat(seen.canary()).singleElement().extracting(CarrierWaits.Wait::name).isEqualTo(CarrierWaits.CANARY);
        assertThat(seen.work()).hasSize(100).allMatch(w -> w.estimate().equals(Duration.ofSeconds(1)));
        assertThat(seen.quantile(0.5)).isEqualTo(Duration.ofSeconds(1));
        assertThat(seen.quantile(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(new CarrierWaits().seen().quantile(0.5)).as("none waited").isNull();
    }

    /** A JDK 21 dump (no states) of the virtual threads {@code waiting}: empty stacks, each at the dump's time. */
    private static ThreadDump dump(long millis, long... waiting) {
        Instant at = T0.plusMillis(millis);
        return new ThreadDump(at, Arrays.stream(waiting)
                .mapToObj(id -> new ThreadDump.Thread(id, "t" + id, true, null, null, List.of(), List.of(), List.of(), null, null, at)).toList(), false);
    }
}
