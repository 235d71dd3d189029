package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Needs;
import io.starvationlab.harness.ServerJdk;
import io.starvationlab.harness.Servers;
import io.starvationlab.harness.load.PhaseResult;
import io.starvationlab.harness.load.PhaseRunner;
import io.starvationlab.harness.plan.Plan;
import io.starvationlab.harness.plan.Prediction;
import io.starvationlab.harness.plan.StarvationRule;

/**
 * The packaged service on JDK 21, the JDK of the default image, whatever JDK builds it: there
 * {@code synchronized} pins (no JEP 491), the native mode is absent (no final FFM) and the I/O pollers
 * are platform threads. The same expectations on the build JDK, where {@code pinned} does not starve,
 * are {@link StarvationIT}'s. One server for the whole class, with the opt-in starvation readiness on.
 * <p>
 * JDK 21 comes from {@link Jdks#discover()} ({@code LAB_JDKS}, the machine's JDKs, {@code .ci/fetch-jdks}'
 * cache); without one the class fails in CI ({@code CI=true}) and is skipped loudly elsewhere.
 */
class Jdk21IT {

    @RegisterExtension
    static final Servers servers = new Servers();

    static final int CARRIER_MODEL_PER_SECOND = LabServer.CARRIERS * 1000 / 100;
    static final int CONCURRENCY = 16 * LabServer.CARRIERS;
    static final Duration LOAD = Duration.ofSeconds(6);
    static final Duration DRAIN = Duration.ofSeconds(2);
    /** The plan's one rule for "starved", which the experiment and the k6 suite apply too. */
    static final StarvationRule RULE = Plan.ofProject().starved();
    /** What JDK 21 does, as {@link Prediction} says: every expectation below that depends on the JDK is read from it. */
    static final ServerJdk JDK21 = new ServerJdk(21);

    static LabServer server;
    static PhaseRunner phases;
    static PhaseResult idle;

    @BeforeAll
    static void start() {
        Jdks.Jdk jdk21 = Needs.jdk(21);
        System.out.println("Jdk21IT on " + jdk21.describe() + " at " + jdk21.launcher());
        server = servers.lab(jdk21, List.of(), Map.of("lab.starvation.readiness.enabled", "true", "lab.starvation.threshold", "1s"), "jdk21");
        phases = servers.keep(new PhaseRunner(server));
        for (String path : List.of("/work/unpinned?ms=20&downstream=sleep", "/work/pinned?ms=20&downstream=sleep",
                "/work/pinned?ms=20&downstream=db", "/work/cpu?ms=20&downstream=sleep")) {
            phases.run("warm-up", path, 8, Duration.ofSeconds(1), Duration.ofMillis(300));
        }
        idle = phases.baseline("idle", Duration.ofSeconds(4), Duration.ofMillis(500));
        System.out.println(idle.summary());
    }

    @Test
    void infoShouldSayWhatJdk21Does() {
        JsonNode info = phases.lab().info();
        assertThat(info.path("javaVersion").asText()).startsWith("21");
        assertThat(info.path("synchronizedPins").isBoolean()).as("measured at start-up").isTrue();
        assertThat(info.path("synchronizedPins").asBoolean()).as("no JEP 491 on 21: blocking in synchronized pins")
                .isEqualTo(JDK21.facts().synchronizedPins());
        assertThat(info.path("nativePinAvailable").asBoolean()).as("no final FFM on 21").isEqualTo(JDK21.facts().nativePinAvailable());
        assertThat(info.path("nativePinUnavailableReason").asText()).contains("JDK 21", "FFM");
        assertThat(info.path("carrierParallelism").asInt()).isEqualTo(LabServer.CARRIERS);
    }

    @Test
    void nativeShouldBeAProblemNotImplemented() {
        for (String downstream : List.of("sleep", "db")) {
            HttpResponse<String> answer = phases.lab().get("/work/native?ms=10&downstream=" + downstream);
            assertThat(answer.statusCode()).as("native/" + downstream).isEqualTo(501);
            assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
            JsonNode problem = parse(answer.body());
            assertThat(problem.path("status").asInt()).isEqualTo(501);
            assertThat(problem.path("type").asText()).endsWith("mode-unavailable");
            assertThat(problem.path("detail").asText()).contains("native", "JDK 21");
        }
    }

