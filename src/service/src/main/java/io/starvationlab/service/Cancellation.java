package io.starvationlab.service;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

import io.starvationlab.downstream.CallGuard;

/**
 * Lets a request whose client went away (or whose deadline passed) give back its permit and
 * connection at once instead of waiting out its call. The current wait registers how to abandon it:
 * interrupting a thread that waits for a permit or sleeps, or cancelling a running statement.
 * A cancel and the end of a guarded wait exclude each other, so an abandon action never reaches a
 * wait that has already ended (a late interrupt would hit whatever the thread does next).
 */
public final class Cancellation implements CallGuard {

    private static final Runnable NOTHING = () -> { };
    private static final Runnable FIRING = () -> { };
    private static final Runnable FIRED = () -> { };

    private final AtomicReference<Runnable> abandon = new AtomicReference<>(NOTHING);
    private volatile boolean cancelled;

    public static Cancellation create() {
        return new Cancellation();
    }

    @Override
    public CancelledException abandoned() {
        return new CancelledException();
    }

    /** Called from any thread (the event loop when a client disconnects); never blocks. */
    public void cancel() {
        cancelled = true;
        Runnable action = abandon.getAndSet(FIRING);
        try {
            if (action != NOTHING && action != FIRING && action != FIRED) {
                action.run();
            }
        } finally {
            abandon.set(FIRED);
        }
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    /** Runs {@code body}; a cancel while it runs triggers {@code onCancel} (which must not block). */
    @Override
    public <T> T guard(Runnable onCancel, Callable<T> body) throws Exception {
        if (!abandon.compareAndSet(NOTHING, onCancel)) {
            throw new CancelledException(); // cancelled already
        }
        try {
            return body.call();
        } finally {
            if (!abandon.compareAndSet(onCancel, NOTHING)) {
                while (abandon.get() != FIRED) {
                    Thread.onSpinWait(); // a cancel is running our action: let it finish first
                }
            }
        }
    }

    /** Guards {@code body} by interrupting the calling thread on cancel. */
    @Override
    public <T> T interruptible(Callable<T> body) throws Exception {
        Thread caller = Thread.currentThread();
        try {
            return guard(caller::interrupt, body);
        } catch (InterruptedException e) {
            throw cancelled ? new CancelledException() : e;
        } finally {
            if (cancelled) {
                Thread.interrupted(); // the interrupt was ours: it must not leak into the rest of the request
            }
        }
    }
}
