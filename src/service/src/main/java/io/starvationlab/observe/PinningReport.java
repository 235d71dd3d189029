package io.starvationlab.observe;

import java.util.List;

/**
 * What {@code GET /lab/pinning} answers.
 *
 * @param available       false where JFR cannot stream (a native image), with {@code detail} saying why
 * @param eventsSinceReset pinned episodes recorded since the last reset, kept or not
 * @param droppedGroups   groups evicted to keep memory bounded
 */
public record PinningReport(boolean available, String detail, long thresholdMillis, long eventsSinceReset,
        long droppedGroups, List<Group> groups) {

    /**
     * Pinned episodes that share an application frame and a reason.
     *
     * @param lastSeen ISO-8601 instant of the latest episode
     * @param stack    the first frames of the first episode's stack, top first
     */
    public record Group(String frame, String reason, long count, double totalMillis, double maxMillis, String lastSeen,
            List<String> stack) {
    }
}
