package io.starvationlab.diagnose;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Stacks grouped by the frame a report names ({@link Stacks.Hold#frame()}). Each group keeps how often it was
 * seen, how long (for pinned episodes), one example stack, and what else the stacks say of what holds the
 * carrier: the frame owning a monitor, the native caller or the class waited for, a socket wait.
 */
final class FrameGroups {

    static final String NO_APPLICATION_FRAME = "(no application frame)";

    /** One group; {@code durations} only for pinned episodes. */
    static final class Group {
        final String frame;
        long count;
        final List<Duration> durations = new ArrayList<>();
        final Map<String, Integer> reasons = new LinkedHashMap<>();
        final Map<String, Integer> monitorOwners = new LinkedHashMap<>();
        final Map<String, Integer> notes = new LinkedHashMap<>();
        List<Frame> example = List.of();
        Frame socketIo;

        Group(String frame) {
            this.frame = frame;
        }

        Duration total() {
            return durations.stream().reduce(Duration.ZERO, Duration::plus);
        }

        Duration median() {
            if (durations.isEmpty()) {
                return Duration.ZERO;
            }
            List<Duration> sorted = durations.stream().sorted().toList();
            return sorted.get(sorted.size() / 2);
        }

        Duration max() {
            return durations.stream().max(Comparator.naturalOrder()).orElse(Duration.ZERO);
        }

        Optional<String> mostCommon(Map<String, Integer> counts) {
            return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
        }
    }

    private final Map<String, Group> groups = new LinkedHashMap<>();

    /** Adds one stack named {@code frame}; {@code duration} and {@code reason} for a pinned episode, {@code monitorOwners} where the stack names them. */
    synchronized void add(String frame, List<Frame> frames, String note, Duration duration, String reason, List<Frame> monitorOwners) {
        Group group = groups.computeIfAbsent(frame, Group::new);
        group.count++;
        if (duration != null) {
            group.durations.add(duration);
        }
        if (reason != null) {
            group.reasons.merge(reason, 1, Integer::sum);
        }
        if (note != null) {
            group.notes.merge(note, 1, Integer::sum);
        }
        for (Frame owner : monitorOwners) {
            group.monitorOwners.merge(owner.qualifiedMethod(), 1, Integer::sum);
        }
        if (frames.size() > group.example.size()) {
            group.example = frames; // the deepest seen: JFR cuts stacks at its depth, dumps do not
        }
        if (group.socketIo == null) {
            group.socketIo = Stacks.socketIo(frames).orElse(null);
        }
    }

    /** Most pinned time first, then most seen. */
    synchronized List<Group> ranked() {
        return groups.values().stream()
                .sorted(Comparator.comparing(Group::total).thenComparingLong(g -> g.count).reversed())
                .toList();
    }

    synchronized long count() {
        return groups.values().stream().mapToLong(g -> g.count).sum();
    }

    synchronized Duration total() {
        return groups.values().stream().map(Group::total).reduce(Duration.ZERO, Duration::plus);
    }

    synchronized boolean isEmpty() {
        return groups.isEmpty();
    }
}
