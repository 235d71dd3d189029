package io.starvationlab.harness.load;

import java.util.Map;

import io.starvationlab.model.StarvationRule;

/**
 * What one phase measured.
 *
 * @param load            the work requests, or null for a probes-only phase
 * @param probes          each unrelated endpoint's answers, by probe name
 * @param timeline        each probe, with when it was sent and its event loop, and when the load ran
 * @param canaryP99Millis p99 of {@code virtual.threads.carrier.wait{source=canary}} over the phase, from its histogram buckets
 * @param canaryProbes    canary observations in the phase
 * @param maxStalledMillis the largest {@code virtual.threads.carrier.stalled{source=canary}} sampled during the phase
 * @param requestWaitP99Millis p99 of {@code virtual.threads.carrier.wait{source=task}} over the phase: the requests' own wait for a carrier
 * @param maxRequestStalledMillis the largest {@code virtual.threads.carrier.stalled{source=task}} sampled during the phase
 * @param pinnedEvents    pinned episodes {@code /lab/pinning} recorded during the phase
 * @param topPinnedFrame  the frame with most pinned time in the phase, or null
 * @param topPinnedReason its reason
 * @param contamination   for a baseline that was not clean, why; otherwise null
 */
public record PhaseResult(String name, ClosedLoad.Result load, Map<String, Latencies> probes, ProbeTimeline timeline, double canaryP99Millis,
        double canaryProbes, double maxStalledMillis, double requestWaitP99Millis, double maxRequestStalledMillis, long pinnedEvents,
        String topPinnedFrame, String topPinnedReason, long topPinnedCount, String contamination) {

    /** The same result, marked as a baseline that still saw something hold the carriers. */
    public PhaseResult contaminated(String why) {
        return new PhaseResult(name, load, probes, timeline, canaryP99Millis, canaryProbes, maxStalledMillis, requestWaitP99Millis,
                maxRequestStalledMillis, pinnedEvents, topPinnedFrame, topPinnedReason, topPinnedCount, why);
    }

    public Latencies probe(String name) {
        Latencies latencies = probes.get(name);
        if (latencies == null) {
            throw new IllegalArgumentException("no probe " + name + " in " + probes.keySet());
        }
        return latencies;
    }

    /** Whether this phase starved the service by the plan's rule, against {@code baseline} on the same server. */
    public boolean starved(StarvationRule rule, PhaseResult baseline) {
        return rule.starved(probe(rule.probe()).percentileMillis(rule.percentile()), baseline.probe(rule.probe()).percentileMillis(rule.percentile()));
    }

    public double throughput() {
        return load == null ? 0 : load.throughput();
    }
}
