package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class VerdictTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration THRESHOLD = Duration.ofMillis(500);
    private static final Stacks STACKS = new Stacks(List.of());
    private static final TargetJvm.Facts JDK21 = facts(21, null, null);
    private static final TargetJvm.Facts JDK25 = facts(25, null, null);

    private static final List<Frame> PINNED_IN_MONITOR = List.of(Frame.ofDumpText("java.base/java.lang.VirtualThread.parkOnCarrierThread(VirtualThread.java:677)"),
            Frame.ofDumpText("java.base/java.lang.Thread.sleep(Thread.java:507)"), Frame.ofDumpText("com.example.Legacy.fetch(Legacy.java:9)"));
    private static final List<Frame> PINNED_ON_SOCKET = List.of(Frame.ofDumpText("java.base/java.lang.VirtualThread.parkOnCarrierThread(VirtualThread.java:819)"),
            Frame.ofDumpText("java.base/sun.nio.ch.NioSocketImpl.park(NioSocketImpl.java:174)"),
            Frame.ofDumpText("java.base/sun.nio.ch.NioSocketImpl.read(NioSocketImpl.java:354)"), Frame.ofDumpText("com.example.Db.query(Db.java:40)"));
    private static final List<Frame> COMPUTING = List.of(Frame.ofDumpText("com.example.Checksum.compute(Checksum.java:12)"));

    @Test
    void aWaitPastTheThresholdInTheDumpsIsStarvationAndMountedThreadsBlockedOnCarriersArePinning() {
        Observation seen = observation(10, 4, null, 60, 0);
        seen.dumps = 10;
        seen.dumpsRecordState = true;
        seen.waits.observe(new ThreadDump(T0, List.of(waiting(7, T0)), true));
        seen.waits.observe(new ThreadDump(T0.plusMillis(1500), List.of(waiting(7, T0.plusMillis(1500))), true));
        for (int i = 0; i < 40; i++) {
            mounted(seen, PINNED_IN_MONITOR, List.of(PINNED_IN_MONITOR.get(2)), false);
        }
        mounted(seen, COMPUTING, List.of(), false);
        Verdict verdict = judge(seen, new Holds(), new FrameGroups(), facts(25, null, 1));
        assertThat(verdict.starved()).isTrue();
        assertThat(verdict.inferredWait()).isEqualTo(Duration.ofMillis(1500));
        assertThat(verdict.cause()).isEqualTo(Verdict.Cause.SYNCHRONIZED);
        assertThat(verdict.frame()).isEqualTo("com.example.Legacy.fetch");
        assertThat(verdict.details()).anyMatch(d -> d.startsWith("holds a monitor: com.example.Legacy.fetch"))
                .anyMatch(d -> d.startsWith("-XX:LockingMode=1 (legacy locking) keeps"));
        assertThat(verdict.pinnedShare()).isCloseTo(40 / 41.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    /** Seen mounted, a thread that sits in Java code on a carrier that uses no CPU is in a native call the JDK records nothing of. */
    @Test
    void aCarrierHeldWithoutCpuByJavaCodeIsANativeCallWhichNoEventRecords() {
        Observation seen = observation(10, 4, 60L, null, 0);
        seen.noThreadDumps = "remote";
        for (int i = 0; i < 30; i++) {
            mounted(seen, COMPUTING, List.of(), true);
        }
        Verdict verdict = judge(seen, new Holds(), new FrameGroups(), JDK25, List.of(T0));
        assertThat(verdict.starved()).as("60 queued, one start in 5 s: %s", verdict.waitBasis()).isTrue();
        assertThat(verdict.cause()).isEqualTo(Verdict.Cause.NATIVE_CALL);
        assertThat(verdict.frame()).isEqualTo("com.example.Checksum.compute");
        assertThat(verdict.details()).anyMatch(d -> d.contains("the carriers used 0.01 CPU each") && d.contains("the JDK records no event for it"));
    }

    @Test
    void pinsOnSocketsWithVirtualPollersAreThePoller() {
        Observation seen = observation(10, 4, null, 60, 0);
        seen.dumps = 10;
        seen.waits.observe(new ThreadDump(T0, List.of(waiting(7, T0)), true));
        seen.waits.observe(new ThreadDump(T0.plusSeconds(4), List.of(waiting(7, T0.plusSeconds(4))), true));
        mounted(seen, PINNED_ON_SOCKET, List.of(), false);
        assertThat(judge(seen, new Holds(), new FrameGroups(), JDK25).cause()).isEqualTo(Verdict.Cause.POLLER);
        assertThat(judge(seen, new Holds(), new FrameGroups(), facts(25, "1", null)).cause()).as("platform pollers wake the read")
                .isEqualTo(Verdict.Cause.SYNCHRONIZED);
        assertThat(judge(seen, new Holds(), new FrameGroups(), JDK21).cause()).as("JDK 21's pollers are platform threads")
                .isEqualTo(Verdict.Cause.SYNCHRONIZED);
    }

    @Test
    void withoutDumpsTheSchedulerQueueAndTheStartRateGiveTheWaitByLittlesLaw() {
        Observation seen = observation(20, 4, 60L, null, 0);
        seen.noThreadDumps = "remote";
        FrameGroups samples = new FrameGroups();
        samples.add(STACKS.named(COMPUTING), COMPUTING, null, null, null, List.of());
        List<Instant> starts = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            starts.add(T0.plusMillis(25L * i)); // 40 a second over the 5 s window
        }
        Verdict verdict = judge(seen, new Holds(), samples, JDK25, starts);
        assertThat(verdict.inferredWait()).isBetween(Duration.ofMillis(1400), Duration.ofMillis(1600));
        assertThat(verdict.waitBasis()).contains("Little's law");
        assertThat(verdict.starved()).isTrue();
        assertThat(verdict.cause()).isEqualTo(Verdict.Cause.CPU_BOUND);
        assertThat(verdict.frame()).isEqualTo("com.example.Checksum.compute");

        seen.noThreadDumps = null;
        seen.dumps = 2;
        seen.dumpsRecordState = true;
        assertThat(judge(seen, new Holds(), samples, JDK25, starts).waitBasis()).as("two dumps 5 s apart see no wait under 5 s")
                .contains("Little's law");
    }

    @Test
    void jdk21SeenFromAfarInfersNoWaitAndJudgesFromCarriersTaken() {
        Observation seen = observation(20, 4, null, null, 0);
        seen.noThreadDumps = "remote";
        Holds pinned = new Holds();
        for (int i = 0; i < 200; i++) {
            pinned.add(STACKS.hold(new Mounted(PINNED_IN_MONITOR, List.of(), null, false), true), PINNED_IN_MONITOR, Duration.ofMillis(100), null, List.of());
        }
        Verdict verdict = judge(seen, pinned, new FrameGroups(), JDK21);
        assertThat(verdict.inferredWait()).isNull();
        assertThat(verdict.starved()).as("every carrier taken in every sample").isTrue();
        assertThat(verdict.cause()).isEqualTo(Verdict.Cause.SYNCHRONIZED);
        assertThat(verdict.pinnedShare()).isGreaterThan(0.9);

        Observation idle = observation(20, 1, null, null, 0);
        idle.noThreadDumps = "remote";
        assertThat(judge(idle, new Holds(), new FrameGroups(), JDK21).starved()).isFalse();
    }

    @Test
    void jdk21DumpsMissThreadsWaitingToContinueSoCarriersTakenThroughoutCountToo() {
        Observation seen = observation(20, 4, null, 0, 0);
        seen.dumps = 20;
        for (int i = 0; i < 40; i++) {
            mounted(seen, PINNED_IN_MONITOR, List.of(), false);
        }
        Verdict verdict = judge(seen, new Holds(), new FrameGroups(), JDK21);
        assertThat(verdict.inferredWait()).isEqualTo(Duration.ZERO);
        assertThat(verdict.waitBasis()).contains("only threads never run yet");
        assertThat(verdict.starved()).isTrue();
        assertThat(verdict.cause()).isEqualTo(Verdict.Cause.SYNCHRONIZED);
        assertThat(verdict.details()).contains("a virtual thread blocking inside synchronized keeps its carrier on JDK 21-23 (JEP 491, JDK 24, ends it)");

        seen.dumpsRecordState = true;
        assertThat(judge(seen, new Holds(), new FrameGroups(), JDK25).starved())
                .as("dumps with states see every waiting thread: carriers taken with nobody waiting is not starvation").isFalse();
    }

    /** A pin longer than the watch (a socket read waiting for a starved poller) ends after it: JFR has not recorded it yet. */
    @Test
    void carriersHeldIdleWithoutAnEndedPinAreStillPinned() {
        Observation seen = observation(20, 4, 60L, null, 4);
        seen.noThreadDumps = "remote";
        FrameGroups samples = new FrameGroups();
        samples.add(STACKS.named(COMPUTING), COMPUTING, null, null, null, List.of());
        Verdict verdict = judge(seen, new Holds(), samples, JDK25, List.of());
        assertThat(verdict.starved()).as("60 queued and nothing started: %s", verdict.waitBasis()).isTrue();
        assertThat(verdict.cause()).isEqualTo(Verdict.Cause.PINNED);
        assertThat(verdict.pinnedShare()).isEqualTo(1.0);
        assertThat(verdict.runningShare()).isZero();
    }

    @Test
    void shortWaitsAreNotStarvation() {
        Observation seen = observation(10, 2, 0L, 0, 0);
        seen.dumps = 10;
        mounted(seen, COMPUTING, List.of(), false);
        Verdict verdict = judge(seen, new Holds(), new FrameGroups(), JDK25);
        assertThat(verdict.starved()).isFalse();
        assertThat(verdict.cause()).isEqualTo(Verdict.Cause.NONE);
        assertThat(verdict.frame()).isNull();

        Observation busy = observation(20, 2, 3L, null, 0);
        busy.noThreadDumps = "remote";
        Verdict neverPressed = Verdict.judge(busy, new Holds(), new FrameGroups(), new FlightRecording.Starts(List.of(), List.of()), 4, JDK25, THRESHOLD);
        assertThat(neverPressed.inferredWait()).as("starts are recorded only while every carrier is taken with threads queued").isZero();
        assertThat(neverPressed.waitBasis()).contains("never every carrier taken");
        assertThat(neverPressed.starved()).isFalse();
    }

    /** Samples come every 250 ms while every carrier is taken and every 2 s otherwise: each weighs the time until the next. */
    @Test
    void sparseSamplesWhileACarrierIsFreeWeighTheTimeTheyStandFor() {
        Observation seen = new Observation(T0);
        for (int i = 0; i < 10; i++) {
            Instant at = i < 8 ? T0.plusMillis(250L * i) : T0.plusSeconds(2L * (i - 7));
            seen.samples.add(new Sample(at, 4, i < 8 ? 4 : 1, 10.0 * i, null, null, null, null, null, null, 0));
        }
        seen.end = T0.plusSeconds(6);
        seen.noThreadDumps = "remote";
        Verdict verdict = judge(seen, new Holds(), new FrameGroups(), JDK21);
        assertThat(verdict.saturatedShare()).as("every carrier taken in 8 of 10 samples, for 2 s of 6").isCloseTo(1 / 3.0,
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(verdict.starved()).isFalse();
    }

    private static void mounted(Observation seen, List<Frame> stack, List<Frame> owners, boolean carrierIdle) {
        seen.mounted.add(STACKS.hold(new Mounted(stack, owners, null, false), carrierIdle), stack, null, null, owners);
    }

    private static Verdict judge(Observation seen, Holds pinned, FrameGroups samples, TargetJvm.Facts facts) {
        return judge(seen, pinned, samples, facts, List.of());
    }

    /** {@code starts}: those recorded over the whole window, as while every carrier is taken with threads queued. */
    private static Verdict judge(Observation seen, Holds pinned, FrameGroups samples, TargetJvm.Facts facts, List<Instant> starts) {
        return Verdict.judge(seen, pinned, samples, new FlightRecording.Starts(starts, List.of(new FlightRecording.Starts.Span(T0, seen.end))), 4, facts,
                THRESHOLD);
    }

    /** {@code count} samples a quarter second apart over 5 s, {@code carrying} carriers taken in each, {@code heldIdle} of them held idle. */
    private static Observation observation(int count, int carrying, Long queued, Integer waiting, int heldIdle) {
        Observation seen = new Observation(T0);
        for (int i = 0; i < count; i++) {
            seen.samples.add(new Sample(T0.plusMillis(250L * i), 4, carrying, 10.0 * i, queued == null ? null : carrying, queued, waiting, null, null,
                    null, heldIdle));
        }
        seen.end = T0.plusSeconds(5);
        return seen;
    }

    private static ThreadDump.Thread waiting(long id, Instant at) {
        return new ThreadDump.Thread(id, "", true, "RUNNABLE", null, List.of(), List.of(), at);
    }

    private static TargetJvm.Facts facts(int feature, String pollerMode, Integer lockingMode) {
        return new TargetJvm.Facts(1, feature + ".0.1", "test", feature, "Linux", 4, null, null, pollerMode, lockingMode, "/tmp", T0.minusSeconds(60));
    }
}