    /**
     * {@code synchronized} pins on 21: throughput is the carrier model, the probe starves by the plan's
     * rule, the canary sees it, JFR names the monitor holder, and the opt-in readiness goes DOWN while it
     * lasts and UP after. On the build JDK the same load does not starve: {@link StarvationIT}.
     */
    @Test
    void pinnedShouldStarveAtTheCarrierModelAndTakeReadinessDownUntilItEnds() {
        List<Integer> readiness = new CopyOnWriteArrayList<>();
        List<String> bodies = new CopyOnWriteArrayList<>();
        List<Integer> liveness = new CopyOnWriteArrayList<>();
        LabClient health = new LabClient(server.baseUri());
        Thread poller = Thread.ofPlatform().daemon().name("readiness-poller").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    HttpResponse<String> ready = health.get("/q/health/ready", Duration.ofSeconds(5));
                    readiness.add(ready.statusCode());
                    bodies.add(ready.body());
                    liveness.add(health.get("/q/health/live", Duration.ofSeconds(5)).statusCode());
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    readiness.add(0);
                }
            }
        });
        PhaseResult load;
        try {
            load = phases.run("pinned", "/work/pinned?ms=100&downstream=sleep", CONCURRENCY, LOAD, DRAIN);
        } finally {
            poller.interrupt();
        }
        System.out.println(load.summary());

        assertThat(load.starved(RULE, idle)).as("starved by the plan's rule: %s", RULE.describe()).isEqualTo(JDK21.starves("pinned", "sleep"));
        assertThat(load.throughput()).as("carriers / ms: pinned work runs %d at a time", LabServer.CARRIERS)
                .isBetween(0.8 * CARRIER_MODEL_PER_SECOND, 1.2 * CARRIER_MODEL_PER_SECOND);
        assertThat(load.topPinnedFrame()).as("/lab/pinning names the monitor holder")
                .isEqualTo("io.starvationlab.service.WorkService.callInsideMonitor");
        assertThat(load.canaryP99Millis()).as("canary p99 from its histogram").isGreaterThanOrEqualTo(100);
        assertThat(load.maxStalledMillis()).as("stalled gauge during the stall").isGreaterThan(0);
        // 64 clients of 100 ms work on 4 carriers: by Little's law a request waits 1.5 s on average for its carrier
        assertThat(load.requestWaitP99Millis()).as("the requests' wait for a carrier, p99").isGreaterThanOrEqualTo(1000);
        assertThat(load.maxRequestStalledMillis()).as("the oldest request still waiting, sampled").isGreaterThan(750);

        List<JsonNode> starvation = bodies.stream().map(body -> starvationCheck(parse(body))).toList();
        long down = readiness.stream().filter(status -> status == 503).count();
        System.out.printf("readiness during pinned: %d of %d polls DOWN; waits for a carrier: requests up to %d ms, canary up to %d ms%n",
                down, readiness.size(), starvation.stream().mapToLong(check -> check.path("data").path("requestStalledMillis").asLong()).max().orElse(-1),
                starvation.stream().mapToLong(check -> check.path("data").path("stalledMillis").asLong()).max().orElse(-1));
        // 64 clients of 100 ms work on 40/s of carriers: by Little's law a request waits 1.5 s on average
        // for its carrier, past the 1 s threshold; the canary's own wait is a draw (its one queue), not a bound
        assertThat(down).as("readiness DOWN while requests wait past 1 s for a carrier").isPositive();
        assertThat(starvation).as("every DOWN is the carriers', not the database's")
                .filteredOn(check -> check.path("status").asText().equals("DOWN")).hasSize((int) down);
        assertThat(liveness).as("liveness never goes down for starvation").isNotEmpty().containsOnly(200);
        long stopped = System.nanoTime();
        while (health.get("/q/health/ready").statusCode() != 200 && System.nanoTime() - stopped < Duration.ofSeconds(10).toNanos()) {
            LabServer.sleep(Duration.ofMillis(200));
        }
        assertThat(health.get("/q/health/ready").statusCode()).as("ready again once the load stopped").isEqualTo(200);
    }

    /**
     * A carrier pinned on a socket read: on 21 the I/O pollers are platform threads, so the database
     * answers and {@code pinned}/{@code db} runs at the carrier model. From JDK 22 the pollers are
     * virtual threads and the same pin collapses (the experiment's JDK matrix measures both).
     */
    @Test
    void pinnedOnTheDatabaseShouldFollowTheCarrierModelBecauseThePollersArePlatformThreads() {
        int permits = phases.lab().info().path("permits").path("db").asInt();
        assertThat(permits).as("db permits above the carriers, so carriers bound the throughput").isGreaterThan(LabServer.CARRIERS);
        PhaseResult load = phases.run("pinned-db", "/work/pinned?ms=100&downstream=db", CONCURRENCY, LOAD, DRAIN);
        System.out.println(load.summary());

        Prediction.Outcome predicted = JDK21.outcome("pinned", "db");
        if (predicted == Prediction.Outcome.COLLAPSES) {
            assertThat(load.throughput()).as("a collapse: under half the carrier model").isLessThan(0.5 * CARRIER_MODEL_PER_SECOND);
        } else {
            assertThat(load.load().latencies().failed()).as("errors: %s", load.load().latencies().statuses()).isZero();
            // the database's round trip and its CPU add to each 100 ms on two shared cores; the collapse
            // this rules out is two orders of magnitude lower, and the matrix draws the line at half the model
            assertThat(load.throughput()).as("carriers / ms, not a collapse")
                    .isBetween(0.5 * CARRIER_MODEL_PER_SECOND, 1.2 * CARRIER_MODEL_PER_SECOND);
        }
        assertThat(load.starved(RULE, idle)).as("starved by the plan's rule: %s", RULE.describe()).isEqualTo(predicted.starved());
        assertThat(load.topPinnedFrame()).isEqualTo("io.starvationlab.service.WorkService.callInsideMonitor");
    }

    private static JsonNode starvationCheck(JsonNode health) {
        for (JsonNode check : health.path("checks")) {
            if (check.path("name").asText().equals("carrier-starvation")) {
                return check;
            }
        }
        return fail("no carrier-starvation check in " + health);
    }

    private static JsonNode parse(String body) {
        try {
            return LabClient.json().readTree(body);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }
}
