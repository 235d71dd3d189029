package io.starvationlab.experiment.findings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.K6Comparison;
import io.starvationlab.experiment.results.ProbeReach;

/**
 * The k6 suite and the Java runner, two clients on one server JVM, say the same of each phase; and the
 * runner's {@code /probe/virtual} samples every event loop, as k6's does.
 */
final class K6Findings {

    /** How far apart the two throughputs may be, of the larger. */
    static final double THROUGHPUT_TOLERANCE = 0.10;
    /** Both under this many requests per second: a collapse, whose ratio means nothing. */
    static final double COLLAPSED_PER_SECOND = 1;
    /**
     * How far apart the two {@code /probe/virtual} p50s may be: within this factor of each other (a starved phase,
     * whose wait depends on the event loop a probe came through), or within {@link #P50_SLACK_MILLIS} (a phase that
     * does not starve, where each client's own cost of a request on the shared machine is what differs). Measured
     * on one server, the runner then k6, the seven default-JVM phases (k6/README.md, "Beside the Java runner").
     */
    static final double P50_FACTOR = 2.5;
    static final double P50_SLACK_MILLIS = 25;
    static final Claim AGREES = new Claim("k6-agrees-with-java-runner", "The k6 suite and the Java runner, on the same server, give the same verdicts"
            + " and figures", String.format(Locale.ROOT, "per phase of the default server JVM: verdicts identical; throughput within %.0f %% of the"
                    + " larger (or both under %.0f/s); /probe/virtual p50 within %.1fx of each other or %.0f ms (the runner's p50 over the probes sent"
                    + " while the load ran, as k6 counts its own)", THROUGHPUT_TOLERANCE * 100, COLLAPSED_PER_SECOND, P50_FACTOR, P50_SLACK_MILLIS));
    static final Claim REACH = new Claim("probes-reach-every-event-loop", "Each client's /probe/virtual reached every event loop of the server,"
            + " evenly, in every phase", "each event loop answers at least the plan's least share (probes.leastEventLoopShare) of its even part, in"
            + " every phase the runner measured over HTTP/1.1 and every phase k6 ran");

    private K6Findings() {
    }

    static List<Finding> evaluate(K6Comparison k6, List<ProbeReach> reach) {
        return List.of(agrees(k6), reach(k6, reach));
    }

    private static Finding agrees(K6Comparison k6) {
        if (!k6.ran()) {
            return AGREES.notJudged("not run: " + k6.notRun());
        }
        if (k6.failure() != null || k6.rows().isEmpty()) {
            return AGREES.judged(k6.failure() != null ? k6.failure() : "k6 reported none of the phases", false);
        }
        Tally tally = new Tally().startingWith("runner / k6: ");
        for (K6Comparison.Row row : k6.rows()) {
            List<String> differ = differences(row);
            tally.add(String.format(Locale.ROOT, "%s: %s / %s, %s / %s, p50 %s / %s%s", row.phase(), row.javaVerdict(), row.k6Verdict(),
                    Figures.perSecond(row.javaPerSecond()), row.k6PerSecond() == null ? "-" : Figures.perSecond(row.k6PerSecond()),
                    ms(row.javaP50Millis()), row.k6P50Millis() == null ? "-" : ms(row.k6P50Millis()),
                    differ.isEmpty() ? "" : " DIFFER: " + String.join(", ", differ)), differ.isEmpty());
        }
        return tally.judged(AGREES, "; ");
    }

    /** What differs between the two clients' figures of a phase; empty when they agree. */
    static List<String> differences(K6Comparison.Row row) {
        List<String> differ = new ArrayList<>();
        if (!Objects.equals(row.javaVerdict(), row.k6Verdict())) {
            differ.add("verdict");
        }
        if (row.k6PerSecond() == null || !throughputAgrees(row.javaPerSecond(), row.k6PerSecond())) {
            differ.add("throughput");
        }
        if (row.k6P50Millis() == null || !p50Agrees(row.javaP50Millis(), row.k6P50Millis())) {
            differ.add("p50");
        }
        return differ;
    }

    static boolean throughputAgrees(double a, double b) {
        return Math.max(a, b) < COLLAPSED_PER_SECOND || Math.abs(a - b) <= THROUGHPUT_TOLERANCE * Math.max(a, b);
    }

    static boolean p50Agrees(double a, double b) {
        return Math.abs(a - b) <= P50_SLACK_MILLIS || (Math.min(a, b) > 0 && Math.max(a, b) / Math.min(a, b) <= P50_FACTOR);
    }

    private static Finding reach(K6Comparison k6, List<ProbeReach> reach) {
        List<String> uneven = Stream.concat(reach.stream().filter(r -> !Boolean.TRUE.equals(r.even()) && r.why() == null)
                .map(r -> "runner " + r.phase() + " " + r.describe()), k6.rows().stream().filter(row -> row.k6Reach() == null || !Boolean.TRUE.equals(row.k6Reach().even()))
                .map(row -> "k6 " + row.phase() + " " + (row.k6Reach() == null ? "no data" : row.k6Reach().describe()
                        + (row.k6Reach().why() == null ? "" : " (" + row.k6Reach().why() + ")")))).toList();
        if (reach.stream().allMatch(r -> r.even() == null) && k6.rows().stream().allMatch(row -> row.k6Reach() == null)) {
            return REACH.notJudged("no phase measured over HTTP/1.1");
        }
        long notJudged = reach.stream().filter(r -> r.even() == null).count();
        String measured = String.format(Locale.ROOT, "runner: %d of %d phases even%s; k6: %s", reach.stream().filter(r -> Boolean.TRUE.equals(r.even())).count(),
                reach.size() - notJudged, notJudged == 0 ? "" : " (" + notJudged + " not judged: " + reach.stream().filter(r -> r.even() == null)
                        .map(r -> r.phase() + ", " + r.why()).collect(Collectors.joining("; ")) + ")",
                !k6.ran() ? "not run, " + k6.notRun() : k6.rows().stream().filter(row -> row.k6Reach() != null && Boolean.TRUE.equals(row.k6Reach().even())).count()
                        + " of " + k6.rows().size() + " phases even")
                + (uneven.isEmpty() ? "" : "; UNEVEN: " + String.join("; ", uneven));
        return REACH.judged(measured, uneven.isEmpty());
    }

    private static String ms(double millis) {
        return String.format(Locale.ROOT, "%.1f ms", millis);
    }
}
