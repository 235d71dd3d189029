package io.starvationlab.experiment.findings;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.QueueModel;

/**
 * The findings on the unrelated request's wait: with one event loop it waits its turn in one queue,
 * as the model says; with several, the event loops' queues are not served alike.
 */
final class EventLoopFindings {

    /** The share of probes that must wait more than twice the model for a phase to count as unfair. */
    static final double UNFAIR_SHARE = 0.10;
    /** How many times the fastest event loop's p50 the slowest one's must be. */
    static final double UNFAIR_SPREAD = 3;
    /** native and pinned at 50 and 2000 permits, with one event loop. */
    static final List<String> ONE = List.of("native-one-event-loop", "pinned-one-event-loop", "native-one-event-loop-wide-permits",
            "pinned-one-event-loop-wide-permits");
    /** The same with Quarkus' default event loops (native at 50 permits on the default JVM: native pins whatever the locking mode). */
    static final List<String> DEFAULT = List.of("native", "pinned-legacy-locking", "native-default-event-loops-wide-permits",
            "pinned-default-event-loops-wide-permits");
    static final Claim IN_TURN = new Claim("one-event-loop-waits-in-turn", "Found here: with one event loop, an unrelated request waits its turn in"
            + " one queue, as the model says", "every /probe/virtual waits its turn: while it waits, the load's answers number concurrency - carriers (±"
                    + Math.round(QueueModel.TOLERANCE * 100) + " %), in native and pinned at 50 and 2000 permits");
    static final Claim UNFAIR = new Claim("several-event-loops-unfair", "Found here: with several event loops (Quarkus' default: one per processor),"
            + " the wait depends on the event loop, in some runs", String.format(Locale.ROOT, "unfair (slowest event loop's p50 >= %.0fx the"
                    + " fastest's, and >= %.0f %% of probes over twice the model) in at least one of the phases with several event loops, in none with"
                    + " one", UNFAIR_SPREAD, UNFAIR_SHARE * 100));
    /**
     * What one event loop may cost: the throughput of requests the event loops themselves limit (0 ms), as a share of
     * the default's. Over eight full runs here it read 0.60x to 1.10x (two cores shared by the load and the service, a 4 s
     * window each, on JVMs started minutes apart), so the bound is what the runs support, not "no cost".
     */
    static final double LEAST_THROUGHPUT_SHARE = 0.5;
    static final Claim MITIGATION = new Claim("one-event-loop-bounds-the-tail", "One event loop bounds the tail by the queue, not by how long the"
            + " starvation lasts, and leaves the median; what it costs is the throughput of requests the event loops themselves limit", String.format(
                    Locale.ROOT, "worst /probe/virtual p99 with one event loop <= 1/2 of the worst with several; unpinned 0 ms throughput at one event"
                            + " loop >= %.2fx the default's, its cost measured (2 cores shared by load and service: more cores may differ)",
                    LEAST_THROUGHPUT_SHARE));

    private EventLoopFindings() {
    }

    static List<Finding> evaluate(Function<String, Optional<JudgedPhase>> phase) {
        List<JudgedPhase> one = waited(phase, ONE);
        List<JudgedPhase> several = waited(phase, DEFAULT);
        phase.apply("native-eight-event-loops").filter(p -> p.unrelatedWait() != null).ifPresent(several::add);
        Finding inTurn = one.size() < ONE.size() ? missing(IN_TURN, one) : IN_TURN.judged(one.stream().map(p -> String.format(Locale.ROOT,
                "%s: model %s, waits %s to %s, %s in turn", p.name(), Figures.seconds(p.unrelatedWait().modelMillis()),
                Figures.seconds(p.unrelatedWait().measured().minMillis()), Figures.seconds(p.unrelatedWait().measured().maxMillis()),
                Figures.percent(p.unrelatedWait().withinTolerance()))).collect(Collectors.joining("; ")),
                one.stream().allMatch(p -> p.unrelatedWait().measured().count() > 0 && p.unrelatedWait().withinTolerance() == 1));
        return List.of(inTurn, unfair(one, several), mitigation(phase, one, several));
    }

    /** Whether a phase's wait depends on the event loop: the spread of their medians, and a share far past the model. */
    static boolean unfair(JudgedPhase phase) {
        return phase.unrelatedWait().slowestToFastestP50() >= UNFAIR_SPREAD && phase.unrelatedWait().overTwiceModel() >= UNFAIR_SHARE;
    }

