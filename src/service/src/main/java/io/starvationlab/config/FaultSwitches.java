package io.starvationlab.config;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.Startup;

/**
 * Applies the fault switches ({@link LabConfig.Faults}, which says what each reproduces): the one place
 * that reads them, so a guard of the event loops is off only where a switch says so.
 */
@Startup
@Singleton
public class FaultSwitches {

    private static final Logger LOG = Logger.getLogger(FaultSwitches.class);
    /** Logged as a virtual thread begins the lazy creation: from here it holds ArC's lock for the bean. */
    private static final String LAZY_PROBLEM_RESPONSES = "lab.faults.lazy-problem-responses";
    /** How long the lazy creation's call to another thread takes, as a remote call would. */
    private static final long REMOTE_CALL_MILLIS = 100;

    private final LabConfig.Faults faults;

    public FaultSwitches(LabConfig config) {
        this.faults = config.faults();
    }

    /** Whether {@code EventLoopWrites} hands a virtual thread's answer to its event loop. */
    public boolean writeOnEventLoop() {
        return !faults.virtualThreadWrites();
    }

    /** Whether {@code ProblemResponses}, which the event loops answer with, is created at start-up, as every other bean of the lab. */
    public boolean problemResponsesAtStartUp() {
        return !faults.lazyProblemResponses();
    }

    /**
     * Runs {@code step} of {@code ProblemResponses}' creation: at once, or, in a lazy creation on a virtual
     * thread, as a remote call the thread waits for, answered by another platform thread after
     * {@link #REMOTE_CALL_MILLIS}, so that this thread has parked and given up its carrier before the
     * answer puts it back in the queue for one (under starvation, seconds). Not answered by an event loop:
     * one that needs the bean meanwhile would wait for this creation while this creation waited for it.
     */
    public void duringProblemResponsesCreation(Runnable step) {
        if (!faults.lazyProblemResponses() || !Thread.currentThread().isVirtual()) {
            step.run();
            return;
        }
        LOG.infof("%s: created on first use, on virtual thread %s, which now waits for a remote call", LAZY_PROBLEM_RESPONSES,
                Thread.currentThread().getName());
        CompletableFuture.runAsync(step, CompletableFuture.delayedExecutor(REMOTE_CALL_MILLIS, TimeUnit.MILLISECONDS)).join();
    }
}
