package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

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
