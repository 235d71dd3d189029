package io.starvationlab.service;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a unit of work wraps its wait, and so whether it holds its carrier while waiting.
 */
public enum Mode {
    /** A plain blocking call on a virtual thread: the carrier is released. */
    UNPINNED(true),
    /** The call inside {@code synchronized}: pins on JDK 21–23, and on 24+ with {@code -XX:LockingMode=1}. */
    PINNED(true),
    /** The call inside a {@code ReentrantLock}: the carrier is released. */
    REENTRANT(true),
    /** The call made from an FFM upcall, with a native frame on the stack: pins on every JDK. */
    NATIVE(true),
    /** {@code ms} of computation instead of a call: holds the carrier, there is no preemption. */
    CPU(false),
    /** A plain blocking call on the worker pool: the pre-virtual-thread baseline. */
    PLATFORM(true);

    private final boolean callsDownstream;

    Mode(boolean callsDownstream) {
        this.callsDownstream = callsDownstream;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean callsDownstream() {
        return callsDownstream;
    }

    public boolean takesLock() {
        return this == PINNED || this == REENTRANT;
    }

    public static Optional<Mode> fromLabel(String label) {
        return Arrays.stream(values()).filter(mode -> mode.label().equals(label)).findFirst();
    }

    public static List<String> labels() {
        return Arrays.stream(values()).map(Mode::label).toList();
    }
}
