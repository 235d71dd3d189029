package io.starvationlab.harness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import io.starvationlab.harness.Gauges;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;

/**
 * States of the running service the integration tests wait for, read from its gauges and polled
 * until they hold or the bound passes. A wait that times out fails with the last reading.
 */
public final class ServiceConditions {

    /** How long the canary has waited for a carrier when the carriers count as starving: far above an idle carrier's scheduling delay. */
    public static final double STARVING_STALL_SECONDS = 0.1;

    private ServiceConditions() {
    }

    /** Waits until no permit, connection, request or stalled canary is left; {@code what} says why the test expects that. */
    public static Gauges awaitIdle(LabClient lab, Duration within, String what) {
        return awaitGauges(lab, within, what + " within " + within, Gauges::idle);
    }

    /** Waits until the gauges satisfy {@code condition}; returns that reading, or fails with the last one. */
    public static Gauges awaitGauges(LabClient lab, Duration within, String what, Predicate<Gauges> condition) {
        Gauges last = Gauges.awaitUntil(lab, within, condition);
        assertThat(condition.test(last)).as("%s: %s", what, last).isTrue();
        return last;
    }

    /**
     * Vert.x's blocked-thread checker as an oracle: no event loop reported blocked in the server's log,
     * or a failure that prints every warning with its stack.
     */
    public static void assertNoEventLoopBlocked(LabServer server) {
        assertNoEventLoopBlocked(server.log().toString(), server.eventLoopBlockedWarnings());
    }

    /** The same oracle over a log read elsewhere (a container's): {@code where} names it. */
    public static void assertNoEventLoopBlocked(String where, String log) {
        assertNoEventLoopBlocked(where, LabServer.eventLoopBlockedWarnings(log));
    }

    /** The oracle itself: no warning in {@code blocked}, or a failure that names {@code where} and prints each with its stack. */
    public static void assertNoEventLoopBlocked(String where, List<LabServer.BlockedEventLoop> blocked) {
        assertThat(blocked).as("event loops reported blocked in %s:%n%s", where,
                blocked.stream().map(LabServer.BlockedEventLoop::warning).collect(Collectors.joining("\n\n"))).isEmpty();
    }

    /** Waits until the carriers starve: the canary's virtual thread has waited {@link #STARVING_STALL_SECONDS} for a carrier. */
    public static Gauges awaitCarriersStarving(LabClient lab) {
        return awaitGauges(lab, Duration.ofSeconds(30), "the canary stalled past " + STARVING_STALL_SECONDS + " s by the load",
                gauges -> gauges.stalledSeconds() >= STARVING_STALL_SECONDS);
    }
}
