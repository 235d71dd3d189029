package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which virtual threads waited for a carrier, and how long, as successive thread dumps show it: a thread seen waiting from one
 * dump to a later one waited at least from the first sighting to the last (a lower bound: it waited before the first dump that
 * saw it, and a dump sees no thread that waited less than the time between two); and how many waited in each dump, which with
 * the rate they start at gives their mean wait ({@link Observation#meanWait()}). On JDK 21 a waiting thread is one never run yet;
 * on JDK 25+, whose dumps record states, also one waiting to continue.
 */
final class CarrierWaits {

    /** The name of the starvation meter's canary probes: one at a time, through a queue of their own, not the work's wait. */
    static final String CANARY = "carrier-canary-probe";

    /**
     * One virtual thread's wait for a carrier, as far as the dumps saw it.
     *
     * @param ongoing still waiting at the last dump
     */
    record Wait(long threadId, String name, Duration atLeast, boolean ongoing) {

        boolean canary() {
            return CANARY.equals(name);
        }
    }

    /**
     * What the dumps showed, fixed once the sampling ended.
     *
     * @param dumps           the dumps read
     * @param workWaiting     the virtual threads but the meter's canary probes waiting in each dump, on average
     * @param work            the waits of every virtual thread but the meter's canary probes
     * @param canary          the canary probes' waits
     * @param pollerSightings poller virtual threads seen waiting (JDK 22+ with virtual pollers)
     */
    record Seen(int dumps, double workWaiting, List<Wait> work, List<Wait> canary, int pollerSightings) {

        /** Whether a wait could be timed: two dumps at least. */
        boolean timed() {
            return dumps >= 2;
        }

        /** The longest wait of the work that the dumps prove, a lower bound; zero when none. */
        Duration longestAtLeast() {
            return work.stream().map(Wait::atLeast).max(Comparator.naturalOrder()).orElse(Duration.ZERO);
        }
    }

    private record Streak(String name, Instant first, Instant last) {
    }

    private final Map<Long, Streak> waiting = new HashMap<>();
    private final List<Wait> ended = new ArrayList<>();
    private int dumps;
    private long workWaiting;
    private int pollerSightings;

    /** One dump: every thread now waiting, with the time it was seen; those no longer waiting have ended theirs. */
    void observe(ThreadDump dump) {
        Set<Long> seen = new HashSet<>();
        for (ThreadDump.Thread thread : dump.threads()) {
            if (!thread.waitingForCarrier(dump.recordsState())) {
                continue;
            }
            seen.add(thread.id());
            if (thread.name().contains("Poller")) {
                pollerSightings++;
            }
            if (!CANARY.equals(thread.name())) {
                workWaiting++;
            }
            Streak streak = waiting.get(thread.id());
            waiting.put(thread.id(), streak == null ? new Streak(thread.name(), thread.time(), thread.time())
                    : new Streak(streak.name(), streak.first(), thread.time()));
        }
        waiting.entrySet().removeIf(entry -> {
            if (seen.contains(entry.getKey())) {
                return false;
            }
            Streak s = entry.getValue();
            ended.add(new Wait(entry.getKey(), s.name(), Duration.between(s.first(), s.last()), false));
            return true;
        });
        dumps++;
    }

    /** Every wait seen: those that ended while watched, and those still going at the last dump, counted so far. */
    Seen seen() {
        List<Wait> all = new ArrayList<>(ended);
        waiting.forEach((id, s) -> all.add(new Wait(id, s.name(), Duration.between(s.first(), s.last()), true)));
        return new Seen(dumps, dumps == 0 ? Double.NaN : workWaiting / (double) dumps, all.stream().filter(w -> !w.canary()).toList(),
                all.stream().filter(Wait::canary).toList(), pollerSightings);
    }
}
