package io.starvationlab.experiment.results;

import java.util.List;
import java.util.Map;

import io.starvationlab.experiment.run.EventLoopsBlocked;
import io.starvationlab.experiment.run.MeasuredColdStart;
import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.harness.CpuQuota;

/** Made-up judged figures, for the tests of what is judged and shown on them. */
public final class MadeUp {

    /** No blocked-thread warning. */
    public static final EventLoopsBlocked NONE_BLOCKED = new EventLoopsBlocked(0, 0, null);
    /** A lazy bean's creation as the blocked-thread checker logs it: 7 warnings, the longest 7.6 s, the first with its stack. */
    public static final EventLoopsBlocked STALL = new EventLoopsBlocked(7, 7_600, List.of(
            "WARN [io.ver.cor.imp.BlockedThreadChecker] Thread Thread[#45,vert.x-eventloop-thread-0,5,main] has been blocked for 1100 ms",
            "io.vertx.core.VertxException: Thread blocked", "at java.base/java.util.concurrent.locks.ReentrantLock.lock(ReentrantLock.java:322)",
            "at io.quarkus.arc.impl.ContextInstances.computeIfAbsent(Unknown Source)", "at io.starvationlab.rest.ProblemResponses_ClientProxy.end(Unknown Source)",
            "at io.starvationlab.rest.WorkInput.read(WorkInput.java:57)"));

    private MadeUp() {
    }

    /**
     * A phase of 64 clients on {@code mode} for 100 ms, at {@code throughput} against the {@code model}'s limit ({@code basis}):
     * {@code /probe/virtual} at a p50 of {@code virtualP50} ms (p99 twice, max thrice, and as many times its baseline), the
     * other probes at 3 / 30 / 40 ms.
     */
    public static JudgedPhase phase(String name, String mode, String basis, double throughput, double model, double virtualP50, String verdict) {
        return new JudgedPhase(name, "default", mode, "sleep", "private", 100, 64, 6, throughput, model, basis, (long) (throughput * 6), 0,
                Map.of("200", (long) (throughput * 6)), probes(virtualP50), virtualP50, 1, 0, 1, 0, 0, null, null, verdict, null, null);
    }

    /** A native phase at its carrier model of 40/s, starved, whose unrelated request waited as {@code wait} says. */
    public static JudgedPhase phase(String name, UnrelatedWait wait) {
        return new JudgedPhase(name, "default", "native", "sleep", "private", 100, 64, 6, 40, 40, "carriers", 240, 0, Map.of("200", 240L),
                probes(wait.measured().p50Millis()), 400, 1000, 1000, 1500, 1600, 0, null, null, JudgedPhase.STARVED, null, wait);
    }

    private static Map<String, JudgedPhase.ProbeFigures> probes(double virtualP50) {
        JudgedPhase.ProbeFigures fast = new JudgedPhase.ProbeFigures(3, 30, 40, 60, 0);
        return Map.of("virtual", new JudgedPhase.ProbeFigures(virtualP50, virtualP50 * 2, virtualP50 * 3, 40, 0), "worker", fast, "event-loop", fast,
                "health-live", fast);
    }

    /**
     * A server JVM inside a quota of {@code cpus} on a machine of 2 processors: it read the quota from its group and took {@code carriers}
     * processors and carriers, the quota ran out as {@code throttling} says during its warm-up.
     */
    public static JudgedQuota.Server quotaServer(String jvm, int cpus, int carriers, CpuQuota.Throttling throttling, JudgedQuota.Phase... phases) {
        MeasuredServer.Info info = info(jvm, carriers, carriers, null, new MeasuredServer.Info.Container("v1", cpus * CpuQuota.PERIOD_MICROS,
                CpuQuota.PERIOD_MICROS, cpus, cpus < 2 ? "Serial" : "G1"));
        return new JudgedQuota.Server(jvm, cpus, info, cpus < 2, throttling, List.of(phases));
    }

    /** A server JVM's {@code /lab/info}: JDK 26 with 4 event loops, {@code processors} and {@code carriers}, inside {@code container}. */
    public static MeasuredServer.Info info(String jvm, int processors, int carriers, Boolean synchronizedPins, MeasuredServer.Info.Container container) {
        return new MeasuredServer.Info(jvm, "", "26.0.2", "Debian", processors, carriers, 256, null, synchronizedPins, true, 50, 16, 200, List.of(), 4,
                container);
    }

    /** A lazy cold start, blocked as {@code blocked} says, whose probes all waited for the bean, about 7.9 s. */
    public static MeasuredColdStart lazy(int repeat, EventLoopsBlocked blocked) {
        return new MeasuredColdStart(repeat, true, "cold-start-lazy-" + repeat, "native", 4.2, true, blocked,
                Map.of("malformed", probe(400, 7_800, Double.NaN), "live", probe(200, 7_900, 2), "event-loop", probe(200, 7_900, 1)));
    }

    /** An eager cold start, no event loop blocked, whose probes the service answered in the times given, ms. */
    public static MeasuredColdStart eager(int repeat, double malformedMillis, double liveMillis, double eventLoopMillis) {
        return new MeasuredColdStart(repeat, false, "cold-start-eager-" + repeat, "native", 4.1, true, NONE_BLOCKED,
                probes(malformedMillis, liveMillis, eventLoopMillis, 400));
    }

    /** 40 of each probe: the service's times (ms), the client's 10 ms later; the malformed ones answered {@code malformedStatus}. */
    public static Map<String, MeasuredColdStart.Probe> probes(double malformedMillis, double liveMillis, double eventLoopMillis, int malformedStatus) {
        return Map.of("malformed", probe(malformedStatus, malformedMillis + 10, malformedMillis), "live", probe(200, liveMillis + 10, liveMillis),
                "event-loop", probe(200, eventLoopMillis + 10, eventLoopMillis));
    }

    private static MeasuredColdStart.Probe probe(int status, double clientMillis, double serverMillis) {
        return new MeasuredColdStart.Probe(40, Map.of(status, 40L), clientMillis, serverMillis);
    }
}
