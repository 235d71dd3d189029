package io.starvationlab.diagnose;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** Stacks by what held the carrier ({@link Stacks#hold}), each cause's grouped by the frame named for it; fixed once made. */
final class Holds {

    static final Holds NONE = new Holds(List.of());

    private final Map<Cause, FrameGroups> byCause = new EnumMap<>(Cause.class);
    private final long waiting;

    Holds(List<FrameGroups.Sighting> sightings) {
        this.waiting = sightings.stream().filter(s -> s.hold().waitsFor() != null).count();
        sightings.stream().collect(Collectors.groupingBy(s -> s.hold().cause(), () -> new EnumMap<>(Cause.class), Collectors.toList()))
                .forEach((cause, seen) -> byCause.put(cause, new FrameGroups(seen)));
    }

    FrameGroups of(Cause cause) {
        return byCause.getOrDefault(cause, FrameGroups.NONE);
    }

    /** The causes seen, in the order {@link Cause} lists them. */
    List<Cause> causes() {
        return List.copyOf(byCause.keySet());
    }

    long count() {
        return byCause.values().stream().mapToLong(FrameGroups::count).sum();
    }

    Duration total() {
        return byCause.values().stream().map(FrameGroups::total).reduce(Duration.ZERO, Duration::plus);
    }

    /** The cause with the most pinned time, else the most stacks, leaving out {@code except}. */
    Optional<Cause> dominant(Cause except) {
        return byCause.entrySet().stream().filter(e -> e.getKey() != except)
                .max((a, b) -> a.getValue().total().equals(b.getValue().total()) ? Long.compare(a.getValue().count(), b.getValue().count())
                        : a.getValue().total().compareTo(b.getValue().total()))
                .map(Map.Entry::getKey);
    }

    /** The share of all sightings that waited for another thread while they kept their carriers. */
    double waitingShare() {
        return waiting / (double) Math.max(1, count());
    }
}
