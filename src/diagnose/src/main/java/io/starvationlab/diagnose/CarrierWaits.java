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
 * How long virtual threads waited for a carrier, as successive thread dumps show it. A thread seen waiting from one dump to a
 * later one waited at least from the first sighting to the last, and at most from the dump before the first (which did not
 * see it waiting) to the dump after the last (which no longer did); where there was one. On JDK 21 a waiting thread is one never
 * run yet, so a wait cannot end and begin again between two dumps; on JDK 25+, whose dumps count a thread waiting to continue,
 * it can, and the bounds then hold for the sum.
 */
final class CarrierWaits {

    /** The name of the starvation meter's canary probes: one at a time, through a queue of their own, not the work's wait. */
    static final String CANARY = "carrier-canary-probe";

    /**
     * One virtual thread's wait for a carrier.
     *
     * @param atMost  the longest it can have been; null where no dump came before the first sighting, or it still went on
     * @param ongoing still waiting at the last dump
     */
    record Wait(long threadId, String name, Duration atLeast, Duration atMost, boolean ongoing) {

        /** The middle of what the dumps allow, or where they allow no longest, what was seen. */
        Duration estimate() {
            return atMost == null ? atLeast : atLeast.plus(atMost).dividedBy(2);
        }

        boolean canary() {
            return CANARY.equals(name);
        }
    }

    /**
     * What the dumps showed, fixed once the sampling ended.
     *
     * @param dumps          the dumps read
     * @param work           the waits of every virtual thread but the meter's canary probes
     * @param canary         the canary probes' waits
     * @param pollerSightings poller virtual threads seen waiting (JDK 22+ with virtual pollers)
     */
    record Seen(int dumps, Duration meanApart, List<Wait> work, List<Wait> canary, int pollerSightings) {

        static final Seen NONE = new Seen(0, Duration.ZERO, List.of(), List.of(), 0);

        /** Whether a wait could be timed: two dumps at least. */
        boolean timed() {
            return dumps >= 2;
        }

        /** The longest wait of the work that the dumps prove, a lower bound; zero when none. */
        Duration longestAtLeast() {
            return work.stream().map(Wait::atLeast).max(Comparator.naturalOrder()).orElse(Duration.ZERO);
        }

        /** The {@code q} quantile (0 to 1, nearest rank) of the work's waits by {@link Wait#estimate()}; null when none waited. */
        Duration quantile(double q) {
            List<Duration> sorted = work.stream().map(Wait::estimate).sorted().toList();
            return sorted.isEmpty() ? null : sorted.get(Math.max(0, (int) Math.ceil(q * sorted.size()) - 1));
        }

        long ongoing() {
            return work.stream().filter(Wait::ongoing).count();
        }
    }

    private record Streak(String name, Instant before, Instant first, Instant last) {
    }

    private final Map<Long, Streak> waiting = new HashMap<>();
    private final List<Wait> ended = new ArrayList<>();
    private Instant firstDump;
    private Instant lastDump;
    private int dumps;
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
            Streak streak = waiting.get(thread.id());
            waiting.put(thread.id(), streak == null ? new Streak(thread.name(), lastDump, thread.time(), thread.time())
                    : new Streak(streak.name(), streak.before(), streak.first(), thread.time()));
        }
        Instant after = dump.end();
        waiting.entrySet().removeIf(entry -> {
            if (seen.contains(entry.getKey())) {
                return false;
            }
            Streak s = entry.getValue();
            ended.add(new Wait(entry.getKey(), s.name(), Duration.between(s.first(), s.last()), s.before() == null ? null : Duration.between(s.before(), after),
                    false));
            return true;
        });
        firstDump = firstDump == null ? dump.time() : firstDump;
        lastDump = dump.time();
        dumps++;
    }

    /** Every wait seen: those that ended while watched, and those still going at the last dump, counted so far. */
    Seen seen() {
        List<Wait> all = new ArrayList<>(ended);
        waiting.forEach((id, s) -> all.add(new Wait(id, s.name(), Duration.between(s.first(), s.last()), null, true)));
        Duration apart = dumps < 2 ? Duration.ZERO : Duration.between(firstDump, lastDump).dividedBy(dumps - 1);
        return new Seen(dumps, apart, all.stream().filter(w -> !w.canary()).toList(), all.stream().filter(Wait::canary).toList(), pollerSightings);
    }
}
