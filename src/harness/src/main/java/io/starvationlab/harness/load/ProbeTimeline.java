package io.starvationlab.harness.load;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;


/**
 * Every probe of a phase with when it was sent, when the phase's load started and stopped, and when
 * each of its requests was answered ({@link System#nanoTime()}; start and stop equal when the phase
 * had no load).
 */
public record ProbeTimeline(Map<String, ? extends Queue<ProbeSample>> samples, long loadStartedNanos, long loadStoppedNanos,
        long[] loadAnsweredNanos) {

    /** When each of the load's requests was answered, sorted; empty where the load did not keep its answers. */
    public static long[] answeredAt(ClosedLoad.Result load) {
        return load == null ? new long[0]
                : load.outcomes().stream().mapToLong(o -> o.startedAtNanos() + o.millis() * 1_000_000).sorted().toArray();
    }

    /** How many of the load's requests were answered after {@code fromNanos} and by {@code toNanos}; -1 when unknown. */
    public int answeredBetween(long fromNanos, long toNanos) {
        return loadAnsweredNanos.length == 0 ? -1 : between(loadAnsweredNanos, fromNanos, toNanos);
    }

    /** How many of {@code sorted} fall in ({@code from}, {@code to}]. */
    static int between(long[] sorted, long from, long to) {
        return firstAfter(sorted, to) - firstAfter(sorted, from);
    }

    private static int firstAfter(long[] sorted, long nanos) {
        int low = 0;
        int high = sorted.length;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (sorted[middle] <= nanos) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

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
