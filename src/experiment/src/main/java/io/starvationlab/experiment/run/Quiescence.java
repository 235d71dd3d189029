package io.starvationlab.experiment.run;

import java.time.Duration;

import io.starvationlab.harness.Gauges;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;

/**
 * Waits until a server has drained what came before (a warm-up, a phase): nothing in flight, no permit
 * or connection held, the canary not stalled, and no pinned episode for a whole second. A baseline
 * measured before that measures the leftovers, not the idle service.
 */
public final class Quiescence {

    private static final Duration QUIET_FOR = Duration.ofSeconds(1);

    private Quiescence() {
    }

    /** Whether the server became quiet within {@code within}. */
    public static boolean await(LabClient lab, Duration within) {
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
}
