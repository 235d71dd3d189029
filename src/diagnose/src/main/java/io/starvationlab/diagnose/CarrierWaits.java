package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * How long virtual threads waited for a carrier, as successive thread dumps show it: a thread seen
 * waiting in consecutive dumps waited at least from the first sighting to the last. A lower bound: it
 * waited before the first dump that saw it, and a dump sees no thread that waited less than the interval.
 */
final class CarrierWaits {

    /** The longest wait seen: its thread, its length so far, and whether it still went on at the last dump. */
    record Longest(long threadId, String threadName, Duration atLeast, boolean ongoing) {
    }

    private record Sighting(Instant first, Instant last, String name) {
    }

    private final Map<Long, Sighting> waiting = new HashMap<>();
    private Longest longest = new Longest(-1, "", Duration.ZERO, false);

    /** One dump: every thread now waiting, with the time it was seen. */
    void observe(ThreadDump dump) {
        Set<Long> seen = new HashSet<>();
        for (ThreadDump.Thread thread : dump.threads()) {
            if (!thread.waitingForCarrier(dump.recordsState())) {
                continue;
            }
            seen.add(thread.id());
            Sighting sighting = waiting.get(thread.id());
            Sighting now = sighting == null ? new Sighting(thread.time(), thread.time(), thread.name())
                    : new Sighting(sighting.first(), thread.time(), sighting.name());
            waiting.put(thread.id(), now);
            Duration length = Duration.between(now.first(), now.last());
            if (length.compareTo(longest.atLeast()) > 0) {
                longest = new Longest(thread.id(), now.name(), length, true);
            }
        }
        waiting.keySet().retainAll(seen);
        if (longest.ongoing() && !seen.contains(longest.threadId())) {
            longest = new Longest(longest.threadId(), longest.threadName(), longest.atLeast(), false);
        }
    }

    Longest longest() {
        return longest;
    }
}
