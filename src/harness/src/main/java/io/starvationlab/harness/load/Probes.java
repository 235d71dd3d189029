package io.starvationlab.harness.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Requests to the unrelated endpoints at a fixed arrival rate, whatever the answers' latency (an
 * open model: a slow answer does not delay the next request, so latency stays comparable across
 * phases). Each request counts for the window in which it was sent, even if it answers later.
 * Over HTTP/1.1 every probe opens a connection of its own, so that every event loop is sampled alike
 * (docs/event-loops.md: keep-alive clients drift to the event loops that are served).
 */
public final class Probes implements AutoCloseable {

    private static final Pattern EVENT_LOOP = Pattern.compile("\"eventLoop\"\\s*:\\s*\"([^\"]*)\"");

    /** One window's probes: latencies per endpoint, and each probe with its event loop. */
    public record Window(Map<String, Latencies> latencies, Map<String, ConcurrentLinkedQueue<ProbeSample>> samples) {
    }

    /** The shared HTTP/2 client, or null for a fresh HTTP/1.1 connection per probe. */
    private final HttpClient http2;
    private final URI base;
    private final Duration timeout;
    private final ExecutorService senders;
    private final ScheduledExecutorService clock;
    private final Map<String, String> endpoints;
    private final AtomicReference<Window> window = new AtomicReference<>();

    private Probes(HttpClient http2, URI base, Map<String, String> endpoints, Map<String, Double> ratePerSecond, Duration timeout) {
        this.http2 = http2;
        this.base = base;
        this.timeout = timeout;
        this.endpoints = new LinkedHashMap<>(endpoints);
        window.set(newWindow());
        // a platform thread per probe in flight: a starved probe holds its thread until it is answered
        this.senders = http2 != null ? null : Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("probe-", 0).factory());
        this.clock = Executors.newScheduledThreadPool(1, Thread.ofPlatform().daemon().name("probe-clock").factory());
        long offset = 0;
        for (Map.Entry<String, String> probe : this.endpoints.entrySet()) {
            long periodNanos = (long) (1e9 / ratePerSecond.get(probe.getKey()));
            clock.scheduleAtFixedRate(() -> send(probe.getKey(), probe.getValue()), offset, periodNanos, TimeUnit.NANOSECONDS);
            offset += 100_000_000L / this.endpoints.size(); // spread the endpoints' first requests
        }
    }

    /** Probes over HTTP/1.1, each on a new connection. */
    public static Probes start(URI base, Map<String, String> endpoints, Map<String, Double> ratePerSecond, Duration timeout) {
        return new Probes(null, base, endpoints, ratePerSecond, timeout);
    }

    /** Probes through {@code client}, which the caller shares (with a load, on one HTTP/2 connection) and closes. */
    public static Probes startThrough(HttpClient client, URI base, Map<String, String> endpoints, Map<String, Double> ratePerSecond,
            Duration timeout) {
        return new Probes(client, base, endpoints, ratePerSecond, timeout);
    }

    private void send(String name, String path) {
        Window target = window.get();
        long start = System.nanoTime();
        if (http2 != null) {
            http2.sendAsync(HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString())
                    .whenComplete((response, failure) -> record(target, name, start, failure == null ? response.statusCode() : 0,
                            failure == null ? response.body() : null));
            return;
        }
        senders.execute(() -> {
            Answer answer = Answer.get(base, path, timeout);
            record(target, name, start, answer.status(), answer.body());
        });
    }

    private static void record(Window target, String name, long start, int status, String body) {
        long took = System.nanoTime() - start;
        target.latencies().get(name).record(took, status);
        target.samples().get(name).add(new ProbeSample(start, took, status, eventLoopOf(body)));
    }

    /** A GET on a new connection, closed with the answer; status 0 when nothing answered in time. */
    record Answer(int status, String body) {
        static Answer get(URI base, String path, Duration timeout) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), (int) Math.min(timeout.toMillis(), 10_000));
                socket.setSoTimeout((int) timeout.toMillis());
                socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                String text = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                Matcher status = STATUS.matcher(text);
                int body = text.indexOf("\r\n\r\n");
                return new Answer(status.lookingAt() ? Integer.parseInt(status.group(1)) : 0, body < 0 ? "" : text.substring(body + 4));
            } catch (IOException e) {
                return new Answer(0, null);
            }
        }

        private static final Pattern STATUS = Pattern.compile("HTTP/1\\.1 (\\d{3})");
    }

    /** The {@code eventLoop} of a probe's answer, or null where it has none. */
    static String eventLoopOf(String body) {
        Matcher matcher = EVENT_LOOP.matcher(body == null ? "" : body);
        return matcher.find() ? matcher.group(1) : null;
    }

    /** Starts a new window and returns the one that ends; answers still in flight keep landing in it. */
    public Window nextWindow() {
        return window.getAndSet(newWindow());
    }

    private Window newWindow() {
        Map<String, Latencies> latencies = new LinkedHashMap<>();
        Map<String, ConcurrentLinkedQueue<ProbeSample>> samples = new LinkedHashMap<>();
        endpoints.keySet().forEach(name -> {
            latencies.put(name, new Latencies());
            samples.put(name, new ConcurrentLinkedQueue<>());
        });
        return new Window(latencies, samples);
    }

    @Override
    public void close() {
        clock.shutdownNow();
        if (senders != null) {
            senders.shutdownNow();
        }
    }
}
