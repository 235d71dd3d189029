package io.starvationlab.experiment.run;

import java.util.List;

import io.starvationlab.harness.LabServer;

/**
 * What Vert.x's blocked-thread checker said of a server JVM's event loops in its log: how many warnings, the
 * longest time blocked they report, and the first warning's opening lines (which event loop, and where it was).
 *
 * @param firstWarning null when there was none
 */
public record EventLoopsBlocked(int warnings, long longestMillis, List<String> firstWarning) {

    /** The first warning's heading and its top frames: enough to name the lock or call it waits in. */
    static final int LINES = 12;

    public static EventLoopsBlocked of(List<LabServer.BlockedEventLoop> blocked) {
        return new EventLoopsBlocked(blocked.size(), blocked.stream().mapToLong(LabServer.BlockedEventLoop::blockedMillis).max().orElse(0),
                blocked.isEmpty() ? null : blocked.getFirst().warning().lines().map(String::strip).limit(LINES).toList());
    }

    public boolean any() {
        return warnings > 0;
    }
}
