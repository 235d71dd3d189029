package io.starvationlab.service;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.runtime.Startup;
import io.starvationlab.downstream.DownstreamGateway;
import io.starvationlab.jvm.NativeFrame;
import io.starvationlab.jvm.NativeFrames;

/**
 * Runs one unit of work the way its mode says. Each mode calls the gateway from its own method, so
 * the innermost application frame of a pinned stack names the mode in {@code /lab/pinning} and in
 * thread dumps.
 */
@Startup
@ApplicationScoped
public class WorkService {

    /** Every private monitor is published here so the JIT cannot prove it thread-local and elide the lock. */
    @SuppressWarnings("unused")
    private static volatile Object lastPrivateMonitor;

    private final DownstreamGateway downstream;
    private final NativeFrames nativeFrames;
    private final Object sharedMonitor = new Object();
    private final Lock sharedLock = new ReentrantLock();
    /** Written by the cpu mode so its computation cannot be optimised away. */
    private volatile long cpuSink;

    public WorkService(DownstreamGateway downstream, NativeFrames nativeFrames) {
        this.downstream = downstream;
        this.nativeFrames = nativeFrames;
    }

    /** {@code request}, if this JVM can run its mode; else 501 (native without an FFM upcall). Asked at admission, before any thread is spent. */
    public WorkRequest runnable(WorkRequest request) {
        if (request.mode() == Mode.NATIVE && nativeFrames.frame().isEmpty()) {
            throw new ModeUnavailableException(request.mode(), nativeFrames.unavailableReason());
        }
        return request;
    }

    public WorkResult run(WorkRequest request, Cancellation cancellation) {
        long start = System.nanoTime();
        long permitWait = switch (request.mode()) {
            case UNPINNED, PLATFORM -> downstream.callWithPermit(request.mode().label(), request.downstream(), request.ms(), cancellation);
            case PINNED -> callInsideMonitor(request, cancellation);
            case REENTRANT -> callInsideReentrantLock(request, cancellation);
            case NATIVE -> callFromNativeFrame(request, cancellation);
            case CPU -> compute(request.ms(), cancellation);
        };
        return result(request, permitWait, System.nanoTime() - start);
    }

    private long callInsideMonitor(WorkRequest request, Cancellation cancellation) {
        Object monitor = request.lock() == LockScope.SHARED ? sharedMonitor : newPrivateMonitor();
        synchronized (monitor) {
            return downstream.callWithPermit(request.mode().label(), request.downstream(), request.ms(), cancellation);
        }
    }

    private long callInsideReentrantLock(WorkRequest request, Cancellation cancellation) {
        Lock lock = request.lock() == LockScope.SHARED ? sharedLock : new ReentrantLock();
        try {
            // a cancelled request leaves the queue for a shared lock instead of waiting out everyone ahead
            cancellation.interruptible(() -> {
                lock.lockInterruptibly();
                return null;
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new CancelledException();
        }
        try {
            return downstream.callWithPermit(request.mode().label(), request.downstream(), request.ms(), cancellation);
        } finally {
            lock.unlock();
        }
    }

    private long callFromNativeFrame(WorkRequest request, Cancellation cancellation) {
        NativeFrame frame = nativeFrames.frame().orElseThrow(); // refused at admission where there is none (runnable)
        try {
            return frame.callInside(() -> callInsideUpcall(request, cancellation));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the native frame failed", e);
        }
    }

    private long callInsideUpcall(WorkRequest request, Cancellation cancellation) {
        return downstream.callWithPermit(request.mode().label(), request.downstream(), request.ms(), cancellation);
    }

    /**
     * Busy computation for {@code ms}: a virtual thread is never preempted, so it keeps its carrier
     * throughout, unless the request is cancelled (its client left or its deadline passed).
     */
    private long compute(int ms, Cancellation cancellation) {
        long deadline = System.nanoTime() + ms * 1_000_000L;
        long x = cpuSink;
        while (System.nanoTime() < deadline) {
            if (cancellation.isCancelled()) {
                throw new CancelledException();
            }
            for (int i = 0; i < 1_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        cpuSink = x;
        return 0;
    }

    private static Object newPrivateMonitor() {
        Object monitor = new Object();
        lastPrivateMonitor = monitor;
        return monitor;
    }

    private static WorkResult result(WorkRequest request, long permitWaitNanos, long elapsedNanos) {
        Thread thread = Thread.currentThread();
        boolean callsDownstream = request.mode().callsDownstream();
        return new WorkResult(
                request.mode().label(),
                callsDownstream ? request.downstream().label() : "none",
                request.mode().takesLock() ? request.lock().label() : "none",
                request.ms(),
                permitWaitNanos / 1e6,
                elapsedNanos / 1e6,
                thread.getName(),
                thread.isVirtual(),
                carrierOf(thread));
    }

    /** A virtual thread's toString ends with "@" and its carrier's name while it is mounted. */
    private static String carrierOf(Thread thread) {
        if (!thread.isVirtual()) {
            return null;
        }
        String description = thread.toString();
        int at = description.lastIndexOf('@');
        return at < 0 ? null : description.substring(at + 1);
    }
}
