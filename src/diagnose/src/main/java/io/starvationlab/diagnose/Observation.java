package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Everything the sampling saw, fixed once it ended ({@link Sampler#observe}): the JVM, its carriers over time, what held them,
 * how long virtual threads waited for one, what JFR recorded, and what the looking cost. The verdict is judged from it alone.
 *
 * @param target      how the JVM was reached ("pid 42", "JMX host:9010")
 * @param samples     the carriers at each sample, in order
 * @param carrierPool the worker-name prefix of the scheduler's pool, or null when no carrier was seen carrying
 * @param mounted     the stacks of mounted virtual threads by what held their carriers, one per carrier and sample that showed one
 * @param waits       the waits for a carrier the thread dumps showed
 * @param recorded    what JFR recorded
 * @param sampling    how the JVM was looked at, and what that cost
 */
record Observation(String target, TargetJvm.Facts facts, SchedulerSettings scheduler, Instant start, Instant end, List<Sample> samples,
        String carrierPool, Holds mounted, CarrierWaits.Seen waits, FlightRecording.Recorded recorded, Sampling sampling) {

    /**
     * How the JVM was looked at.
     *
     * @param prints            the {@code Thread.print}s taken
     * @param dumpTime          the time from asking for a dump to having read it, summed over the dumps
     * @param dumpThreads       the threads of the largest dump
     * @param dumpsRecordState  whether the dumps recorded states, carriers and owned monitors (JDK 25+)
     * @param printShowsMounted whether {@code Thread.print} showed the stacks of mounted virtual threads (JDK 25+)
     * @param noThreadDumps     why thread dumps were not read, or null when they were
     * @param ownCpu            the CPU this tool's own JVM used, or null where the OS does not say
     */
    record Sampling(int prints, Duration dumpTime, int dumpThreads, boolean dumpsRecordState, boolean printShowsMounted, String noThreadDumps,
            Duration ownCpu) {
    }

    /**
     * The work's mean wait for a carrier by Little's law: the virtual threads waiting on average over the rate they started at
     * while JFR recorded starts (every carrier taken with threads queued). The waiting are counted by the scheduler MXBean's queue
     * (JDK 24+) or else by the thread dumps, which like JFR's starts leave the meter's canary probes out.
     *
     * @param mean          the mean wait; null where the waiting were not counted while starts were recorded
     * @param waiting       virtual threads waiting for a carrier, on average; NaN where never recorded
     * @param perSecond     virtual threads started a second while recorded; NaN where never recorded
     * @param counted       what counted the waiting
     * @param missesThreads whether that count misses threads waiting to continue (JDK 21's dumps)
     */
    record MeanWait(Duration mean, double waiting, double perSecond, double seconds, String counted, boolean missesThreads) {

        /** No start in the span recorded: the mean is at least that span, a lower bound that cannot show a wait shorter than the threshold. */
        boolean lowerBound() {
            return perSecond == 0 && waiting >= 1;
        }

        String describe() {
            if (Double.isNaN(perSecond)) {
                return "none, by " + counted + ": never every carrier taken with virtual threads queued";
            }
            if (mean == null) {
                return String.format(Locale.ROOT, "not measured: %s was not read while JFR recorded starts (%.1f s)", counted, seconds);
            }
            if (perSecond > 0) {
                return String.format(Locale.ROOT, "by Little's law: %.1f waiting on average %s, %.1f virtual threads started a second (JFR, over %.1f s"
                        + " while every carrier was taken)", waiting, counted, perSecond, seconds);
            }
            return String.format(Locale.ROOT, "%s: %.1f waiting on average %s, and no virtual thread started in %.1f s recorded while every carrier"
                    + " was taken", waiting >= 1 ? "at least" : "none seen", waiting, counted, seconds);
        }
    }

    /** The mean wait as {@link MeanWait} says; empty where JFR recorded no starts or nothing counted the waiting. */
    Optional<MeanWait> meanWait() {
        FlightRecording.Starts starts = recorded.starts();
        boolean queue = !samples.isEmpty() && samples.stream().allMatch(s -> s.queued() != null);
        if (starts == null || !queue && !hasThreadDumps()) {
            return Optional.empty();
        }
        String counted = queue ? "in the scheduler MXBean's queue" : dumps() == 1 ? "in 1 thread dump" : "in " + dumps() + " thread dumps";
        if (starts.spans().isEmpty()) {
            return Optional.of(new MeanWait(Duration.ZERO, Double.NaN, Double.NaN, 0, queue ? "the scheduler MXBean" : "the thread dumps", false));
        }
        double waiting = queue ? Sample.mean(samples, end, s -> starts.covers(s.at()), Sample::queued) : waits.workWaiting();
        double rate = starts.perSecond();
        // a busy machine can leave a span with no read of the queue: the wait is then not measured, never 0
        Duration mean = Double.isNaN(waiting) ? null : rate > 0 ? Duration.ofNanos((long) (waiting / rate * 1e9))
                : waiting >= 1 ? Duration.ofNanos((long) (starts.seconds() * 1e9)) : Duration.ZERO;
        return Optional.of(new MeanWait(mean, waiting, rate, starts.seconds(), counted, !queue && !sampling.dumpsRecordState()));
    }

    Duration length() {
        return Duration.between(start, end);
    }

    int dumps() {
        return waits.dumps();
    }

    boolean hasThreadDumps() {
        return sampling.noThreadDumps() == null && dumps() > 0;
    }

    int parallelism() {
        return scheduler.parallelism();
    }
}
