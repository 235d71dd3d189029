package io.starvationlab.diagnose;

import java.util.List;

/**
 * A virtual thread on its carrier, as one sample saw it: its stack ({@code Thread.print} shows it from JDK 25,
 * a JSON thread dump on every JDK) and what the lock lines or the dump say of what it waits for.
 *
 * @param stack         its frames, top first; empty where the sample shows none
 * @param monitorOwners the frames that own a monitor
 * @param initWaitFor   the class whose initialization by another thread it waits for, or null
 * @param waitingToLock blocked entering a monitor
 * @param blocker       what it parks on or waits to lock, as the JVM names it (JDK 25+), or null
 * @param lockOwner     the thread that holds what it waits for, where the dump names it (JDK 25+), or null
 */
record Mounted(List<Frame> stack, List<Frame> monitorOwners, String initWaitFor, boolean waitingToLock, String blocker, String lockOwner) {

    static final Mounted UNSEEN = new Mounted(List.of(), List.of(), null, false, null, null);

    /** The same lock lines with what a JSON dump adds, for a {@code Thread.print} that shows no stack: its stack, owned monitors, blocker and its owner. */
    Mounted withDump(List<Frame> frames, List<Frame> owners, String dumpBlocker, String owner) {
        return new Mounted(frames, owners, initWaitFor, waitingToLock, blocker != null ? blocker : dumpBlocker, owner);
    }
}
