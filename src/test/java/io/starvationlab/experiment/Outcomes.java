package io.starvationlab.experiment;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A closed-loop load that keeps every answer: status, Retry-After and how long it took, for tests
 * that judge each request rather than the throughput.
 */
public final class Outcomes implements AutoCloseable {

    /** One answer; status 0 when the connection failed or was refused. */
    public record Outcome(int status, String retryAfter, long millis, long startedAtNanos) {
    }

    private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final HttpClient client;
    private final CountDownLatch finished;
    private volatile boolean running = true;

    private Outcomes(URI target, int concurrency, Duration timeout) {
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .executor(Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("outcomes-http-", 0).factory())).build();
        this.finished = new CountDownLatch(concurrency);
        HttpRequest request = HttpRequest.newBuilder(target).timeout(timeout).GET().build();
        for (int i = 0; i < concurrency; i++) {
            Thread.ofPlatform().daemon().name("outcomes-" + i).stackSize(256 * 1024).start(() -> loop(request));
        }
    }

    public static Outcomes start(URI target, int concurrency, Duration timeout) {
        return new Outcomes(target, concurrency, timeout);
    }

    private void loop(HttpRequest request) {
        try {
            while (running) {
                long start = System.nanoTime();
                try {
                    HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
                    outcomes.add(new Outcome(response.statusCode(), response.headers().firstValue("Retry-After").orElse(null),
                            (System.nanoTime() - start) / 1_000_000, start));
                } catch (java.io.IOException e) {
                    outcomes.add(new Outcome(0, null, (System.nanoTime() - start) / 1_000_000, start));
                    LabServer.sleep(Duration.ofMillis(50)); // a refused connection answers at once: do not spin
                } catch (InterruptedException e) {
                    return;
                }
            }
        } finally {
            finished.countDown();
        }
    }

    /** Stops sending, waits for the requests in flight, and returns every outcome. */
    public List<Outcome> stop(Duration drain) {
        running = false;
        try {
            finished.await(drain.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new ArrayList<>(outcomes);
    }

    public List<Outcome> soFar() {
        return new ArrayList<>(outcomes);
    }

    @Override
    public void close() {
        running = false;
        client.shutdownNow();
    }
}
