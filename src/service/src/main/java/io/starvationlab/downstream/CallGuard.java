package io.starvationlab.downstream;

import java.util.concurrent.Callable;

/**
 * How a caller can abandon a downstream call in progress: the call registers, for each wait, what
 * abandons it (interrupting a thread that waits for a permit or sleeps, cancelling a running statement).
 */
public interface CallGuard {

    /** Whether the caller has abandoned the call. */
    boolean isCancelled();

    /** Runs {@code body}; an abandon while it runs triggers {@code onCancel}, which must not block. */
    <T> T guard(Runnable onCancel, Callable<T> body) throws Exception;

    /** Runs {@code body}; an abandon while it runs interrupts the calling thread. */
    <T> T interruptible(Callable<T> body) throws Exception;

    /** What a call throws when it ended because it was abandoned. */
    RuntimeException abandoned();
}
