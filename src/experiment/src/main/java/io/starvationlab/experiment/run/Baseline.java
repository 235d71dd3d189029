package io.starvationlab.experiment.run;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Consumer;
import io.starvationlab.harness.load.PhaseResult;
import io.starvationlab.harness.load.PhaseRunner;

/**
 * The probes-only baseline every phase on a server JVM is judged against, measured once the warm-up
 * has drained. One that still sees pinning or a waiting canary measured the leftovers, not the idle
 * service: it is measured again, and kept and marked as contaminated if it never comes clean.
 */
final class Baseline {

    private static final int ATTEMPTS = 3;
    private static final Duration QUIET_WITHIN = Duration.ofSeconds(30);
    /** An idle canary waits well under a millisecond; a few milliseconds mean the carriers were busy. */
    private static final double CANARY_LIMIT_MILLIS = 5;

    private Baseline() {
    }

    /** The baseline and when its last attempt started. */
    record Measured(PhaseResult result, Instant start) {
    }

    static Measured measure(PhaseRunner runner, Duration length, Duration drain, Consumer<String> progress) {
        Measured kept = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (!Quiescence.await(runner.lab(), QUIET_WITHIN)) {
                progress.accept("  the server did not drain within " + QUIET_WITHIN.toSeconds() + " s");
            }
            Instant start = Instant.now();
            PhaseResult result = runner.baseline("baseline", length, drain);
            String contamination = contamination(result);
            if (contamination == null) {
                return new Measured(result, start);
            }
            progress.accept("  baseline contaminated (" + contamination + ")" + (attempt < ATTEMPTS ? ": measuring it again" : ": kept, marked"));
            kept = new Measured(result.contaminated(contamination), start);
        }
        return kept;
    }

    /** Why a baseline cannot serve as one, or null when it can. */
    static String contamination(PhaseResult baseline) {
        if (baseline.pinnedEvents() > 0) {
            return baseline.pinnedEvents() + " pinned episodes (" + baseline.topPinnedFrame() + ")";
        }
        if (baseline.canaryP99Millis() > CANARY_LIMIT_MILLIS) {
            return String.format(Locale.ROOT, "canary p99 %.1f ms over %.0f ms", baseline.canaryP99Millis(), CANARY_LIMIT_MILLIS);
        }
        return null;
    }
}
