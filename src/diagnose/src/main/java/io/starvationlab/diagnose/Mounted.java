package io.starvationlab.diagnose;

import java.util.List;

/**
 * A virtual thread on its carrier, as one sample saw it: its stack ({@code Thread.print} shows it from JDK 25,
 * a JSON thread dump on every JDK) and what the dump's lock lines say.
 *
 * @param stack         its frames, top first; empty where the sample shows none
 * @param monitorOwners the frames that own a monitor
 * @param initWaitFor   the class whose initialization by another thread it waits for, or null
 * @param waitingToLock blocked entering a monitor
 */
record Mounted(List<Frame> stack, List<Frame> monitorOwners, String initWaitFor, boolean waitingToLock) {

    static final Mounted UNSEEN = new Mounted(List.of(), List.of(), null, false);

    /** The same lock lines with the stack (and its owned monitors) of a JSON dump, for a {@code Thread.print} that shows no stack. */
    Mounted withStack(List<Frame> frames, List<Frame> owners) {
        return new Mounted(frames, owners, initWaitFor, waitingToLock);
    }
}