    /**
     * Unfairness comes and goes between runs of the same phase (which queues the carriers keep serving is
     * not decided by the load), so the finding is that it appears with several event loops and never with one.
     */
    private static Finding unfair(List<JudgedPhase> one, List<JudgedPhase> several) {
        if (one.size() < ONE.size() || several.size() < DEFAULT.size()) {
            return missing(UNFAIR, several);
        }
        long unfairSeveral = several.stream().filter(EventLoopFindings::unfair).count();
        long unfairOne = one.stream().filter(EventLoopFindings::unfair).count();
        return UNFAIR.judged(String.format(Locale.ROOT, "unfair in %d of %d phases with several event loops, %d of %d with one: %s", unfairSeveral,
                several.size(), unfairOne, one.size(), several.stream().map(p -> String.format(Locale.ROOT, "%s p50 by event loop %s to %s (%s), %s over"
                        + " 2x model", p.name(), Figures.seconds(p.unrelatedWait().eventLoopP50(false)), Figures.seconds(p.unrelatedWait().eventLoopP50(true)),
                        Figures.times(p.unrelatedWait().slowestToFastestP50()), Figures.percent(p.unrelatedWait().overTwiceModel())))
                        .collect(Collectors.joining("; "))), unfairSeveral >= 1 && unfairOne == 0);
    }

    /**
     * One event loop as a mitigation: it bounds the tail by the queue, leaves the median where the queue
     * puts it, and what it could cost is the throughput of requests the event loops themselves limit (0 ms).
     */
    private static Finding mitigation(Function<String, Optional<JudgedPhase>> phase, List<JudgedPhase> one, List<JudgedPhase> several) {
        Optional<JudgedPhase> fast1 = phase.apply("unpinned-0ms-one-event-loop");
        Optional<JudgedPhase> fastDefault = phase.apply("unpinned-0ms-default-event-loops");
        if (one.size() < ONE.size() || several.size() < DEFAULT.size() || fast1.isEmpty() || fastDefault.isEmpty()) {
            return missing(MITIGATION, one);
        }
        Comparator<JudgedPhase> byP99 = Comparator.comparingDouble(p -> p.unrelatedWait().measured().p99Millis());
        JudgedPhase worstOne = one.stream().max(byP99).orElseThrow();
        JudgedPhase worstSeveral = several.stream().max(byP99).orElseThrow();
        double ratio = fast1.get().throughputPerSecond() / fastDefault.get().throughputPerSecond();
        return MITIGATION.judged(String.format(Locale.ROOT, "worst p99 %s (%s) vs %s (%s); p50 %s to %s with one, %s to %s with several;"
                + " unpinned 0 ms: %.0f req/s at one event loop, %.0f at the default (%.2fx: one event loop costs %s)%s",
                Figures.seconds(worstOne.unrelatedWait().measured().p99Millis()), worstOne.name(),
                Figures.seconds(worstSeveral.unrelatedWait().measured().p99Millis()), worstSeveral.name(), Figures.seconds(p50(one, false)),
                Figures.seconds(p50(one, true)), Figures.seconds(p50(several, false)), Figures.seconds(p50(several, true)),
                fast1.get().throughputPerSecond(), fastDefault.get().throughputPerSecond(), ratio, Figures.percent(Math.max(0, 1 - ratio)), phase.apply("unpinned-0ms-eight-event-loops")
                        .map(p -> String.format(Locale.ROOT, ", %.0f at eight", p.throughputPerSecond())).orElse("")),
                worstOne.unrelatedWait().measured().p99Millis() <= worstSeveral.unrelatedWait().measured().p99Millis() / 2
                        && ratio >= LEAST_THROUGHPUT_SHARE);
    }

    /** The highest ({@code max}) or lowest p50 of the unrelated request's wait among {@code phases}. */
    private static double p50(List<JudgedPhase> phases, boolean max) {
        var p50s = phases.stream().mapToDouble(p -> p.unrelatedWait().measured().p50Millis());
        return (max ? p50s.max() : p50s.min()).orElse(Double.NaN);
    }

    private static Finding missing(Claim claim, List<JudgedPhase> measured) {
        return measured.isEmpty() ? claim.notMeasured()
                : claim.notJudged("only " + measured.stream().map(JudgedPhase::name).collect(Collectors.joining(", ")) + " measured");
    }

    private static List<JudgedPhase> waited(Function<String, Optional<JudgedPhase>> phase, List<String> names) {
        return new ArrayList<>(names.stream().map(phase).flatMap(Optional::stream).filter(p -> p.unrelatedWait() != null).toList());
    }
}
