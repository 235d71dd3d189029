package io.starvationlab.experiment.load;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.starvationlab.experiment.server.LabClient;
import io.starvationlab.experiment.server.LabServer;
import io.starvationlab.experiment.server.PrometheusText;

/**
 * A fresh server JVM starved at once, with the race of a bean that its event loops and its virtual threads
 * share, left to its first use ({@link #LAZY_SWITCH}) or created at start-up (the default); the experiment's
 * cold-start runs and {@code LazyBeanIT} alike.
 * <p>
 * The race is not left to luck. The first use is on a virtual thread: with 2 permits for 4 carriers and an
 * acquire timeout (500 ms) shorter than the work (1 s), two of the first four requests are refused for a
 * permit while the load's backlog builds, by the exception mapper on their virtual threads. Midway through
 * its creation that thread waits for its event loop, as a creation that awaits a Vert.x client does, and the
 * event loop's answer puts it back in the queue for a carrier, behind the backlog: with one event loop (as
 * here) the whole backlog. The event loops need the bean once that creation has begun (the service logs it):
 * malformed requests, liveness and the event-loop probe arrive from then on, each malformed one refused by
 * an event loop with the bean's problem writer. With the bean created at start-up they arrive once the first
 * permit refusal is counted.
 */
public final class ColdStartRace {

    /** The service's switch that leaves its problem writer to its first use. */
    public static final String LAZY_SWITCH = "lab.beans.lazy-problem-responses";
    /** The service's line once a virtual thread has begun the lazy creation and holds ArC's lock for the bean. */
    public static final String CREATION_BEGUN = LAZY_SWITCH + ": created";
    /** The race, one event loop, and the blocked-thread checker at 1 s so that a stall is seen well before it ends. */
    public static final Map<String, String> RACE = Map.of("lab.downstream.permits", "2", "lab.downstream.acquire-timeout", "500ms",
            "quarkus.vertx.event-loops-pool-size", "1", "quarkus.vertx.max-event-loop-execute-time", "1s");
    public static final int CLIENTS = 10 * LabServer.CARRIERS;
    public static final String MALFORMED = "/work/native?ms=abc";
    /** What arrives on the event loops once they need the bean, each on a connection of its own, 10 a second. */
    public static final Map<String, String> PROBES = Map.of("malformed", MALFORMED, "live", "/q/health/live", "event-loop", "/probe/event-loop");
    private static final Duration TRIGGER_WITHIN = Duration.ofSeconds(20);

    private ColdStartRace() {
    }

    /** The server's system properties for the race, with the bean left lazy or not. */
    public static Map<String, String> properties(boolean lazy) {
        Map<String, String> properties = new TreeMap<>(RACE);
        properties.put(LAZY_SWITCH, String.valueOf(lazy));
        return properties;
    }

    /**
     * What the starved JVM showed.
     *
     * @param triggered whether the event loops came to need the bean within 20 s of the load's start (the
     *                  lazy creation begun, or a permit refused); the probes start either way
     * @param window    the probes' answers, by {@link #PROBES} name
     * @param metrics   the service's own {@code /q/metrics} once the load has stopped, for its clock
     * @param blocked   the blocked-thread checker's warnings about event loops, from the server's log
     */
    public record Starved(boolean triggered, Probes.Window window, PrometheusText metrics, List<LabServer.BlockedEventLoop> blocked) {

        /** The longest answer of {@code http_server_requests_seconds_max} with that status and, if given, URI, in ms; NaN when none. */
        public double serverMaxMillis(String status, String uri) {
            return metrics.samples("http_server_requests_seconds_max", sample -> "GET".equals(sample.label("method"))
                    && status.equals(sample.label("status")) && (uri == null || uri.equals(sample.label("uri"))))
                    .stream().mapToDouble(sample -> sample.value() * 1000).max().orElse(Double.NaN);
        }
    }

    /**
     * Starves a server started with {@link #properties} at once: {@link #CLIENTS} clients on {@code mode} (work
     * that holds a carrier for 1 s), the probes from the moment the event loops need the bean, for
     * {@code starved}; {@code whileStarved} runs every 100 ms meanwhile (a thread dump during the stall).
     */
    public static Starved starve(LabServer server, String mode, boolean lazy, Duration starved, Runnable whileStarved) {
        LabClient lab = new LabClient(server.baseUri());
        Probes.Window window;
        boolean triggered;
        try (ClosedLoad load = ClosedLoad.start(server.uri("/work/" + mode + "?ms=1000&downstream=sleep"), CLIENTS, Duration.ofSeconds(60))) {
            triggered = awaitTrigger(server, lab, lazy);
            try (Probes probes = Probes.start(server.baseUri(), PROBES, Map.of("malformed", 10.0, "live", 10.0, "event-loop", 10.0),
                    Duration.ofSeconds(30))) {
                long until = System.nanoTime() + starved.toNanos();
                while (System.nanoTime() < until) {
                    whileStarved.run();
                    LabServer.sleep(Duration.ofMillis(100));
                }
                load.stop(Duration.ofSeconds(30));
                LabServer.sleep(Duration.ofSeconds(1)); // the probes still in flight land in the window
                window = probes.nextWindow();
            }
        }
        return new Starved(triggered, window, lab.metrics(), server.eventLoopBlockedWarnings());
    }

    private static boolean awaitTrigger(LabServer server, LabClient lab, boolean lazy) {
        long until = System.nanoTime() + TRIGGER_WITHIN.toNanos();
        while (System.nanoTime() < until) {
            if (lazy ? server.logText().contains(CREATION_BEGUN) : permitTimeouts(lab) > 0) {
                return true;
            }
            LabServer.sleep(Duration.ofMillis(50));
        }
        return false;
    }

    private static double permitTimeouts(LabClient lab) {
        return lab.metrics().sum("lab_downstream_rejected_total", sample -> "permit-timeout".equals(sample.label("reason"))).orElse(0.0);
    }
}
