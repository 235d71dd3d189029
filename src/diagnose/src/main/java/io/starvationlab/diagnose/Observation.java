package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Everything the sampling saw: the samples in order, the waits, what held the carriers, and what the thread dumps cost. */
final class Observation {

    final Instant start;
    final List<Sample> samples = new ArrayList<>();
    final CarrierWaits waits = new CarrierWaits();
    /** The stacks of mounted virtual threads by what held their carriers, one per carrier and sample that showed one. */
    final Holds mounted = new Holds();
    /** Whether {@code Thread.print} showed the stacks of mounted virtual threads (JDK 25+). */
    boolean printShowsMounted;
    /** Why thread dumps were not read, or null when they were. */
    String noThreadDumps;
    /** Whether the dumps recorded states, carriers and owned monitors (JDK 25+). */
    boolean dumpsRecordState;
    int dumps;
    int prints;
    /** The CPU this tool's own JVM used up to the report, or null where the OS does not say. */
    Duration ownCpu;
    /** What the dumps cost here and in the target: the time from asking for one to having read it, summed. */
    Duration dumpTime = Duration.ZERO;
    /** The threads of the largest dump. */
    int dumpThreads;
    /** Poller virtual threads seen waiting for a carrier (JDK 22+ with virtual pollers). */
    int pollersWaiting;
    String carrierPool;
    Instant end;

    Observation(Instant start) {
        this.start = start;
    }

    Duration length() {
        return Duration.between(start, end == null ? Instant.now() : end);
    }

    boolean hasThreadDumps() {
        return noThreadDumps == null && dumps > 0;
    }
}
