package io.starvationlab.experiment.results;

import java.util.LinkedHashMap;
import java.util.Map;

import io.starvationlab.experiment.prometheus.PhaseWindow;
import io.starvationlab.experiment.run.MeasuredPhase;
import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.experiment.run.ThroughputModel;
import io.starvationlab.harness.load.Latencies;
import io.starvationlab.harness.load.PhaseResult;
import io.starvationlab.model.Plan;
import io.starvationlab.model.StarvationRule;

/**
 * One phase judged: its figures, the model limit they are compared with, and its verdict by the plan's
 * rule. Field names are stable: {@code report.json} is read by machines.
 *
 * @param modelLimitPerSecond what the lab's model says the throughput can be at most
 * @param modelBasis          which bound the model used: carriers, permits, concurrency, worker-pool or shared-lock
 * @param note                for a baseline that never came clean or a phase disturbed in every attempt, why; otherwise null
 * @param virtualProbeSlowdown the rule's probe percentile (/probe/virtual p50) divided by its baseline on the same JVM
 * @param unrelatedWait       the queue model's wait beside /probe/virtual's, overall and per event loop; null unless carrier-bound
 * @param requestWaitP99Millis    the requests' own wait for a carrier, p99 ({@code virtual.threads.carrier.wait{source=task}}), beside the canary's
 * @param requestMaxStalledMillis the longest a request was seen still waiting for a carrier ({@code virtual.threads.carrier.stalled{source=task}})
 */
public record JudgedPhase(String name, String jvm, String mode, String downstream, String lock, int ms, int concurrency,
        double seconds, double throughputPerSecond, double modelLimitPerSecond, String modelBasis, long requests,
        long errors, Map<String, Long> statuses, Map<String, ProbeFigures> probes, double virtualProbeSlowdown,
        double canaryP99Millis, double canaryMaxStalledMillis, double requestWaitP99Millis, double requestMaxStalledMillis,
        long pinnedEvents, String topPinnedFrame, String topPinnedReason, String verdict, String note, UnrelatedWait unrelatedWait) {

    public static final String STARVED = StarvationRule.STARVED;
    public static final String NOT_STARVED = StarvationRule.NOT_STARVED;
    public static final String BASELINE = PhaseWindow.BASELINE;

    /** One unrelated endpoint's latency in the phase. */
    public record ProbeFigures(double p50Millis, double p99Millis, double maxMillis, long count, long errors) {
        static ProbeFigures of(Latencies latencies) {
            return new ProbeFigures(latencies.percentileMillis(50), latencies.percentileMillis(99), latencies.maxMillis(),
                    latencies.count(), latencies.failed());
        }
    }

    /** A measured phase of {@code measured}, judged by {@code rule} against its baseline. */
    public static JudgedPhase of(MeasuredPhase record, MeasuredServer measured, StarvationRule rule) {
        Plan.Phase phase = record.phase();
        MeasuredServer.Info server = measured.info();
        PhaseResult baseline = measured.baseline();
        PhaseResult result = record.result();
        Map<String, ProbeFigures> probes = probes(result);
        double loaded = result.probe(rule.probe()).percentileMillis(rule.percentile());
        double idle = baseline.probe(rule.probe()).percentileMillis(rule.percentile());
        double slowdown = loaded / Math.max(idle, 0.1);
        boolean starved = result.starved(rule, baseline);
        Map<String, Long> statuses = new LinkedHashMap<>();
        result.load().latencies().statuses().forEach((status, count) -> statuses.put(status == 0 ? "no answer" : String.valueOf(status), count));
        ThroughputModel model = ThroughputModel.of(phase, server);
        return new JudgedPhase(phase.name(), record.server(), phase.mode(), phase.downstream(), phase.lock(), phase.ms(),
                phase.concurrency(), result.load().seconds(), result.throughput(), model.limit(), model.basis(),
                result.load().latencies().count(), result.load().latencies().failed(), statuses, probes, slowdown,
                result.canaryP99Millis(), result.maxStalledMillis(), result.requestWaitP99Millis(), result.maxRequestStalledMillis(),
                result.pinnedEvents(), result.topPinnedFrame(), result.topPinnedReason(), starved ? STARVED : NOT_STARVED,
                record.disturbed() == null ? null : "disturbed in every attempt: " + record.disturbed(), UnrelatedWait.of(phase, server, model, result));
    }

    public static JudgedPhase baseline(String jvm, PhaseResult result) {
        return new JudgedPhase(BASELINE + "@" + jvm, jvm, "none", "none", "none", 0, 0, 0, 0, 0, "none", 0, 0, Map.of(),
                probes(result), 1, result.canaryP99Millis(), result.maxStalledMillis(), result.requestWaitP99Millis(),
                result.maxRequestStalledMillis(), result.pinnedEvents(), result.topPinnedFrame(), result.topPinnedReason(), BASELINE,
                result.contamination() == null ? null : "contaminated: " + result.contamination(), null);
    }

    private static Map<String, ProbeFigures> probes(PhaseResult result) {
        Map<String, ProbeFigures> probes = new LinkedHashMap<>();
        result.probes().forEach((name, latencies) -> probes.put(name, ProbeFigures.of(latencies)));
        return probes;
    }

    public double throughputToModel() {
        return modelLimitPerSecond == 0 ? Double.NaN : throughputPerSecond / modelLimitPerSecond;
    }

    public boolean isBaseline() {
        return BASELINE.equals(verdict);
    }
}
