package io.starvationlab.harness.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.net.URI;
import java.time.Duration;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

/** The steady part of a closed load's window, on made-up answer times (seconds as nanoseconds). */
class ClosedLoadTest {

    private static final long S = 1_000_000_000L;

    /**
     * 2,000 clients x 1 s over 6 s, all sending within 0.2 s: nothing answers in the first second, then 2,000 a
     * second. The whole window reads 10,000 / 6 s = 1,667/s; its steady part, from 1.2 s, 2,000/s.
     */
    @Test
    void shouldCountTheSteadyPartOfAOneSecondLoad() {
        long[] answered = LongStream.range(0, 10_000).map(i -> S + 200_000_000L + i * (S / 2000)).filter(t -> t <= 6 * S).toArray();
        ClosedLoad.SteadyState steady = ClosedLoad.SteadyState.of(answered, 0, 200_000_000L + S, 6 * S);
        assertThat(steady.whole()).isFalse();
        assertThat(steady.fromSeconds()).isCloseTo(1.2, within(1e-9));
        assertThat(steady.seconds()).isCloseTo(4.8, within(1e-9));
        assertThat(steady.perSecond()).isCloseTo(2000, within(1.0));
        assertThat(answered.length / 6.0).isLessThan(1700);
    }

    /** 64 clients x 100 ms: the steady part starts 0.1 s after the last client sent; a tenth of a 6 s window is left out. */
    @Test
    void shouldLeaveOutOnlyTheFirstWaitOfAShortRequest() {
        long[] answered = LongStream.range(1, 60 * 64 + 1).map(i -> i * 6 * S / (60 * 64)).toArray();
        ClosedLoad.SteadyState steady = ClosedLoad.SteadyState.of(answered, 0, 100_000_000L, 6 * S);
        assertThat(steady.seconds()).isCloseTo(5.9, within(1e-9));
        assertThat(steady.perSecond()).isCloseTo(640, within(1.0));
    }

    /** A window barely longer than one request has no steady part worth the name: the whole window counts, and says so. */
    @Test
    void shouldCountTheWholeWindowWhenTheSteadyPartIsUnderAQuarterOfIt() {
        long[] answered = { 2 * S, 2 * S + 1, 3 * S };
        ClosedLoad.SteadyState steady = ClosedLoad.SteadyState.of(answered, 0, 2 * S + S / 2, 3 * S);
        assertThat(steady.whole()).isTrue();
        assertThat(steady.seconds()).isEqualTo(3);
        assertThat(steady.answered()).isEqualTo(3);
        assertThat(ClosedLoad.SteadyState.of(answered, 0, 2 * S, 3 * S).whole()).as("a third of the window").isFalse();
    }

    /** Only answers after the start of the steady part and by the stop count. */
    @Test
    void shouldCountTheAnswersInsideTheSteadyPartOnly() {
        long[] answered = { S / 2, S, S + 1, 4 * S, 4 * S + 1 };
        assertThat(ClosedLoad.SteadyState.of(answered, 0, S, 4 * S).answered()).isEqualTo(2);
    }

    @Test
    void theRequestsOwnWaitShouldComeFromItsQuery() {
        assertThat(ClosedLoad.ownWait(URI.create("http://h/work/unpinned?ms=1000&downstream=sleep"))).isEqualTo(Duration.ofSeconds(1));
        assertThat(ClosedLoad.ownWait(URI.create("http://h/work/cpu?downstream=sleep&ms=100"))).isEqualTo(Duration.ofMillis(100));
        assertThat(ClosedLoad.ownWait(URI.create("http://h/probe/virtual"))).isZero();
        assertThat(ClosedLoad.ownWait(URI.create("http://h/work/x?ms=abc"))).isZero();
    }
}
