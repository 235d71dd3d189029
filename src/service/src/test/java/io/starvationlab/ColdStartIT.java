package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.starvationlab.harness.Gauges;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.PrometheusText;
import io.starvationlab.harness.ServerJdk;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.harness.load.Latencies;
import io.starvationlab.harness.load.Probes;

/**
 * A fresh JVM starved from its first second: as soon as the service is ready, one request per carrier holds every
 * carrier for {@link #HELD}, longer than the test, and a load of short requests queues behind them, while malformed
 * and unrouted requests, liveness and the event-loop probe arrive, each on a connection of its own so that every event
 * loop is sampled. Whatever the service would create on first use on its event loops it creates here, with no carrier
 * to be had. How a bean begun by a virtual thread that then waits for a carrier holds the event loops is
 * {@code LazyBeanIT}'s race; the experiment's eager cold start holds another fresh JVM by that race.
 * <p>
 * Short deadlines (acquire timeout 200 ms + grace 300 ms) make the event loops refuse the short requests, whose
 * virtual threads never get a carrier, with the same problem writer the malformed requests get.
 * <p>
 * The bounds are judged on the service's own clock ({@code http_server_requests_seconds_max}): a malformed request's
 * 400 and an unrouted one's 404 within 500 ms, liveness and the event-loop probe within 1 s; with no event loop
 * reported blocked, nothing waited unseen before the clock started. The carriers are held, not raced for: an answer
 * that needs one waits until the holders end, at least 4 s after the window (8x the bound), and misses the window.
 * A fresh JVM's first 400 costs its class loading and interpreted code: 20-55 ms here, 143 ms once beside a busy
 * neighbour, which the former bound of 100 ms (3x the quiet figure, not the busy one) failed; 3.5x under the bound
 * now. The client's figures are printed, and must only be answers, well before the probes' timeout.
 */
class ColdStartIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    static final Duration STARVED = Duration.ofSeconds(3);
    /** How long each carrier is held: the window (about 6 s from the holders' start) and at least 4 s more. */
    static final Duration HELD = Duration.ofSeconds(10);
    static final Map<String, String> SHORT_DEADLINES = Map.of("lab.downstream.acquire-timeout", "200ms", "lab.work.deadline-grace", "300ms");
    static final String MALFORMED = "/work/unpinned?ms=abc";
    /** No route: JAX-RS answers it, on the event loop, as admission answers the malformed one. */
    static final String UNROUTED = "/work/unpinned/extra";

    @Test
    void aFreshJvmStarvedAtOnceShouldAnswerBadInputAndProbesFromItsEventLoops() {
        long started = System.nanoTime();
        LabServer server = servers.lab("cold-start", SHORT_DEADLINES);
        long ready = System.nanoTime();
        LabClient lab = new LabClient(server.baseUri());
        String mode = ServerJdk.of(lab).starvingMode();
        Probes.Window window;
        try (ClosedLoad holders = ClosedLoad.start(server.uri("/work/" + mode + "?ms=" + HELD.toMillis() + "&downstream=sleep"),
                LabServer.CARRIERS, HELD.multipliedBy(2))) {
            Gauges held = Gauges.awaitUntil(lab, Duration.ofSeconds(10), g -> g.stalledSeconds() >= 0.5);
            assertThat(held.stalledSeconds()).as("every carrier held: the canary waited for one, s (%s)", held).isGreaterThanOrEqualTo(0.5);
            try (ClosedLoad load = ClosedLoad.start(server.uri("/work/" + mode + "?ms=200&downstream=sleep"), 32 * LabServer.CARRIERS,
                    Duration.ofSeconds(60));
                    Probes probes = Probes.start(server.baseUri(),
                            Map.of("malformed", MALFORMED, "unrouted", UNROUTED, "live", "/q/health/live", "event-loop", "/probe/event-loop"),
                            Map.of("malformed", 20.0, "unrouted", 10.0, "live", 10.0, "event-loop", 10.0), Duration.ofSeconds(30))) {
                Machine.pause(STARVED);
                load.stop(Duration.ofSeconds(30));
                Machine.pause(Duration.ofSeconds(1)); // the probes still in flight land in the window
                window = probes.nextWindow();
            }
            holders.stop(Duration.ZERO);
        }
        PrometheusText metrics = lab.metrics();
        double malformedOnServer = slowestMillis(metrics, "400", null);
        double unroutedOnServer = slowestMillis(metrics, "404", null);
        double liveOnServer = slowestMillis(metrics, "200", "/q/health/live");
        double eventLoopOnServer = slowestMillis(metrics, "200", "/probe/event-loop");
        Latencies malformed = window.latencies().get("malformed");
        System.out.printf("cold start: started in %.1f s; starved %d s: %d malformed, statuses %s, slowest %.1f ms on the server"
                + " (client p50 %.0f, max %.0f ms); unrouted slowest %.1f ms on the server; live slowest %.1f ms on the server (client max %.0f ms); event-loop slowest %.1f ms"
                + " on the server (client max %.0f ms); %.1f s in all%n",
                (ready - started) / 1e9, STARVED.toSeconds(), malformed.count(), malformed.statuses(),
                malformedOnServer, malformed.percentileMillis(50), malformed.maxMillis(), unroutedOnServer, liveOnServer,
                window.latencies().get("live").maxMillis(), eventLoopOnServer, window.latencies().get("event-loop").maxMillis(),
                (System.nanoTime() - started) / 1e9);

        assertThat(malformed.count()).as("malformed requests sent").isGreaterThanOrEqualTo(STARVED.toSeconds() * 15);
        assertThat(malformed.statuses()).as("every malformed request refused for its input, none told to retry").containsOnlyKeys(400);
        assertThat(malformedOnServer).as("a 400 on the server's clock, ms").isLessThan(500);
        assertThat(window.latencies().get("unrouted").statuses()).as("every unrouted request refused by JAX-RS").containsOnlyKeys(404);
        assertThat(unroutedOnServer).as("a 404 on the server's clock, ms").isLessThan(500);
        for (String probe : List.of("live", "event-loop")) {
            assertThat(window.latencies().get(probe).statuses()).as(probe + ": answered, all").containsOnlyKeys(200);
        }
        assertThat(liveOnServer).as("liveness on the server's clock, ms").isLessThan(1_000);
        assertThat(eventLoopOnServer).as("the event-loop probe on the server's clock, ms").isLessThan(1_000);
    }

    /** The longest answer to a GET with that status (and URI) on the server's clock, in milliseconds; there must be one. */
    static double slowestMillis(PrometheusText metrics, String status, String uri) {
        return metrics.slowestGetMillis(status, uri).orElseThrow(
                () -> new AssertionError("no http_server_requests_seconds_max for GET " + status + " " + uri));
    }
}
