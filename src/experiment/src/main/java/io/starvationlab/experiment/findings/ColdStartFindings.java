package io.starvationlab.experiment.findings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.run.MeasuredColdStart;

/**
 * Fresh JVMs starved at once: a bean the event loops need, left to its first use, holds them while its
 * creator waits for a carrier; created at start-up, nothing the event loops need waits for one.
 */
final class ColdStartFindings {

    static final String LAZY_BEAN = "lazy-bean-blocks-event-loops";
    /** "For seconds": the checker reports an event loop blocked at least this long in each lazy run. */
    static final long BLOCKED_FOR_MILLIS = 2_000;
    /** A malformed request's 400, on the service's clock. */
    static final double MALFORMED_WITHIN_MILLIS = 100;
    /** Liveness and the event-loop probe, on the service's clock. */
    static final double PROBES_WITHIN_MILLIS = 1_000;

    private ColdStartFindings() {
    }

    static Finding evaluate(List<MeasuredColdStart> runs) {
        String claim = "A bean the event loops need, created on its first use by a virtual thread that then waits for a carrier, blocks every"
                + " event loop that needs it, liveness included, for as long as the carriers starve; created at start-up, nothing blocks";
        String expected = String.format(Locale.ROOT, "in every repeat, lazy: an event loop reported blocked for at least %s; eager: no event"
                + " loop reported blocked, every malformed request 400 within %.0f ms, /q/health/live and /probe/event-loop 200 within %s"
                + " (on the service's clock)", Figures.seconds(BLOCKED_FOR_MILLIS), MALFORMED_WITHIN_MILLIS, Figures.seconds(PROBES_WITHIN_MILLIS));
        if (runs.stream().noneMatch(MeasuredColdStart::lazy) || runs.stream().allMatch(MeasuredColdStart::lazy)) {
            return Finding.notJudged(LAZY_BEAN, claim, expected, "not measured: the cold-start runs did not run (see -Dexperiment.phases)");
        }
        List<String> measured = new ArrayList<>();
        boolean holds = true;
        for (MeasuredColdStart run : runs) {
            List<String> wrong = run.lazy() ? lazyFaults(run) : eagerFaults(run);
            holds &= wrong.isEmpty();
            measured.add(describe(run) + (wrong.isEmpty() ? "" : " — NOT as expected: " + String.join(", ", wrong)));
        }
        return new Finding(LAZY_BEAN, claim, expected, String.join("; ", measured), holds);
    }

    private static List<String> lazyFaults(MeasuredColdStart run) {
        List<String> wrong = new ArrayList<>();
        if (!run.triggered()) {
            wrong.add("the bean's creation never began on a virtual thread");
        }
        if (run.eventLoopsBlocked().longestMillis() < BLOCKED_FOR_MILLIS) {
            wrong.add("no event loop blocked for " + Figures.seconds(BLOCKED_FOR_MILLIS));
        }
        return wrong;
    }

    private static List<String> eagerFaults(MeasuredColdStart run) {
        List<String> wrong = new ArrayList<>();
        if (!run.triggered()) {
            wrong.add("no request refused for a permit, so the event loops never needed the bean");
        }
        if (run.eventLoopsBlocked().any()) {
            wrong.add("event loops blocked: " + String.join(" / ", run.eventLoopsBlocked().firstWarning()).replace("|", "\\|"));
        }
        wrong.addAll(answered(run, "malformed", 400, MALFORMED_WITHIN_MILLIS));
        wrong.addAll(answered(run, "live", 200, PROBES_WITHIN_MILLIS));
        wrong.addAll(answered(run, "event-loop", 200, PROBES_WITHIN_MILLIS));
        return wrong;
    }

    private static List<String> answered(MeasuredColdStart run, String name, int status, double withinMillis) {
        MeasuredColdStart.Probe probe = run.probe(name);
        List<String> wrong = new ArrayList<>();
        if (probe.count() == 0 || !probe.statuses().keySet().equals(Set.of(status))) {
            wrong.add(name + " answered " + probe.statuses() + ", not all " + status);
        }
        if (!(probe.serverMaxMillis() < withinMillis)) {
            wrong.add(String.format(Locale.ROOT, "%s slowest %s ms on the service's clock", name, Figures.fixed(probe.serverMaxMillis())));
        }
        return wrong;
    }

    private static String describe(MeasuredColdStart run) {
        String blocked = run.eventLoopsBlocked().any() ? String.format(Locale.ROOT, "%d blocked-thread warnings, longest %s",
                run.eventLoopsBlocked().warnings(), Figures.seconds(run.eventLoopsBlocked().longestMillis())) : "no event loop blocked";
        Map<String, MeasuredColdStart.Probe> probes = run.probes();
        return String.format(Locale.ROOT, "repeat %d %s: %s, live max %s ms, event-loop max %s ms, malformed %s max %s ms (client; service %s / %s / %s ms)",
                run.repeat(), run.lazy() ? "lazy" : "eager", blocked, Figures.fixed(probes.get("live").maxMillis()),
                Figures.fixed(probes.get("event-loop").maxMillis()), probes.get("malformed").statuses(), Figures.fixed(probes.get("malformed").maxMillis()),
                Figures.fixed(probes.get("live").serverMaxMillis()), Figures.fixed(probes.get("event-loop").serverMaxMillis()),
                Figures.fixed(probes.get("malformed").serverMaxMillis()));
    }
}
