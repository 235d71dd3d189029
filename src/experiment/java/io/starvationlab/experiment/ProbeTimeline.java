package io.starvationlab.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;

import io.starvationlab.experiment.load.ProbeSample;

/**
 * Every probe of a phase with when it was sent, and when the phase's load started and stopped
 * ({@link System#nanoTime()}; equal when the phase had no load).
 */
public record ProbeTimeline(Map<String, ? extends Queue<ProbeSample>> samples, long loadStartedNanos, long loadStoppedNanos) {

    /** The probes of {@code probe} sent while the load ran, from {@code settle} after it started until it stopped. */
    public List<ProbeSample> duringLoad(String probe, Duration settle) {
        Queue<ProbeSample> all = samples.get(probe);
        if (all == null) {
            return List.of();
        }
        long from = loadStartedNanos + settle.toNanos();
        return all.stream().filter(sample -> sample.sentAtNanos() >= from && sample.sentAtNanos() <= loadStoppedNanos).toList();
    }
}
