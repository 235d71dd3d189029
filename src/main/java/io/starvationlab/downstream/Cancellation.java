package io.starvationlab.downstream;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lets a request whose client went away give back its permit and connection at once instead of
 * waiting out its call. The current wait registers how to abandon it: interrupting a thread that
 * waits for a permit or sleeps, or cancelling a running statement.
 */
public final class Cancellation {

    private static final Runnable NOTHING = () -> { };

    private final AtomicReference<Runnable> abandon = new AtomicReference<>(NOTHING);
    private volatile boolean cancelled;

    public static Cancellation create() {
        return new Cancellation();
    }

    /** Called from any thread (the event loop when a client disconnects); never blocks. */
    public void cancel() {
        cancelled = true;
        abandon.get().run();
    }

    public boolean isCancelled() {
        return cancelled;
    }

    /** Runs {@code body}; a cancel while it runs triggers {@code onCancel} (which must not block). */
    public <T> T guard(Runnable onCancel, Callable<T> body) throws Exception {
        abandon.set(onCancel);
        try {
            if (cancelled) {
                throw new CancelledException();
            }
            return body.call();
        } finally {
            abandon.set(NOTHING);
        }
    }

    /** Guards {@code body} by interrupting the calling thread on cancel. */
    public <T> T interruptible(Callable<T> body) throws Exception {
        Thread caller = Thread.currentThread();
        try {
            return guard(caller::interrupt, body);
        } catch (InterruptedException e) {
            throw cancelled ? new CancelledException() : e;
        } finally {
            if (cancelled) {
                Thread.interrupted(); // a late interrupt must not leak into the rest of the request
            }
        }
    }
}
