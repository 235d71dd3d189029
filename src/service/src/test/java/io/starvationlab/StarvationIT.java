package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.ServerJdk;
import io.starvationlab.harness.Servers;
import io.starvationlab.harness.load.PhaseResult;
import io.starvationlab.harness.load.PhaseRunner;
import io.starvationlab.harness.plan.Plan;
import io.starvationlab.harness.plan.StarvationRule;

/**
 * Carrier starvation in the packaged service: its own JVM with 4 carriers, load and probes from this
 * JVM on platform threads. Bounds are generous ratios; the experiment measures the exact figures.
 */
class StarvationIT {

    static final int CONCURRENCY = 16 * LabServer.CARRIERS;
    static final Duration LOAD = Duration.ofSeconds(6);
    static final Duration DRAIN = Duration.ofSeconds(2);

    /** The plan's one rule for "starved", which the experiment and the k6 suite apply too. */
    static final StarvationRule RULE = Plan.ofProject().starved();

    @RegisterExtension
    static final Servers servers = new Servers();
    static ServerJdk jdk;
    static PhaseRunner phases;
    static PhaseResult idle;

    @BeforeAll
    static void start() {
        phases = servers.keep(new PhaseRunner(servers.lab("starvation", Map.of())));
        jdk = ServerJdk.of(phases.lab());
        warmUp(phases);
        idle = phases.baseline("idle", Duration.ofSeconds(4), Duration.ofMillis(500));
        System.out.printf("idle: virtual p50 %.2f ms p99 %.2f ms%n", idle.probe("virtual").percentileMillis(50), idle.probe("virtual").percentileMillis(99));
    }

    /** Every mode once under light load, so the measured phases do not time the JIT. */
    static void warmUp(PhaseRunner runner) {
        for (String mode : List.of("unpinned", ServerJdk.of(runner.lab()).starvingMode(), "pinned", "cpu")) {
            runner.run("warm-up " + mode, "/work/" + mode + "?ms=20&downstream=sleep", 8, Duration.ofSeconds(1), Duration.ofMillis(300));
        }
    }

    @Test
    void nativeLoadStarvesTheVirtualProbeWhileTheOthersStayFast() {
        assumeTrue(jdk.hasFfm(), "the native mode needs FFM, final from JDK 22; the service runs on " + jdk);
        PhaseResult load = phases.run("native", "/work/native?ms=100&downstream=sleep", CONCURRENCY, LOAD, DRAIN);
        report(load);

        assertStarved(jdk.starves("native", "sleep"), load, idle);
        for (String unrelated : List.of("worker", "event-loop", "health-live")) {
            assertThat(load.probe(unrelated).percentileMillis(99)).as(unrelated + " p99 (not on the carriers)")
                    .isLessThan(Math.max(5 * idle.probe(unrelated).percentileMillis(99), 100));
        }
        double model = LabServer.CARRIERS / 0.1;
        assertThat(load.throughput()).as("carriers / ms: pinned work runs %d at a time", LabServer.CARRIERS)
                .isBetween(0.8 * model, 1.2 * model);

        assertThat(load.canaryP99Millis()).as("canary p99 from its histogram").isGreaterThanOrEqualTo(100);
        assertThat(load.maxStalledMillis()).as("stalled gauge during the stall").isGreaterThan(0);
        assertRequestsWaitedTheirTurn(load);
        assertThat(load.topPinnedFrame()).as("/lab/pinning names the upcall").isEqualTo("io.starvationlab.service.WorkService.callInsideUpcall");
        if (jdk.namesPinnedReason()) {
            assertThat(load.topPinnedReason()).isEqualTo("Native or VM frame on stack");
        }
        long served = load.load().latencies().ok();
        assertThat(load.topPinnedCount()).as("one pinned episode per request served").isBetween(served - 5, served + 5);
    }

    @Test
    void unpinnedLoadLeavesTheVirtualProbeFastAndReachesThePermitLimit() {
        PhaseResult load = phases.run("unpinned", "/work/unpinned?ms=100&downstream=sleep", CONCURRENCY, LOAD, DRAIN);
        report(load);

        assertStarved(jdk.starves("unpinned", "sleep"), load, idle);
        double permits = phases.lab().info().path("permits").path("sleep").asInt();
        assertThat(load.throughput()).as("permits / ms").isGreaterThanOrEqualTo(0.8 * permits / 0.1);
        assertThat(load.canaryP99Millis()).as("canary p99 with free carriers").isLessThan(20);
        assertThat(load.requestWaitP99Millis()).as("the requests' wait for a carrier, p99, with free carriers").isLessThan(100);
        assertThat(load.pinnedEvents()).isZero();
    }

