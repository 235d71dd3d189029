package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Everything the sampling saw: the samples in order, the waits, and the stacks of mounted virtual threads by frame. */
final class Observation {

    final Instant start;
    final List<Sample> samples = new ArrayList<>();
    final CarrierWaits waits = new CarrierWaits();
    final FrameGroups pinnedInDumps;
    final FrameGroups runningInDumps;
    /** Why thread dumps were not read, or null when they were. */
    String noThreadDumps;
    /** Whether the dumps recorded states, carriers and owned monitors (JDK 25+). */
    boolean dumpsRecordState;
    int dumps;
    /** Poller virtual threads seen waiting for a carrier (JDK 22+ with virtual pollers). */
    int pollersWaiting;
    String carrierPool;
    Instant end;

    Observation(Instant start, Stacks stacks) {
        this.start = start;
        this.pinnedInDumps = new FrameGroups(stacks);
        this.runningInDumps = new FrameGroups(stacks);
    }

    Duration length() {
        return Duration.between(start, end == null ? Instant.now() : end);
    }

    boolean hasThreadDumps() {
        return noThreadDumps == null && dumps > 0;
    }
}
