package io.starvationlab.experiment.run;

import java.util.Locale;

import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.harness.load.PhaseResult;
import io.starvationlab.model.Plan;

/**
 * Whether a window's own signals say that the machine, not the service, held it back: such a window is measured again,
 * not judged. A baseline must see the carriers idle; a phase whose work holds no carrier must see them free, reach its
 * model's throughput and keep its clients sending. A phase whose work holds the carriers is judged by the carriers' queue,
 * which a busy CPU does not change, and is never called disturbed.
 */
public final class Disturbance {

    /** An idle canary waits well under a millisecond; a few milliseconds mean the carriers were busy. */
    static final double BASELINE_CANARY_MILLIS = 5;
    /**
     * The canary's p99 past which carriers that nothing holds were kept from it: 4x what a baseline may show, and the bound
     * under which {@code carrier-wait-meter-tells-starved-from-free} expects a free phase (measured: 1.0-4.4 ms).
     */
    public static final double FREE_CANARY_MILLIS = 20;
    /**
     * Throughput under this share of the model's limit, for work that waits (ms &gt; 0) and holds no carrier, was held back
     * by something else (measured: 0.97-1.0). Two windows at or above it are within 7 % of each other, inside the 10 % that
     * the findings comparing two such phases allow.
     */
    static final double FREE_THROUGHPUT_SHARE = 0.93;
    /** {@code /probe/virtual}'s p50 over its baseline past which carriers that nothing holds were slow (measured: at most 2.4x). */
    static final double FREE_PROBE_SLOWDOWN = 5;

    /** A window measured again: on which server JVM, which, its attempt, and why it was not judged. */
    public record Remeasured(String server, String window, int attempt, String why) {
    }

    private Disturbance() {
    }

    /** Why a probes-only baseline cannot serve as one (something still held the carriers), or null when it can. */
    static String ofBaseline(PhaseResult baseline) {
        if (baseline.pinnedEvents() > 0) {
            return baseline.pinnedEvents() + " pinned episodes (" + baseline.topPinnedFrame() + ")";
        }
        if (baseline.canaryP99Millis() > BASELINE_CANARY_MILLIS) {
            return String.format(Locale.ROOT, "canary p99 %.1f ms over %.0f ms", baseline.canaryP99Millis(), BASELINE_CANARY_MILLIS);
        }
        return null;
    }

    /**
     * Why the window of {@code phase} on {@code server} shows the machine, not the service, as what held it back, or null
     * when nothing does.
     */
    static String ofPhase(Plan.Phase phase, MeasuredServer.Info server, PhaseResult result, PhaseResult baseline) {
        if (result.load() == null || phase.holdsCarriers(server.nativePinAvailable(), Boolean.TRUE.equals(server.synchronizedPins()))) {
            return null;
        }
        if (result.canaryP99Millis() >= FREE_CANARY_MILLIS) {
            return String.format(Locale.ROOT, "canary p99 %.1f ms though nothing holds the carriers (at most %.0f ms)", result.canaryP99Millis(),
                    FREE_CANARY_MILLIS);
        }
        ClosedLoad.SteadyState steady = result.load().steady();
        if (steady != null && steady.whole()) {
            return "its clients took most of the window to start";
        }
        if (phase.ms() == 0) {
            return null; // work that only computes fills the CPU by design: no model binds it, and the probes share the CPU with it
        }
        ThroughputModel model = ThroughputModel.of(phase, server);
        double share = result.throughput() / model.limit();
        if (share < FREE_THROUGHPUT_SHARE) {
            return String.format(Locale.ROOT, "%.1f/s, %.0f %% of the model's %.0f/s (%s; at least %.0f %%)", result.throughput(), share * 100,
                    model.limit(), model.basis(), FREE_THROUGHPUT_SHARE * 100);
        }
        String probe = "virtual";
        double loaded = result.probe(probe).percentileMillis(50);
        double idle = Math.max(baseline.probe(probe).percentileMillis(50), 1);
        if (loaded / idle >= FREE_PROBE_SLOWDOWN) {
            return String.format(Locale.ROOT, "/probe/%s p50 %.1f ms, %.0fx its baseline (under %.0fx)", probe, loaded, loaded / idle, FREE_PROBE_SLOWDOWN);
        }
        return null;
    }
}
