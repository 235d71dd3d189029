package io.starvationlab.diagnose;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Stacks by what held the carrier ({@link Stacks#hold}), each cause's grouped by the frame named for it. */
final class Holds {

    private final Map<Verdict.Cause, FrameGroups> byCause = new EnumMap<>(Verdict.Cause.class);

    /** Adds one stack; {@code duration} and {@code reason} for a pinned episode. */
    synchronized void add(Stacks.Hold hold, List<Frame> frames, Duration duration, String reason, List<Frame> monitorOwners) {
        byCause.computeIfAbsent(hold.cause(), c -> new FrameGroups()).add(hold.frame(), frames, hold.note(), duration, reason, monitorOwners);
    }

    synchronized FrameGroups of(Verdict.Cause cause) {
        return byCause.getOrDefault(cause, new FrameGroups());
    }

    /** The causes seen, in the order {@link Verdict.Cause} lists them. */
    synchronized List<Verdict.Cause> causes() {
        return List.copyOf(byCause.keySet());
    }

    synchronized long count() {
        return byCause.values().stream().mapToLong(FrameGroups::count).sum();
    }

    synchronized Duration total() {
        return byCause.values().stream().map(FrameGroups::total).reduce(Duration.ZERO, Duration::plus);
    }

    /** The cause with the most pinned time, else the most stacks, leaving out {@code except}. */
    synchronized Optional<Verdict.Cause> dominant(Verdict.Cause except) {
        return byCause.entrySet().stream().filter(e -> e.getKey() != except)
                .max((a, b) -> a.getValue().total().equals(b.getValue().total()) ? Long.compare(a.getValue().count(), b.getValue().count())
                        : a.getValue().total().compareTo(b.getValue().total()))
                .map(Map.Entry::getKey);
    }
}
