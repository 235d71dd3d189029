package io.starvationlab.diagnose;

import static io.starvationlab.diagnose.Observed.T0;
import static io.starvationlab.diagnose.Observed.facts;
import static io.starvationlab.diagnose.Observed.waiting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class VerdictTest {

    private static final Duration THRESHOLD = Duration.ofMillis(500);
    private static final TargetJvm.Facts JDK21 = facts(21, null, null);

    private static final List<Frame> PINNED_IN_MONITOR = List.of(Frame.ofDumpText("java.base/java.lang.VirtualThread.parkOnCarrierThread(VirtualThread.java:677)"),
            Frame.ofDumpText("java.base/java.lang.Thread.sleep(Thread.java:507)"), Frame.ofDumpText("com.example.Legacy.fetch(Legacy.java:9)"));
    private static final List<Frame> PINNED_ON_SOCKET = List.of(Frame.ofDumpText("java.base/java.lang.VirtualThread.parkOnCarrierThread(VirtualThread.java:819)"),
            Frame.ofDumpText("java.base/sun.nio.ch.NioSocketImpl.park(NioSocketImpl.java:174)"),
            Frame.ofDumpText("java.base/sun.nio.ch.NioSocketImpl.read(NioSocketImpl.java:354)"), Frame.ofDumpText("com.example.Db.query(Db.java:40)"));
    private static final List<Frame> COMPUTING = List.of(Frame.ofDumpText("com.example.Checksum.compute(Checksum.java:12)"));

    @Test
    void aWaitPastTheThresholdInTheDumpsIsStarvationAndMountedThreadsBlockedOnCarriersArePinning() {
        Observed seen = Observed.samples(10, 4, null, 60, 0);
        seen.facts = facts(25, null, 1);
        seen.dumpsRecordState = true;
        seen.dump(0, waiting(7, "", T0)).dump(1500, waiting(7, "", T0.plusMillis(1500)));
        seen.mounted(40, PINNED_IN_MONITOR, List.of(PINNED_IN_MONITOR.get(2)), false);
        seen.mounted(1, COMPUTING, List.of(), false);
        Verdict verdict = Verdict.judge(seen.build(), THRESHOLD);
        assertThat(verdict.starved()).isTrue();
        assertThat(verdict.stuck()).isFalse();
        assertThat(verdict.inferredWait()).isEqualTo(Duration.ofMillis(1500));
        assertThat(verdict.cause()).isEqualTo(Cause.SYNCHRONIZED);
        assertThat(verdict.frame()).isEqualTo("com.example.Legacy.fetch");
        assertThat(verdict.details()).anyMatch(d -> d.startsWith("holds a monitor: com.example.Legacy.fetch"))
                .anyMatch(d -> d.startsWith("-XX:LockingMode=1 (legacy locking) keeps"));
        assertThat(verdict.pinnedShare()).isCloseTo(40 / 41.0, offset(1e-9));
    }

    /** Seen mounted, a thread that sits in Java code on a carrier that uses no CPU is in a native call the JDK records nothing of. */
    @Test
    void aCarrierHeldWithoutCpuByJavaCodeIsANativeCallWhichNoEventRecords() {
        Observed seen = Observed.samples(10, 4, 60L, null, 0);
        seen.noThreadDumps = "remote";
        seen.mounted(30, COMPUTING, List.of(), true);
        Verdict verdict = Verdict.judge(seen.recorded(Holds.NONE, FrameGroups.NONE, List.of(T0)).build(), THRESHOLD);
        assertThat(verdict.starved()).as("60 queued, one start in 5 s: %s", verdict.waitBasis()).isTrue();
        assertThat(verdict.cause()).isEqualTo(Cause.NATIVE_CALL);
        assertThat(verdict.frame()).isEqualTo("com.example.Checksum.compute");
        assertThat(verdict.details()).anyMatch(d -> d.contains("the carriers used 0.01 CPU each") && d.contains("the JDK records no event for it"));
    }

    /**
     * On a machine so busy that one sample came in the whole watch (CI beside a neighbour, seen: 4 of 4 carriers computing, 61
     * queued), JFR's short span saw no start and no read of the queue: the mean is not measured, not 0, and every carrier taken
     * judges. A span with threads queued and no start proves only a lower bound, which judges nothing under the threshold.
     */
    @Test
    void aWaitNotMeasuredOrOnlyBoundedBelowTheThresholdLeavesTheVerdictToTheCarriersTaken() {
        Observed seen = Observed.samples(1, 4, 61L, null, 0);
        seen.noThreadDumps = "none needed";
        seen.mounted(1, COMPUTING, List.of(), false);
        seen.recorded = new FlightRecording.Recorded(true, null, Holds.NONE, FrameGroups.NONE,
                new FlightRecording.Starts(List.of(), List.of(new FlightRecording.Starts.Span(T0.plusMillis(4000), T0.plusMillis(4300)))), true);
        Verdict unmeasured = Verdict.judge(seen.build(), THRESHOLD);
        assertThat(unmeasured.inferredWait()).as(unmeasured.waitBasis()).isNull();
        assertThat(unmeasured.starved()).as(unmeasured.waitBasis()).isTrue();
        assertThat(unmeasured.waitBasis()).contains("not measured", "judged by every carrier taken 100 %");

        seen.recorded = new FlightRecording.Recorded(true, null, Holds.NONE, FrameGroups.NONE,
                new FlightRecording.Starts(List.of(), List.of(new FlightRecording.Starts.Span(T0, T0.plusMillis(300)))), true);
        Verdict bounded = Verdict.judge(seen.build(), THRESHOLD);
        assertThat(bounded.inferredWait()).isEqualTo(Duration.ofMillis(300));
        assertThat(bounded.starved()).as(bounded.waitBasis()).isTrue();
    }

    @Test
    void pinsOnSocketsWithVirtualPollersAreThePoller() {
        Observed seen = Observed.samples(10, 4, null, 60, 0);
        seen.dumpsRecordState = true;
        seen.dump(0, waiting(7, "", T0)).dump(4000, waiting(7, "", T0.plusSeconds(4))).mounted(1, PINNED_ON_SOCKET, List.of(), false);
        assertThat(Verdict.judge(seen.build(), THRESHOLD).cause()).isEqualTo(Cause.POLLER);
        seen.facts = facts(25, "1", null);
        assertThat(Verdict.judge(seen.build(), THRESHOLD).cause()).as("platform pollers wake the read").isEqualTo(Cause.SYNCHRONIZED);
        seen.facts = JDK21;
        assertThat(Verdict.judge(seen.build(), THRESHOLD).cause()).as("JDK 21's pollers are platform threads").isEqualTo(Cause.SYNCHRONIZED);
    }

    @Test
    void withoutDumpsTheSchedulerQueueAndTheStartRateGiveTheWaitByLittlesLaw() {
        Observed seen = Observed.samples(20, 4, 60L, null, 0);
        seen.noThreadDumps = "remote";
        FrameGroups samples = new FrameGroups(List.of(new FrameGroups.Sighting(Observed.STACKS.hold(new Mounted(COMPUTING, List.of(), null, false, null, null),
                false), COMPUTING)));
        List<Instant> starts = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            starts.add(T0.plusMillis(25L * i)); // 40 a second over the 5 s window
        }
        seen.recorded(Holds.NONE, samples, starts);
        Verdict verdict = Verdict.judge(seen.build(), THRESHOLD);
        assertThat(verdict.inferredWait()).isBetween(Duration.ofMillis(1400), Duration.ofMillis(1600));
        assertThat(verdict.waitBasis()).contains("Little's law");
        assertThat(verdict.starved()).isTrue();
        assertThat(verdict.cause()).isEqualTo(Cause.CPU_BOUND);
        assertThat(verdict.frame()).isEqualTo("com.example.Checksum.compute");

        seen.noThreadDumps = null;
        seen.dumpsRecordState = true;
        seen.dump(0).dump(5000);
        assertThat(Verdict.judge(seen.build(), THRESHOLD).waitBasis()).as("two dumps 5 s apart see no wait under 5 s").contains("Little's law");
    }

    @Test
    void jdk21SeenFromAfarMeasuresNoWaitAndJudgesFromCarriersTaken() {
        Observed seen = Observed.samples(20, 4, null, null, 0);
        seen.facts = JDK21;
        seen.noThreadDumps = "remote";
        List<FrameGroups.Sighting> episodes = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            episodes.add(new FrameGroups.Sighting(Observed.STACKS.hold(new Mounted(PINNED_IN_MONITOR, List.of(), null, false, null, null), true),
                    PINNED_IN_MONITOR, Duration.ofMillis(100), null, List.of()));
        }
        Verdict verdict = Verdict.judge(seen.recorded(new Holds(episodes), FrameGroups.NONE, List.of()).build(), THRESHOLD);
        assertThat(verdict.inferredWait()).isNull();
        assertThat(verdict.waitBasis()).isEqualTo("not measured: no thread dump taken and no scheduler MXBean here;"
                + " so judged by every carrier taken 100 % of the time (starved from 80 %)");
        assertThat(verdict.starved()).as("every carrier taken in every sample").isTrue();
        assertThat(verdict.cause()).isEqualTo(Cause.SYNCHRONIZED);
        assertThat(verdict.pinnedShare()).isGreaterThan(0.9);
    }

    @Test
    void jdk21DumpsMissThreadsWaitingToContinueSoCarriersTakenThroughoutCountToo() {
        Observed seen = Observed.samples(20, 4, null, 0, 0);
        seen.facts = JDK21;
        for (int i = 0; i < 20; i++) {
            seen.dump(250L * i);
        }
        seen.mounted(40, PINNED_IN_MONITOR, List.of(), false);
        Verdict verdict = Verdict.judge(seen.build(), THRESHOLD);
        assertThat(verdict.inferredWait()).isEqualTo(Duration.ZERO);
        assertThat(verdict.waitBasis()).contains("no virtual thread seen waiting in 20 thread dumps (these dumps show only threads never run yet)",
                "so judged by every carrier taken 100 %");
        assertThat(verdict.starved()).isTrue();
        assertThat(verdict.cause()).isEqualTo(Cause.SYNCHRONIZED);
        assertThat(verdict.details()).contains("a virtual thread blocking inside synchronized keeps its carrier on JDK 21-23 (JEP 491, JDK 24, ends it)");

        Observed withStates = Observed.samples(20, 4, null, 0, 0);
        withStates.dumpsRecordState = true;
        for (int i = 0; i < 20; i++) {
            withStates.dump(250L * i);
        }
        withStates.mounted(1, PINNED_IN_MONITOR, List.of(), false);
        assertThat(Verdict.judge(withStates.build(), THRESHOLD).starved())
                .as("dumps with states see every waiting thread: carriers taken with nobody waiting is not starvation").isFalse();
    }

    /** The CPU case of issue 39: after a single dump the wait read 0 ms "seen waiting in successive thread dumps", under STARVED, with no reason why. */
    @Test
    void oneDumpTimesNoWaitAndTheVerdictSaysWhatJudgedIt() {
        Observed seen = Observed.samples(20, 4, null, 60, 0);
        seen.dumpsRecordState = true;
        seen.dump(3000, waiting(7, "", T0.plusSeconds(3)), waiting(8, "", T0.plusSeconds(3))).mounted(1, COMPUTING, List.of(), false);
        Verdict verdict = Verdict.judge(seen.build(), THRESHOLD);
        assertThat(verdict.inferredWait()).as("not 0 ms").isNull();
        assertThat(verdict.waitBasis()).isEqualTo("not measured: one thread dump, and a wait takes two to time;"
                + " so judged by every carrier taken 100 % of the time (starved from 80 %)");
        seen.recorded(Holds.NONE, FrameGroups.NONE, List.of(T0, T0.plusSeconds(1), T0.plusSeconds(2), T0.plusSeconds(3), T0.plusSeconds(4), T0.plusSeconds(5)));
        Verdict withStarts = Verdict.judge(seen.build(), THRESHOLD);
        assertThat(withStarts.inferredWait()).as("2 waiting in the dump, 1 started a second").isEqualTo(Duration.ofSeconds(2));
        assertThat(withStarts.waitBasis()).isEqualTo("the work's mean, by Little's law");
        assertThat(verdict.starved()).isTrue();
        assertThat(verdict.cause()).isEqualTo(Cause.CPU_BOUND);

        Observed free = Observed.samples(20, 2, null, 60, 0);
        free.dumpsRecordState = true;
        free.dump(3000, waiting(7, "", T0.plusSeconds(3)));
        assertThat(Verdict.judge(free.build(), THRESHOLD).starved()).as("carriers free half the time, no wait measured").isFalse();
    }

    /** Issue 39: a canary probe queued for the whole load read as "wait for a carrier: 10 s" while the requests waited at most 4.3-5 s. */
    @Test
    void theMetersCanaryProbeIsNotTheWorksWait() {
        Observed seen = Observed.samples(20, 4, null, 60, 0);
        seen.dumpsRecordState = true;
        seen.dump(0, waiting(1, CarrierWaits.CANARY, T0), waiting(7, "", T0))
                .dump(400, waiting(1, CarrierWaits.CANARY, T0.plusMillis(400)), waiting(7, "", T0.plusMillis(400)), waiting(8, "", T0.plusMillis(400)))
                .dump(4800, waiting(1, CarrierWaits.CANARY, T0.plusMillis(4800)))
                .mounted(1, PINNED_IN_MONITOR, List.of(), false);
        Observation observed = seen.build();
        Verdict verdict = Verdict.judge(observed, THRESHOLD);
        assertThat(verdict.inferredWait()).as("the work's longest, not the canary's 4.8 s").isEqualTo(Duration.ofMillis(400));
        assertThat(verdict.waitBasis()).isEqualTo("the longest seen in the thread dumps");
        assertThat(new Report(Options.parse(new String[] {"--pid", "1"}), observed, verdict).text())
                .contains("  the longest wait for a carrier: at least 400 ms, a virtual thread seen waiting from one thread dump to a later one"
                        + " (2 seen waiting in 3 dumps; the meter's canary left out)\n")
                .contains("  the meter's canary probe (carrier-canary-probe) waited at least 4.80 s, still waiting at the last dump: one probe at a time,"
                        + " queued on its own, not the work's wait\n")
                .contains("\nNOT STARVED\n", "  the verdict's wait: 400 ms (threshold 500 ms), the longest seen in the thread dumps\n");
    }

    /** Every carrier held, without CPU, by the same threads parked in a lock: stuck on the lock, whose owner needs a carrier to release it. */
    @Test
    void carriersHeldStillByThreadsWaitingForALockAreStuckNotStarved() {
        Observed seen = Observed.samples(16, 4, null, 60, 4);
        seen.facts = JDK21;
        seen.mounted(16, Observed.WAITING_FOR_A_LOCK, List.of(), true);
        Verdict verdict = Verdict.judge(seen.build(), THRESHOLD);
        assertThat(verdict.stuck()).as(verdict.waitBasis()).isTrue();
        assertThat(verdict.starved()).isFalse();
        assertThat(verdict.cause()).isEqualTo(Cause.DEADLOCK);
        assertThat(verdict.frame()).isEqualTo("com.example.Cache.refresh");
        assertThat(verdict.waitBasis()).startsWith("every carrier held by the same virtual threads, without CPU, for 3.75 s (stuck from 2.00 s)");
        assertThat(verdict.details()).contains("waits in: java.util.concurrent.locks.ReentrantLock.tryLock")
                .anyMatch(d -> d.startsWith("held by: a thread the thread dumps do not name"));

        Observed moving = Observed.samples(16, 4, null, 60, 3);
        moving.facts = JDK21;
        moving.mounted(16, Observed.WAITING_FOR_A_LOCK, List.of(), true);
        assertThat(Verdict.judge(moving.build(), THRESHOLD).stuck()).as("a carrier took another thread at every print: the lock moves").isFalse();

        Observed sleeping = Observed.samples(16, 4, null, 60, 4);
        sleeping.mounted(16, PINNED_IN_MONITOR, List.of(), true);
        Verdict longSleeps = Verdict.judge(sleeping.build(), THRESHOLD);
        assertThat(longSleeps.stuck()).as("a long pinned sleep waits for no other thread: it ends").isFalse();
        assertThat(longSleeps.cause()).isEqualTo(Cause.SYNCHRONIZED);
    }

    /** A pin longer than the watch (a socket read waiting for a starved poller) ends after it: JFR has not recorded it yet. */
    @Test
    void carriersHeldIdleWithoutAnEndedPinAreStillPinned() {
        Observed seen = Observed.samples(20, 4, 60L, null, 4);
        seen.noThreadDumps = "remote";
        FrameGroups samples = new FrameGroups(List.of(new FrameGroups.Sighting(new Stacks.Hold(Cause.CPU_BOUND, "com.example.Checksum.compute", null),
                COMPUTING)));
        Verdict verdict = Verdict.judge(seen.recorded(Holds.NONE, samples, List.of()).build(), THRESHOLD);
        assertThat(verdict.starved()).as("60 queued and nothing started: %s", verdict.waitBasis()).isTrue();
        assertThat(verdict.cause()).isEqualTo(Cause.PINNED);
        assertThat(verdict.pinnedShare()).isEqualTo(1.0);
        assertThat(verdict.runningShare()).isZero();
    }

    @Test
    void shortWaitsAreNotStarvation() {
        Observed seen = Observed.samples(10, 2, 0L, 0, 0);
        seen.dumpsRecordState = true;
        for (int i = 0; i < 10; i++) {
            seen.dump(250L * i);
        }
        Verdict verdict = Verdict.judge(seen.mounted(1, COMPUTING, List.of(), false).build(), THRESHOLD);
        assertThat(verdict.starved()).isFalse();
        assertThat(verdict.cause()).isEqualTo(Cause.NONE);
        assertThat(verdict.frame()).isNull();

        Observed busy = Observed.samples(20, 2, 3L, null, 0);
        busy.noThreadDumps = "remote";
        busy.recorded = new FlightRecording.Recorded(false, null, Holds.NONE, FrameGroups.NONE, new FlightRecording.Starts(List.of(), List.of()), true);
        Verdict neverPressed = Verdict.judge(busy.build(), THRESHOLD);
        assertThat(neverPressed.inferredWait()).as("starts are recorded only while every carrier is taken with threads queued").isZero();
        assertThat(neverPressed.waitBasis()).contains("never every carrier taken");
        assertThat(neverPressed.starved()).isFalse();
    }

    /** Samples come every 250 ms while every carrier is taken and every 2 s otherwise: each weighs the time until the next. */
    @Test
    void sparseSamplesWhileACarrierIsFreeWeighTheTimeTheyStandFor() {
        Observed seen = new Observed();
        seen.facts = JDK21;
        for (int i = 0; i < 10; i++) {
            Instant at = i < 8 ? T0.plusMillis(250L * i) : T0.plusSeconds(2L * (i - 7));
            seen.samples.add(new Sample(at, 4, i < 8 ? 4 : 1, 10.0 * i, null, null, null, null, null, null, 0));
        }
        seen.end = T0.plusSeconds(6);
        seen.noThreadDumps = "remote";
        Verdict verdict = Verdict.judge(seen.build(), THRESHOLD);
        assertThat(verdict.saturatedShare()).as("every carrier taken in 8 of 10 samples, for 2 s of 6").isCloseTo(1 / 3.0, offset(1e-9));
        assertThat(verdict.starved()).isFalse();
    }
}
