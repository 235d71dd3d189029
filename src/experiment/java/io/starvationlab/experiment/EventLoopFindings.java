package io.starvationlab.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The findings on the unrelated request's wait: with one event loop it waits its turn in one queue,
 * as the model says; with several, the event loops' queues are not served alike.
 */
final class EventLoopFindings {

    /** The share of probes that must wait more than twice the model for several event loops to count as unfair. */
    static final double UNFAIR_SHARE = 0.10;
    /** How many times the fastest event loop's p50 the slowest one's must be. */
    static final double UNFAIR_SPREAD = 3;
    private static final List<String> SETTINGS = List.of("native-%s", "pinned-%s", "native-%s-wide-permits", "pinned-%s-wide-permits");

    private EventLoopFindings() {
    }

    static List<Finding> evaluate(Function<String, Optional<PhaseReport>> phase) {
        List<Finding> findings = new ArrayList<>();
        List<PhaseReport> one = waited(phase, "one-event-loop");
        List<PhaseReport> many = waited(phase, "default-event-loops");
        findings.add(judge("Found here: with one event loop, an unrelated request waits its turn in one queue, as the model says",
                "every /probe/virtual waits its turn: while it waits, the load's answers number concurrency - carriers (±"
                        + Math.round(QueueModel.TOLERANCE * 100) + " %), in native and pinned at 50 and 2000 permits",
                one, p -> String.format(Locale.ROOT, "%s: model %s, waits %s to %s, %s in turn", p.name(),
                        WaitText.seconds(p.unrelatedWait().modelMillis()), WaitText.seconds(p.unrelatedWait().measured().minMillis()),
                        WaitText.seconds(p.unrelatedWait().measured().maxMillis()), WaitText.percent(p.unrelatedWait().withinTolerance())),
                p -> p.unrelatedWait().measured().count() > 0 && p.unrelatedWait().withinTolerance() == 1));
        findings.add(judge("Found here: with Quarkus' default event loops (one per processor), the wait depends on the event loop",
                String.format(Locale.ROOT, "slowest event loop's p50 >= %.0fx the fastest's, and >= %.0f %% of probes wait over twice the model,"
                        + " in native and pinned at 50 and 2000 permits", UNFAIR_SPREAD, UNFAIR_SHARE * 100),
                many, p -> String.format(Locale.ROOT, "%s: p50 by event loop %s to %s (%s), %s over 2x model %s", p.name(),
                        WaitText.seconds(fastest(p)), WaitText.seconds(slowest(p)), WaitText.times(p.unrelatedWait().slowestToFastestP50()),
                        WaitText.percent(p.unrelatedWait().overTwiceModel()), WaitText.seconds(2 * p.unrelatedWait().modelMillis())),
                p -> p.unrelatedWait().slowestToFastestP50() >= UNFAIR_SPREAD && p.unrelatedWait().overTwiceModel() >= UNFAIR_SHARE));
        findings.add(mitigation(phase));
        return findings;
    }

    /**
     * One event loop as a mitigation: it bounds the tail by the queue's length, and what it costs is
     * the throughput of requests the event loops themselves are the limit for (0 ms unpinned).
     */
    private static Finding mitigation(Function<String, Optional<PhaseReport>> phase) {
        String claim = "One event loop bounds an unrelated request's wait by the queue, not by how long the starvation lasts; its cost is throughput";
        String expected = "native: p99 with one event loop <= 1/2 of that with the default event loops, its p50 within ±15 % of the model;"
                + " unpinned throughput (100 ms and 0 ms) at one event loop, the default and eight, measured";
        Optional<PhaseReport> one = phase.apply("native-one-event-loop").filter(p -> p.unrelatedWait() != null);
        Optional<PhaseReport> many = phase.apply("native-default-event-loops").filter(p -> p.unrelatedWait() != null);
        if (one.isEmpty() || many.isEmpty()) {
            return new Finding(claim, expected, "not measured in this run", null);
        }
        UnrelatedWait single = one.get().unrelatedWait();
        UnrelatedWait several = many.get().unrelatedWait();
        StringBuilder measured = new StringBuilder(String.format(Locale.ROOT, "native p99 %s vs %s (%s), p50 %s vs %s, model %s",
                WaitText.seconds(single.measured().p99Millis()), WaitText.seconds(several.measured().p99Millis()),
                WaitText.times(single.measured().p99Millis() / several.measured().p99Millis()), WaitText.seconds(single.measured().p50Millis()),
                WaitText.seconds(several.measured().p50Millis()), WaitText.seconds(single.modelMillis())));
        for (String load : List.of("unpinned", "unpinned-0ms")) {
            List<String> rates = new ArrayList<>();
            for (String loops : List.of("one-event-loop", "default-event-loops", "eight-event-loops")) {
                phase.apply(load + "-" + loops).ifPresent(p -> rates.add(String.format(Locale.ROOT, "%.0f", p.throughputPerSecond())));
            }
            measured.append("; ").append(load).append(" req/s at 1 / default / 8 event loops: ").append(String.join(" / ", rates));
        }
        return new Finding(claim, expected, measured.toString(), single.measured().p99Millis() <= several.measured().p99Millis() / 2
                && QueueModel.matches(single.measured().p50Millis(), single.modelMillis()));
    }

    /** The distribution of the unrelated request's wait in one line, for the "waits seconds" finding. */
    static String distribution(PhaseReport phase) {
        ProbeDistribution d = phase.unrelatedWait().measured();
        return String.format(Locale.ROOT, "%s p10 / p50 / p90 / max %s / %s / %s / %s, %s over 3 s (model %s)", phase.name(),
                WaitText.seconds(d.p10Millis()), WaitText.seconds(d.p50Millis()), WaitText.seconds(d.p90Millis()),
                WaitText.seconds(d.maxMillis()), WaitText.percent(d.overThreeSeconds()), WaitText.seconds(phase.unrelatedWait().modelMillis()));
    }

    private static List<PhaseReport> waited(Function<String, Optional<PhaseReport>> phase, String eventLoops) {
        return SETTINGS.stream().map(name -> phase.apply(String.format(name, eventLoops))).flatMap(Optional::stream)
                .filter(p -> p.unrelatedWait() != null).toList();
    }

    private static Finding judge(String claim, String expected, List<PhaseReport> phases, Function<PhaseReport, String> measured,
            Predicate<PhaseReport> holds) {
        if (phases.size() < SETTINGS.size()) {
            return new Finding(claim, expected, phases.isEmpty() ? "not measured in this run"
                    : "only " + phases.stream().map(PhaseReport::name).collect(Collectors.joining(", ")) + " measured", null);
        }
        return new Finding(claim, expected, phases.stream().map(measured).collect(Collectors.joining("; ")), phases.stream().allMatch(holds));
    }

    private static double slowest(PhaseReport phase) {
        return phase.unrelatedWait().byEventLoop().values().stream().filter(d -> d.count() >= UnrelatedWait.MIN_PER_EVENT_LOOP)
                .mapToDouble(ProbeDistribution::p50Millis).max().orElse(Double.NaN);
    }

    private static double fastest(PhaseReport phase) {
        return phase.unrelatedWait().byEventLoop().values().stream().filter(d -> d.count() >= UnrelatedWait.MIN_PER_EVENT_LOOP)
                .mapToDouble(ProbeDistribution::p50Millis).min().orElse(Double.NaN);
    }
}
