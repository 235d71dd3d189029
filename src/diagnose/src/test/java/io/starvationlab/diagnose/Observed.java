package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A made-up {@link Observation}, as the sampler would have made it: samples, mounted stacks, thread dumps and what JFR recorded. */
final class Observed {

    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final Stacks STACKS = new Stacks(List.of());
    /** A JDK 21 thread pinned in synchronized, parked in a lock whose owner it waits for (the second service's /deadlock). */
    static final List<Frame> WAITING_FOR_A_LOCK = List.of(Frame.ofDumpText("java.base/jdk.internal.misc.Unsafe.park(Native Method)"),
            Frame.ofDumpText("java.base/java.lang.VirtualThread.parkOnCarrierThread(VirtualThread.java:677)"),
            Frame.ofDumpText("java.base/java.lang.VirtualThread.parkNanos(VirtualThread.java:636)"),
            Frame.ofDumpText("java.base/java.util.concurrent.locks.LockSupport.parkNanos(LockSupport.java:269)"),
            Frame.ofDumpText("java.base/java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire(AbstractQueuedSynchronizer.java:756)"),
            Frame.ofDumpText("java.base/java.util.concurrent.locks.ReentrantLock$Sync.tryLockNanos(ReentrantLock.java:168)"),
            Frame.ofDumpText("java.base/java.util.concurrent.locks.ReentrantLock.tryLock(ReentrantLock.java:479)"),
            Frame.ofDumpText("com.example.Cache.refresh(Cache.java:30)"),
            Frame.ofDumpText("java.base/java.util.concurrent.ThreadPerTaskExecutor$TaskRunner.run(ThreadPerTaskExecutor.java:314)"));

    final List<Sample> samples = new ArrayList<>();
    final List<FrameGroups.Sighting> mounted = new ArrayList<>();
    final CarrierWaits waits = new CarrierWaits();
    TargetJvm.Facts facts = facts(25, null, null);
    Instant end = T0.plusSeconds(5);
    String noThreadDumps;
    boolean dumpsRecordState;
    boolean mxBean;
    FlightRecording.Recorded recorded = FlightRecording.Recorded.none("none made up");

    /** {@code count} samples a quarter second apart, {@code carrying} carriers of 4 taken in each, {@code heldIdle} of them held idle. */
    static Observed samples(int count, int carrying, Long queued, Integer waiting, int heldIdle) {
        Observed seen = new Observed();
        seen.mxBean = queued != null;
        for (int i = 0; i < count; i++) {
            seen.samples.add(new Sample(T0.plusMillis(250L * i), 4, carrying, 10.0 * i, queued == null ? null : carrying, queued, waiting, null, null, null,
                    heldIdle));
        }
        return seen;
    }

    /** A mounted thread's stack, as {@code times} samples saw it on a carrier that used no CPU ({@code carrierIdle}) or some. */
    Observed mounted(int times, List<Frame> stack, List<Frame> owners, boolean carrierIdle) {
        for (int i = 0; i < times; i++) {
            Stacks.Hold hold = STACKS.hold(new Mounted(stack, owners, null, false, null, null), carrierIdle);
            mounted.add(new FrameGroups.Sighting(hold, stack, null, null, owners));
        }
        return this;
    }

    /** A thread dump at {@code millis} after T0 in which the virtual threads {@code waiting} wait for a carrier; with states as JDK 25's where {@link #dumpsRecordState}. */
    Observed dump(long millis, ThreadDump.Thread... waiting) {
        waits.observe(new ThreadDump(T0.plusMillis(millis), List.of(waiting), dumpsRecordState));
        return this;
    }

    /** JFR's starts over the whole window, as while every carrier is taken with threads queued, with these pinned episodes and samples. */
    Observed recorded(Holds pinned, FrameGroups running, List<Instant> starts) {
        recorded = new FlightRecording.Recorded(true, null, pinned, running,
                new FlightRecording.Starts(starts, List.of(new FlightRecording.Starts.Span(T0, end))), true);
        return this;
    }

    Observation build() {
        return new Observation("pid 1", facts, new SchedulerSettings(4, "made up", 256, "made up", mxBean), T0, end, List.copyOf(samples),
                "ForkJoinPool-1-worker-", new Holds(mounted), waits.seen(), recorded,
                new Observation.Sampling(samples.size(), Duration.ofMillis(10), 100, dumpsRecordState, false, noThreadDumps, null));
    }

    static ThreadDump.Thread waiting(long id, String name, Instant at) {
        return new ThreadDump.Thread(id, name, true, "RUNNABLE", null, List.of(), List.of(), List.of(), null, null, at);
    }

    static TargetJvm.Facts facts(int feature, String pollerMode, Integer lockingMode) {
        return new TargetJvm.Facts(1, feature + ".0.1", "test", feature, "Linux", 4, null, null, pollerMode, lockingMode, "/tmp", T0.minusSeconds(60));
    }
}
