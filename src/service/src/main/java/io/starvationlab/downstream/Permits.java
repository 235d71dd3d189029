package io.starvationlab.downstream;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bounded, FIFO semaphore in front of a downstream.
 * <p>
 * A plain fair {@link Semaphore} rather than SmallRye Fault Tolerance's bulkhead: the bulkhead's
 * synchronous queueing waits for a permit with an untimed {@code acquire()}, and its only bound is a
 * Timeout that interrupts the whole guarded call, query included. The lab needs the wait itself
 * bounded (503 after {@code acquire-timeout}) while the running call is left alone.
 */
public final class Permits {

    private final Downstream downstream;
    private final int size;
    private final int maxWaiting;
    private final Duration timeout;
    private final Duration retryAfter;
    private final Semaphore semaphore;
    private final AtomicInteger waiting = new AtomicInteger();

    public Permits(Downstream downstream, int size, int maxWaiting, Duration timeout, Duration retryAfter) {
        if (size < 1) {
            throw new IllegalArgumentException("lab.downstream.permits must be at least 1, was " + size);
        }
        this.downstream = downstream;
        this.size = size;
        this.maxWaiting = maxWaiting;
        this.timeout = timeout;
        this.retryAfter = retryAfter;
        this.semaphore = new Semaphore(size, true);
    }

    /**
     * Takes a permit, waiting at most the acquire timeout, and returns how long it waited in nanoseconds.
     * The caller must {@link #release()} it.
     */
    public long acquire(CallGuard guard) throws Exception {
        long start = System.nanoTime();
        // a free permit, taken in FIFO order (a zero timeout, unlike tryAcquire(), keeps fairness): its taker never waits
        if (guard.interruptible(() -> semaphore.tryAcquire(0, TimeUnit.NANOSECONDS))) {
            return System.nanoTime() - start;
        }
        if (waiting.incrementAndGet() > maxWaiting) {
            waiting.decrementAndGet();
            throw new RejectedException(RejectedException.Reason.QUEUE_FULL,
                    maxWaiting + " requests already wait for a " + downstream.label() + " permit", retryAfter, null);
        }
        boolean granted;
        try {
            granted = guard.interruptible(() -> semaphore.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } finally {
            waiting.decrementAndGet();
        }
        if (!granted) {
            throw new RejectedException(RejectedException.Reason.PERMIT_TIMEOUT,
                    "no " + downstream.label() + " permit within " + timeout.toMillis() + " ms (" + size + " permits, all in use)",
                    retryAfter, null);
        }
        return System.nanoTime() - start;
    }

    public void release() {
        semaphore.release();
    }

    public Downstream downstream() {
        return downstream;
    }

    public int size() {
        return size;
    }

    public int inUse() {
        return size - semaphore.availablePermits();
    }

    public int waiting() {
        return waiting.get();
    }
}
