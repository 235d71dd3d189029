package io.starvationlab.experiment.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Requests to the unrelated endpoints at a fixed arrival rate, whatever the answers' latency (an
 * open model: a slow answer does not delay the next request, so latency stays comparable across
 * phases). Each request counts for the window in which it was sent, even if it answers later.
 */
public final class Probes implements AutoCloseable {

    private final HttpClient client;
    private final boolean ownsClient;
    private final ScheduledExecutorService clock;
    private final Map<String, HttpRequest> requests = new LinkedHashMap<>();
    private final AtomicReference<Map<String, Latencies>> window = new AtomicReference<>();

    private Probes(HttpClient client, boolean ownsClient, URI base, Map<String, String> endpoints, double ratePerSecond, Duration timeout) {
        this.client = client;
        this.ownsClient = ownsClient;
        endpoints.forEach((name, path) -> requests.put(name, HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).GET().build()));
        window.set(newWindow());
        this.clock = Executors.newScheduledThreadPool(1, Thread.ofPlatform().daemon().name("probe-clock").factory());
        long periodNanos = (long) (1e9 / ratePerSecond);
        long offset = 0;
        for (Map.Entry<String, HttpRequest> probe : requests.entrySet()) {
            clock.scheduleAtFixedRate(() -> send(probe.getKey(), probe.getValue()), offset, periodNanos, TimeUnit.NANOSECONDS);
            offset += periodNanos / requests.size(); // spread the endpoints over the period
        }
    }

    /** Probes over HTTP/1.1, on connections of their own. */
    public static Probes start(URI base, Map<String, String> endpoints, double ratePerSecond, Duration timeout) {
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .executor(Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("probe-http-", 0).factory()))
                .build();
        return new Probes(client, true, base, endpoints, ratePerSecond, timeout);
    }

    /** Probes through {@code client}, which the caller shares (with a load, on one HTTP/2 connection) and closes. */
    public static Probes startThrough(HttpClient client, URI base, Map<String, String> endpoints, double ratePerSecond, Duration timeout) {
        return new Probes(client, false, base, endpoints, ratePerSecond, timeout);
    }

    private void send(String name, HttpRequest request) {
        Latencies target = window.get().get(name);
        long start = System.nanoTime();
        client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .whenComplete((response, failure) -> target.record(System.nanoTime() - start, failure == null ? response.statusCode() : 0));
    }

    /** Starts a new window and returns the one that ends; answers still in flight keep landing in it. */
    public Map<String, Latencies> nextWindow() {
        return window.getAndSet(newWindow());
    }

    private Map<String, Latencies> newWindow() {
        Map<String, Latencies> fresh = new LinkedHashMap<>();
        requests.keySet().forEach(name -> fresh.put(name, new Latencies()));
        return fresh;
    }

    @Override
    public void close() {
        clock.shutdownNow();
        if (ownsClient) {
            client.shutdownNow();
        }
    }
}
