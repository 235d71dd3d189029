package io.starvationlab.diagnose;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Stacks grouped by the frame a report names ({@link Stacks.Hold#frame()}), fixed once made. Each group keeps how often
 * it was seen, how long (for pinned episodes), one example stack, and what else the stacks say of what holds the
 * carrier: the frame owning a monitor, the native caller or the class waited for, a socket wait, the lock waited for.
 */
final class FrameGroups {

    /**
     * One stack as seen: what held the carrier, and for a pinned episode how long and the JVM's reason.
     *
     * @param duration      how long it was pinned (a JFR episode), or null
     * @param reason        the JVM's reason for the pin (JFR, JDK 24+), or null
     * @param monitorOwners the frames of the stack that own a monitor
     */
    record Sighting(Stacks.Hold hold, List<Frame> stack, Duration duration, String reason, List<Frame> monitorOwners) {

        Sighting(Stacks.Hold hold, List<Frame> stack) {
            this(hold, stack, null, null, List.of());
        }
    }

    /** The sightings named by one frame. */
    static final class Group {
        final String frame;
        final long count;
        final List<Duration> durations;
        final Map<String, Integer> reasons;
        final Map<String, Integer> monitorOwners;
        final Map<String, Integer> notes;
        final Map<String, Integer> waitsFor;
        final Map<String, Integer> locks;
        final Map<String, Integer> lockOwners;
        /** The deepest stack seen: JFR cuts stacks at its depth, dumps do not. */
        final List<Frame> example;
        final Frame socketIo;

        private Group(String frame, List<Sighting> sightings) {
            this.frame = frame;
            this.count = sightings.size();
            this.durations = sightings.stream().map(Sighting::duration).filter(d -> d != null).toList();
            this.reasons = counts(sightings.stream().map(Sighting::reason).toList());
            this.monitorOwners = counts(sightings.stream().flatMap(s -> s.monitorOwners().stream()).map(Frame::qualifiedMethod).toList());
            this.notes = counts(sightings.stream().map(s -> s.hold().note()).toList());
            this.waitsFor = counts(sightings.stream().map(s -> s.hold().waitsFor()).toList());
            this.locks = counts(sightings.stream().map(s -> s.hold().lock()).toList());
            this.lockOwners = counts(sightings.stream().map(s -> s.hold().lockOwner()).toList());
            this.example = sightings.stream().map(Sighting::stack).max(Comparator.comparingInt(List::size)).orElse(List.of());
            this.socketIo = sightings.stream().map(s -> Stacks.socketIo(s.stack())).flatMap(Optional::stream).findFirst().orElse(null);
        }

        private static Map<String, Integer> counts(List<String> values) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            values.stream().filter(v -> v != null).forEach(v -> counts.merge(v, 1, Integer::sum));
            return Map.copyOf(counts);
        }

        Duration total() {
            return durations.stream().reduce(Duration.ZERO, Duration::plus);
        }

        Duration median() {
            return durations.isEmpty() ? Duration.ZERO : durations.stream().sorted().toList().get(durations.size() / 2);
        }

        Duration max() {
            return durations.stream().max(Comparator.naturalOrder()).orElse(Duration.ZERO);
        }

        /** The value seen most often; ties go to the first in the order the stacks came. */
        Optional<String> mostCommon(Map<String, Integer> counts) {
            return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
        }
    }

    static final FrameGroups NONE = new FrameGroups(List.of());

    private final List<Group> ranked;

    /** Groups {@code sightings} by the frame each names; most pinned time first, then most seen. */
    FrameGroups(List<Sighting> sightings) {
        Map<String, List<Sighting>> byFrame = sightings.stream().collect(Collectors.groupingBy(s -> s.hold().frame(), LinkedHashMap::new, Collectors.toList()));
        this.ranked = byFrame.entrySet().stream().map(e -> new Group(e.getKey(), e.getValue()))
                .sorted(Comparator.comparing(Group::total).thenComparingLong(g -> g.count).reversed()).toList();
    }

    /** Most pinned time first, then most seen. */
    List<Group> ranked() {
        return ranked;
    }

    Optional<Group> top() {
        return ranked.stream().findFirst();
    }

    long count() {
        return ranked.stream().mapToLong(g -> g.count).sum();
    }

    Duration total() {
        return ranked.stream().map(Group::total).reduce(Duration.ZERO, Duration::plus);
    }

    boolean isEmpty() {
        return ranked.isEmpty();
    }
}
