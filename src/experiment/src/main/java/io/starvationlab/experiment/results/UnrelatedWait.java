package io.starvationlab.experiment.results;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.experiment.run.ThroughputModel;
import io.starvationlab.harness.load.PhaseResult;
import io.starvationlab.model.Plan;

/**
 * The wait of the unrelated {@code /probe/virtual} in a phase whose load holds the carriers: the queue model beside the
 * probes sent from {@link #SETTLE} after the load started until it stopped, overall and per event loop
 * ({@code docs/event-loops.md}; each figure's meaning: {@code docs/results.md}, "The unrelated request's wait").
 *
 * @param modelMillis NaN, and nothing judged against it, when the load ran under half its limit: the carriers were stuck, not queueing
 * @param probes      every probe counted: seconds after the load started, wait, status, event loop
 */
public record UnrelatedWait(double modelMillis, double idealMillis, int ahead, ProbeDistribution measured,
        Map<String, ProbeDistribution> byEventLoop, double withinTolerance, int[] servedWhileWaiting, double overTwiceModel,
        double[] slowAnsweredAfterStop, double slowestToFastestP50, List<Probe> probes) {

    public static final Duration SETTLE = Duration.ofSeconds(1);
    public static final int MIN_PER_EVENT_LOOP = 10;
    static final String PROBE = "virtual";
    /** Event loops by their number ("vert.x-eventloop-thread-3", "3"), anything else last. */
    static final Comparator<String> BY_EVENT_LOOP = Comparator.comparingInt(UnrelatedWait::loopNumber).thenComparing(Comparator.naturalOrder());

    /** One probe; {@code eventLoop} "none" when nothing answered; {@code served} the load's answers while it waited, -1 where unknown. */
    public record Probe(double sentSeconds, double waitMillis, int status, String eventLoop, int served) {
    }

    /** The wait in a carrier-bound phase; null for any other (the model is about a queue for the carriers). */
    static UnrelatedWait of(Plan.Phase phase, MeasuredServer.Info server, ThroughputModel model, PhaseResult result) {
        if (!"carriers".equals(model.basis()) || result.timeline() == null) {
            return null;
        }
        // carriers that serve under half their limit are stuck, not queueing (native on the database's I/O pollers): no model
        double modelMillis = result.throughput() < model.limit() / 2 ? Double.NaN
                : QueueModel.waitMillis(phase.concurrency(), server.carriers(), result.throughput());
        List<Probe> probes = result.timeline().duringLoad(PROBE, SETTLE).stream().map(sample -> new Probe((sample.sentAtNanos()
                - result.timeline().loadStartedNanos()) / 1e9, sample.latencyMillis(), sample.status(), sample.eventLoop() == null ? "none" : sample.eventLoop(),
                result.timeline().answeredBetween(sample.sentAtNanos(), sample.sentAtNanos() + sample.latencyNanos())))
                .sorted(Comparator.comparingDouble(Probe::sentSeconds)).toList();
        double loadSeconds = (result.timeline().loadStoppedNanos() - result.timeline().loadStartedNanos()) / 1e9;
        return of(modelMillis, QueueModel.idealWaitMillis(phase.concurrency(), server.carriers(), phase.ms()),
                QueueModel.ahead(phase.concurrency(), server.carriers()), probes, loadSeconds);
    }

    public static UnrelatedWait of(double modelMillis, double idealMillis, int ahead, List<Probe> probes) {
        return of(modelMillis, idealMillis, ahead, probes, Double.NaN);
    }

    static UnrelatedWait of(double modelMillis, double idealMillis, int ahead, List<Probe> probes, double loadSeconds) {
        Map<String, ProbeDistribution> byEventLoop = probes.stream().collect(Collectors.groupingBy(Probe::eventLoop, () -> new TreeMap<>(BY_EVENT_LOOP),
                Collectors.collectingAndThen(Collectors.toList(), UnrelatedWait::distribution)));
        long within = probes.stream().filter(probe -> probe.served() < 0 ? QueueModel.matches(probe.waitMillis(), modelMillis)
                : QueueModel.matches(probe.served(), ahead)).count();
        int[] served = probes.stream().mapToInt(Probe::served).filter(n -> n >= 0).sorted().toArray();
        double[] slowAnswered = probes.stream().filter(probe -> probe.waitMillis() > 2 * modelMillis)
                .mapToDouble(probe -> probe.sentSeconds() + probe.waitMillis() / 1000 - loadSeconds).sorted().toArray();
        return new UnrelatedWait(modelMillis, idealMillis, ahead, distribution(probes), byEventLoop,
                probes.isEmpty() || Double.isNaN(modelMillis) ? Double.NaN : within / (double) probes.size(),
                served.length == 0 ? null : new int[] { served[0], served[(served.length - 1) / 2], served[served.length - 1] },
                probes.isEmpty() ? Double.NaN : slowAnswered.length / (double) probes.size(),
                slowAnswered.length == 0 || Double.isNaN(loadSeconds) ? null
                        : new double[] { slowAnswered[0], slowAnswered[(slowAnswered.length - 1) / 2], slowAnswered[slowAnswered.length - 1] },
                p50(byEventLoop, true) / p50(byEventLoop, false), List.copyOf(probes));
    }

    /** The slowest ({@code slowest}) or fastest event loop's p50, of those with at least {@link #MIN_PER_EVENT_LOOP} probes. */
    public double eventLoopP50(boolean slowest) {
        return p50(byEventLoop, slowest);
    }

    private static double p50(Map<String, ProbeDistribution> byEventLoop, boolean slowest) {
        var p50s = byEventLoop.values().stream().filter(d -> d.count() >= MIN_PER_EVENT_LOOP).mapToDouble(ProbeDistribution::p50Millis);
        return (slowest ? p50s.max() : p50s.min()).orElse(Double.NaN);
    }

    /** The event loops that answered probes, not counting "none". */
    public int eventLoopsSeen() {
        return (int) byEventLoop.keySet().stream().filter(loop -> !"none".equals(loop)).count();
    }

    private static ProbeDistribution distribution(List<Probe> probes) {
        return ProbeDistribution.of(probes.stream().map(Probe::waitMillis).toList(), (int) probes.stream().filter(p -> p.status() != 200).count());
    }

    /** "vert.x-eventloop-thread-3" → 3, "3" → 3, so that event loops sort by number; anything else last. */
    static int loopNumber(String name) {
        int dash = name.lastIndexOf('-');
        try {
            return Integer.parseInt(name.substring(dash + 1));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    /** "vert.x-eventloop-thread-3" → "el-3", for tables and legends. */
    public static String shortName(String name) {
        int number = loopNumber(name);
        return number == Integer.MAX_VALUE ? name : "el-" + number;
    }
}
