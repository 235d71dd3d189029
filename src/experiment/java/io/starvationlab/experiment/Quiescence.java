package io.starvationlab.experiment;

import java.time.Duration;

import io.starvationlab.experiment.server.Gauges;
import io.starvationlab.experiment.server.LabClient;
import io.starvationlab.experiment.server.LabServer;

/**
 * Waits until a server has drained what came before (a warm-up, a phase): nothing in flight, no permit
 * or connection held, the canary not stalled, and no pinned episode for a whole second. A baseline
 * measured before that measures the leftovers, not the idle service.
 */
final class Quiescence {

    private static final Duration QUIET_FOR = Duration.ofSeconds(1);

    private Quiescence() {
    }

    /** Whether the server became quiet within {@code within}. */
    static boolean await(LabClient lab, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Gauges gauges = Gauges.awaitIdle(lab, Duration.ofNanos(Math.max(deadline - System.nanoTime(), 0)));
            if (!gauges.idle()) {
                return false;
            }
            lab.pinning(true);
            LabServer.sleep(QUIET_FOR);
            if (lab.pinning(false).path("eventsSinceReset").asLong() == 0 && Gauges.read(lab).idle()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why a baseline cannot serve as one, or null when it can: a pinned episode or a canary that
     * waited more than a few milliseconds means something still held the carriers.
     */
    static String contamination(PhaseResult baseline, double canaryLimitMillis) {
        if (baseline.pinnedEvents() > 0) {
            return baseline.pinnedEvents() + " pinned episodes (" + baseline.topPinnedFrame() + ")";
        }
        if (baseline.canaryP99Millis() > canaryLimitMillis) {
            return String.format(java.util.Locale.ROOT, "canary p99 %.1f ms over %.0f ms", baseline.canaryP99Millis(), canaryLimitMillis);
        }
        return null;
    }
}
