package io.starvationlab.harness.load;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.PrometheusText;

/**
 * A fresh server JVM starved at once, with the race of a bean that its event loops and its virtual threads
 * share, left to its first use ({@link #LAZY_SWITCH}) or created at start-up (the default); the experiment's
 * cold-start runs and {@code LazyBeanIT} alike.
 * <p>
 * The race is set, not drawn: while the bean's creator waits for a carrier, every carrier is held for seconds,
 * whatever order the scheduler picks in. With permits = carriers - 1: {@link #HOLDERS} requests take 3 carriers
 * and every permit for {@link #HOLD}; the trigger takes the last carrier, waits the acquire timeout (1 s) for a
 * permit and is refused, and the exception mapper on its virtual thread is the bean's first use. Midway through
 * the creation that thread waits 100 ms for a call another thread answers (as a creation that awaits a remote
 * call does) and gives
 * up its carrier to a {@link #FILLERS filler} queued meanwhile, CPU work that needs no permit: the creator's
 * return waits for a holder to end. The event loops need the bean once that creation has begun (the service
 * logs it): malformed requests, liveness and the event-loop probe arrive from then on, each malformed one
 * refused by an event loop with the bean's problem writer. With the bean created at start-up the same sequence
 * runs, and they arrive once the trigger's permit refusal is counted.
 */
public final class ColdStartRace {

    /** The service's switch that leaves its problem writer to its first use. */
    public static final String LAZY_SWITCH = "lab.faults.lazy-problem-responses";
    /** The service's line once a virtual thread has begun the lazy creation and holds ArC's lock for the bean. */
    public static final String CREATION_BEGUN = LAZY_SWITCH + ": created";
    /** Every permit held by the holders, the trigger refused after 1 s, one event loop, the checker at 1 s so a stall is seen well before it ends. */
    public static final Map<String, String> RACE = Map.of("lab.downstream.permits", String.valueOf(LabServer.CARRIERS - 1),
            "lab.downstream.acquire-timeout", "1s", "quarkus.vertx.event-loops-pool-size", "1", "quarkus.vertx.max-event-loop-execute-time", "1s");
    /** One per permit, each holding a carrier and a permit. */
    public static final int HOLDERS = LabServer.CARRIERS - 1;
    public static final Duration HOLD = Duration.ofSeconds(6);
    /**
     * Requests that hold a carrier for {@link #HOLD} without a permit, queued while the trigger waits for its
     * permit: the carrier the creator gives up goes to one; two, so that when the holders end the creator and
     * the other filler find 3 carriers between them.
     */
    public static final int FILLERS = 2;
    public static final String MALFORMED = "/work/native?ms=abc";
    /** What arrives on the event loops once they need the bean, each on a connection of its own, 10 a second. */
    public static final Map<String, String> PROBES = Map.of("malformed", MALFORMED, "live", "/q/health/live", "event-loop", "/probe/event-loop");
    private static final Duration TRIGGER_WITHIN = Duration.ofSeconds(10);
    /** The trigger's wait for a permit seen, then the fillers queued: each well inside its acquire timeout (1 s). */
    private static final Duration STEP_WITHIN = Duration.ofMillis(700);

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
     * @param triggered whether the race was set (holders, trigger and fillers in place in time) and the event loops
     *                  came to need the bean (the lazy creation begun, or the trigger refused a permit); the probes
     *                  start either way
     * @param window    the probes' answers, by {@link #PROBES} name
     * @param metrics   the service's own {@code /q/metrics} once the load has stopped, for its clock
     * @param blocked   the blocked-thread checker's warnings about event loops, from the server's log
     */
    public record Starved(boolean triggered, Probes.Window window, PrometheusText metrics, List<LabServer.BlockedEventLoop> blocked) {

        /** The longest answer of {@code http_server_requests_seconds_max} with that status and, if given, URI, in ms; NaN when none. */
        public double serverMaxMillis(String status, String uri) {
            return metrics.slowestGetMillis(status, uri).orElse(Double.NaN);
        }
    }

    /**
     * Runs the race on a server started with {@link #properties}: the holders and the trigger on {@code mode}
     * (work that holds its carrier while it waits for a permit and sleeps), the fillers on {@code cpu}, the probes
     * from the moment the event loops need the bean for {@code starved}, then until the holders have answered;
     * {@code whileStarved} runs every 100 ms meanwhile (a thread dump during the stall).
     */
    public static Starved starve(LabServer server, String mode, boolean lazy, Duration starved, Runnable whileStarved) {
        LabClient lab = new LabClient(server.baseUri());
        HttpClient http = ClosedLoad.http1Client();
        Probes.Window window;
        boolean triggered;
        try {
            List<CompletableFuture<?>> holders = new ArrayList<>();
            for (int i = 0; i < HOLDERS; i++) {
                holders.add(send(http, server, "/work/" + mode + "?ms=" + HOLD.toMillis() + "&downstream=sleep"));
            }
            boolean set = await(() -> gauge(lab, "lab_downstream_permits_in_use") >= HOLDERS, TRIGGER_WITHIN);
            CompletableFuture<?> trigger = send(http, server, "/work/" + mode + "?ms=100&downstream=sleep");
            set &= await(() -> gauge(lab, "lab_downstream_permits_waiting") >= 1, STEP_WITHIN);
            List<CompletableFuture<?>> fillers = new ArrayList<>();
            for (int i = 0; i < FILLERS; i++) {
                fillers.add(send(http, server, "/work/cpu?ms=" + HOLD.toMillis()));
            }
            // still waiting for its permit: the fillers are queued before the trigger gives up its carrier
            set &= await(() -> gauge(lab, "virtual_threads_carrier_queued") >= FILLERS && gauge(lab, "lab_downstream_permits_waiting") >= 1, STEP_WITHIN);
            triggered = set & await(() -> lazy ? server.logText().contains(CREATION_BEGUN)
                    : lab.metrics().sum("lab_downstream_rejected_total", sample -> "permit-timeout".equals(sample.label("reason"))).orElse(0.0) > 0,
                    TRIGGER_WITHIN);
            try (Probes probes = Probes.start(server.baseUri(), PROBES, Map.of("malformed", 10.0, "live", 10.0, "event-loop", 10.0),
                    Duration.ofSeconds(30))) {
                long until = System.nanoTime() + starved.toNanos();
                while (System.nanoTime() < until || !(trigger.isDone() && holders.stream().allMatch(CompletableFuture::isDone))) {
                    whileStarved.run();
                    Machine.pause(Duration.ofMillis(100));
                    if (System.nanoTime() - until > HOLD.toNanos() + TRIGGER_WITHIN.toNanos()) {
                        break; // bounded: the holders' deadline answers them well before
                    }
                }
                Machine.pause(Duration.ofSeconds(1)); // the probes still in flight land in the window
                window = probes.nextWindow();
            }
            fillers.forEach(filler -> filler.cancel(true));
        } finally {
            http.shutdownNow();
        }
        return new Starved(triggered, window, lab.metrics(), server.eventLoopBlockedWarnings());
    }

    private static CompletableFuture<?> send(HttpClient http, LabServer server, String path) {
        HttpRequest request = HttpRequest.newBuilder(server.uri(path)).timeout(Duration.ofSeconds(30)).GET().build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
    }

    private static boolean await(BooleanSupplier condition, Duration within) {
        long until = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < until) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Machine.pause(Duration.ofMillis(20));
        }
        return false;
    }

    private static double gauge(LabClient lab, String name) {
        return lab.metrics().sum(name, sample -> true).orElse(0.0);
    }
}
