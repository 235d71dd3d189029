package io.starvationlab.experiment;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A fixed number of concurrent requests in a closed loop: each worker, a platform thread, sends the
 * next request as soon as its previous one answered. Platform threads because a load client sharing
 * carriers with what it measures starves with it.
 */
public final class ClosedLoad implements AutoCloseable {

    private final List<Thread> workers = new ArrayList<>();
    private final Latencies latencies = new Latencies();
    private final java.util.concurrent.atomic.LongAdder okWhileRunning = new java.util.concurrent.atomic.LongAdder();
    private final HttpClient client;
    private final CountDownLatch stopped;
    private volatile boolean running = true;
    private final long startedAt = System.nanoTime();
    private volatile long stoppedAt;

    private ClosedLoad(URI target, int concurrency, Duration requestTimeout) {
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .executor(Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("load-http-", 0).factory()))
                .build();
        this.stopped = new CountDownLatch(concurrency);
        HttpRequest request = HttpRequest.newBuilder(target).timeout(requestTimeout).GET().build();
        for (int i = 0; i < concurrency; i++) {
            workers.add(Thread.ofPlatform().daemon().name("load-worker-" + i).stackSize(256 * 1024).start(() -> loop(request)));
        }
    }

    /** Starts {@code concurrency} workers hammering {@code target}. */
    public static ClosedLoad start(URI target, int concurrency, Duration requestTimeout) {
        return new ClosedLoad(target, concurrency, requestTimeout);
    }

    private void loop(HttpRequest request) {
        try {
            while (running) {
                long start = System.nanoTime();
                int status;
                try {
                    status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                } catch (java.io.IOException e) {
                    status = 0;
                } catch (InterruptedException e) {
                    return;
                }
                latencies.record(System.nanoTime() - start, status);
                if (running && status == 200) {
                    okWhileRunning.increment();
                }
            }
        } finally {
            stopped.countDown();
        }
    }

    /** Stops sending and waits up to {@code drain} for the requests in flight to finish. */
    public Result stop(Duration drain) {
        stoppedAt = System.nanoTime();
        running = false;
        try {
            if (!stopped.await(drain.toMillis(), TimeUnit.MILLISECONDS)) {
                workers.forEach(Thread::interrupt);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return result();
    }

    public Result result() {
        long end = stoppedAt == 0 ? System.nanoTime() : stoppedAt;
        return new Result(latencies, okWhileRunning.sum(), (end - startedAt) / 1e9);
    }

    @Override
    public void close() {
        if (running) {
            stop(Duration.ofSeconds(5));
        }
        client.shutdownNow();
    }

    /**
     * Every answer, including those of requests still in flight when the load stopped; {@code throughput}
     * counts only the 200s answered while it ran, per second.
     */
    public record Result(Latencies latencies, long okWhileRunning, double seconds) {
        public double throughput() {
            return okWhileRunning / seconds;
        }
    }
}