    @Test
    void pinnedStarvesExactlyWhenTheJvmSaysSynchronizedPins() {
        boolean pins = phases.lab().info().path("synchronizedPins").asBoolean();
        PhaseResult load = phases.run("pinned", "/work/pinned?ms=100&downstream=sleep", CONCURRENCY, LOAD, DRAIN);
        report(load);
        assertStarvedExactlyWhen(pins, load, idle);
    }

    /** JDK 24 and 25 fixed synchronized (JEP 491); -XX:LockingMode=1 brings back JDK 21's pinning. */
    @Test
    void legacyLockingBringsBackPinningOnJdk24And25() {
        assumeTrue(jdk.legacyLockingPins(), "LockingMode=1 brings pinning back on JDK 24 and 25 only; the service runs on " + jdk);
        PhaseRunner legacyPhases = servers.keep(new PhaseRunner(servers.lab(Jdks.current(), List.of("-XX:LockingMode=1"), Map.of(),
                "starvation-legacy-locking")));
        assertThat(legacyPhases.lab().info().path("lockingMode").asInt()).isEqualTo(1);
        assertThat(legacyPhases.lab().info().path("synchronizedPins").asBoolean()).as("measured at start-up").isTrue();
        warmUp(legacyPhases);
        PhaseResult legacyIdle = legacyPhases.baseline("idle", Duration.ofSeconds(3), Duration.ofMillis(500));
        PhaseResult load = legacyPhases.run("pinned", "/work/pinned?ms=100&downstream=sleep", CONCURRENCY, LOAD, DRAIN);
        report(load);
        assertStarvedExactlyWhen(true, load, legacyIdle);
        assertThat(load.topPinnedFrame()).as("/lab/pinning names the monitor holder")
                .isEqualTo("io.starvationlab.service.WorkService.callInsideMonitor");
    }

    static void assertStarvedExactlyWhen(boolean pins, PhaseResult load, PhaseResult baseline) {
        assertStarved(pins, load, baseline);
        if (pins) {
            assertThat(load.throughput()).as("carriers / ms").isLessThan(1.2 * LabServer.CARRIERS / 0.1);
        } else {
            assertThat(load.throughput()).as("well above carriers / ms").isGreaterThan(3 * LabServer.CARRIERS / 0.1);
        }
    }

    /** The plan's rule, applied to the probe it names. */
    static void assertStarved(boolean expected, PhaseResult load, PhaseResult baseline) {
        double loaded = load.probe(RULE.probe()).percentileMillis(RULE.percentile());
        double idleFigure = baseline.probe(RULE.probe()).percentileMillis(RULE.percentile());
        assertThat(RULE.starved(loaded, idleFigure)).as("%s: %.1f ms under load, %.1f ms idle (%s)", load.name(), loaded, idleFigure,
                RULE.describe()).isEqualTo(expected);
    }

    /**
     * {@link #CONCURRENCY} clients of 100 ms work on {@link LabServer#CARRIERS} carriers: by Little's law a
     * request waits (concurrency - carriers) / throughput = 1.5 s on average for its carrier, so its p99 is
     * past a second, and a request was seen waiting (the gauge sampled) for over half of that.
     */
    static void assertRequestsWaitedTheirTurn(PhaseResult load) {
        assertThat(load.requestWaitP99Millis()).as("the requests' wait for a carrier, p99").isGreaterThanOrEqualTo(1000);
        assertThat(load.maxRequestStalledMillis()).as("the oldest request still waiting, sampled").isGreaterThan(750);
    }

    static void report(PhaseResult phase) {
        StringBuilder line = new StringBuilder(String.format("%-10s throughput %7.1f/s errors %d |", phase.name(), phase.throughput(),
                phase.load() == null ? 0 : phase.load().latencies().failed()));
        phase.probes().forEach((name, latencies) -> line.append(String.format(" %s p50 %.1f p99 %.1f ms;", name,
                latencies.percentileMillis(50), latencies.percentileMillis(99))));
        line.append(String.format(" canary p99 %.1f ms, stalled max %.0f ms; requests' wait for a carrier p99 %.1f ms, stalled max %.0f ms;"
                + " pinned events %d (%s)", phase.canaryP99Millis(), phase.maxStalledMillis(), phase.requestWaitP99Millis(),
                phase.maxRequestStalledMillis(), phase.pinnedEvents(), phase.topPinnedFrame()));
        System.out.println(line);
    }
}
