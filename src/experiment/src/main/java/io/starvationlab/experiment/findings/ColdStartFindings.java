package io.starvationlab.experiment.findings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.run.EventLoopsBlocked;
import io.starvationlab.experiment.run.MeasuredColdStart;

/**
 * Vert.x's blocked-thread checker as an oracle: under any load of the plan, a server JVM's event loops keep answering;
 * but in a fresh JVM starved at once, a bean the event loops need, left to its first use, holds them while its creator
 * waits for a carrier (created at start-up, nothing the event loops need waits for one).
 */
final class ColdStartFindings {

    /** "For seconds": the checker reports an event loop blocked at least this long in each lazy run. */
    static final long BLOCKED_FOR_MILLIS = 2_000;
    /** A malformed request's 400, on the service's clock. */
    static final double MALFORMED_WITHIN_MILLIS = 100;
    /** Liveness and the event-loop probe, on the service's clock. */
    static final double PROBES_WITHIN_MILLIS = 1_000;
    static final Claim LAZY_BEAN = new Claim("lazy-bean-blocks-event-loops", "A bean the event loops need, created on its first use by a virtual"
            + " thread that then waits for a carrier, blocks every event loop that needs it, liveness included, for as long as the carriers starve;"
            + " created at start-up, nothing blocks", String.format(Locale.ROOT, "in every repeat, lazy: an event loop reported blocked for at least"
                    + " %s; eager: no event loop reported blocked, every malformed request 400 within %.0f ms, /q/health/live and /probe/event-loop 200"
                    + " within %s (on the service's clock)", Figures.seconds(BLOCKED_FOR_MILLIS), MALFORMED_WITHIN_MILLIS,
                    Figures.seconds(PROBES_WITHIN_MILLIS)));
    static final Claim NONE_BLOCKED = new Claim("no-event-loop-blocked", "No event loop waits, whatever holds the carriers: Vert.x's blocked-thread"
            + " checker warns of none in any server JVM", "no blocked-thread warning about an event loop in the log of any server JVM of the main"
            + " plan, nor of an eager cold start");

    private ColdStartFindings() {
    }

    static Finding lazyBean(List<MeasuredColdStart> runs) {
        if (runs.stream().noneMatch(MeasuredColdStart::lazy) || runs.stream().allMatch(MeasuredColdStart::lazy)) {
            return LAZY_BEAN.notJudged("not measured: the cold-start runs did not run (see -Dexperiment.phases)");
        }
        Tally tally = new Tally();
        for (MeasuredColdStart run : runs) {
            List<String> wrong = new ArrayList<>();
            if (!run.triggered()) {
                wrong.add(run.lazy() ? "the bean's creation never began on a virtual thread" : "no request refused for a permit, so the event loops"
                        + " never needed the bean");
            }
            if (run.lazy() && run.eventLoopsBlocked().longestMillis() < BLOCKED_FOR_MILLIS) {
                wrong.add("no event loop blocked for " + Figures.seconds(BLOCKED_FOR_MILLIS));
            }
            if (!run.lazy()) {
                if (run.eventLoopsBlocked().any()) {
                    wrong.add("event loops blocked: " + String.join(" / ", run.eventLoopsBlocked().firstWarning()).replace("|", "\\|"));
                }
                answered(run, "malformed", 400, MALFORMED_WITHIN_MILLIS, wrong);
                answered(run, "live", 200, PROBES_WITHIN_MILLIS, wrong);
                answered(run, "event-loop", 200, PROBES_WITHIN_MILLIS, wrong);
            }
            tally.add(run.describe() + (wrong.isEmpty() ? "" : " — NOT as expected: " + String.join(", ", wrong)), wrong.isEmpty());
        }
        return tally.judged(LAZY_BEAN, "; ");
    }

    /** {@code servers}: the main plan's server JVMs by name (null: it did not start); the eager cold-start runs join them. */
    static Finding noneBlocked(Map<String, EventLoopsBlocked> servers, List<MeasuredColdStart> coldStarts) {
        Map<String, EventLoopsBlocked> judged = new LinkedHashMap<>(servers);
        judged.values().removeIf(Objects::isNull);
        coldStarts.stream().filter(run -> !run.lazy()).forEach(run -> judged.put(run.server(), run.eventLoopsBlocked()));
        if (judged.isEmpty()) {
            return NONE_BLOCKED.notJudged("not measured: no server JVM ran");
        }
        List<String> blocked = judged.entrySet().stream().filter(server -> server.getValue().any()).map(server -> String.format(Locale.ROOT,
                "%s: %d warnings, longest %s; first: %s", server.getKey(), server.getValue().warnings(), Figures.seconds(server.getValue().longestMillis()),
                String.join(" / ", server.getValue().firstWarning()).replace("|", "\\|"))).toList();
        return blocked.isEmpty() ? NONE_BLOCKED.judged("none in " + judged.size() + " server JVMs (" + String.join(", ", judged.keySet()) + ")", true)
                : NONE_BLOCKED.judged(String.join("; ", blocked), false);
    }

    private static void answered(MeasuredColdStart run, String name, int status, double withinMillis, List<String> wrong) {
        MeasuredColdStart.Probe probe = run.probe(name);
        if (probe.count() == 0 || !probe.statuses().keySet().equals(Set.of(status))) {
            wrong.add(name + " answered " + probe.statuses() + ", not all " + status);
        }
        if (!(probe.serverMaxMillis() < withinMillis)) {
            wrong.add(String.format(Locale.ROOT, "%s slowest %s ms on the service's clock", name, Figures.fixed(probe.serverMaxMillis())));
        }
    }
}
