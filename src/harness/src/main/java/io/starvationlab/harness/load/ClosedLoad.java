package io.starvationlab.harness.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fixed number of concurrent requests in a closed loop: each worker, a platform thread, sends the
 * next request as soon as its previous one answered. Platform threads because a load client sharing
 * carriers with what it measures starves with it. Latencies go to a histogram; tests that judge each
 * request can also keep every {@link Outcome}.
 * <p>
 * Throughput is counted in steady state: from the moment the last client sent its first request, plus
 * the request's own wait (its {@code ?ms=}), until the load stopped. Before that no client has yet had
 * an answer to send again after, and a window that counted it would read 2,000 clients x 1 s as 1,400/s.
 */
public final class ClosedLoad implements AutoCloseable {

    /** One answer; status 0 when the connection failed or was refused. */
    public record Outcome(int status, String retryAfter, long millis, long startedAtNanos) {
    }

    /** How long a stopped load waits for requests in flight when none is answered. */
    private static final Duration UNANSWERED = Duration.ofSeconds(3);
    private static final Pattern OWN_WAIT = Pattern.compile("(?:^|&)ms=(\\d{1,9})(?=&|$)");

    private final List<Thread> workers = new ArrayList<>();
    private final Latencies latencies = new Latencies();
    /** When each 200 answered while the load ran came ({@link System#nanoTime()}). */
    private final ConcurrentLinkedQueue<Long> okAnsweredAt = new ConcurrentLinkedQueue<>();
    private final AtomicLong okAnswered = new AtomicLong();
    /** When the last client to start sent its first request. */
    private final AtomicLong allSendingAt = new AtomicLong();
    private final long waitNanos;
    private final ConcurrentLinkedQueue<Outcome> outcomes;
    private final HttpClient client;
    private final boolean ownsClient;
    private final CountDownLatch stopped;
    private final long startedAt = System.nanoTime();
    private volatile boolean running = true;
    private volatile long stoppedAt;
    private volatile long answeredAt;

    private ClosedLoad(HttpClient client, boolean ownsClient, URI target, int concurrency, Duration requestTimeout, boolean keepEach, boolean async) {
        this.outcomes = keepEach ? new ConcurrentLinkedQueue<>() : null;
        this.client = client;
        this.ownsClient = ownsClient;
        this.stopped = new CountDownLatch(concurrency);
        this.waitNanos = ownWait(target).toNanos();
        HttpRequest request = HttpRequest.newBuilder(target).timeout(requestTimeout).GET().build();
        for (int i = 0; i < concurrency; i++) {
            if (async) {
                sendAsync(request, true);
            } else {
                workers.add(Thread.ofPlatform().daemon().name("load-worker-" + i).stackSize(256 * 1024).start(() -> loop(request)));
            }
        }
    }

    /** Starts {@code concurrency} workers hammering {@code target} over HTTP/1.1, a connection each. */
    public static ClosedLoad start(URI target, int concurrency, Duration requestTimeout) {
        return new ClosedLoad(http1Client(), true, target, concurrency, requestTimeout, false, false);
    }

    /** As {@link #start}, keeping every answer for {@link Result#outcomes()}. */
    public static ClosedLoad startKeepingEach(URI target, int concurrency, Duration requestTimeout) {
        return new ClosedLoad(http1Client(), true, target, concurrency, requestTimeout, true, false);
    }

    /**
     * As {@link #startKeepingEach}, each client a chain of asynchronous requests instead of a thread: tens of
     * thousands of clients without as many threads, whose switching would cost two cores more than the service does.
     */
    public static ClosedLoad startAsyncKeepingEach(URI target, int concurrency, Duration requestTimeout) {
        return new ClosedLoad(http1Client(), true, target, concurrency, requestTimeout, true, true);
    }

    /** As {@link #start}, through {@code client}, which the caller shares and closes (an HTTP/2 one multiplexes every load on one connection). */
    public static ClosedLoad startThrough(HttpClient client, URI target, int concurrency, Duration requestTimeout) {
        return new ClosedLoad(client, false, target, concurrency, requestTimeout, false, false);
    }

    /**
     * An HTTP/2 client whose requests share one connection (h2c), with the few threads one connection
     * needs: loads and probes started through it meet on that connection, and on its event loop.
     */
    public static HttpClient http2Client() {
        return client(HttpClient.Version.HTTP_2, Executors.newFixedThreadPool(8, Thread.ofPlatform().daemon().name("http2-client-", 0).factory()));
    }

    /** A load client: its own platform threads, never the carriers it measures. */
    static HttpClient http1Client() {
        return client(HttpClient.Version.HTTP_1_1, Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("load-http-", 0).factory()));
    }

    private static HttpClient client(HttpClient.Version version, Executor executor) {
        return HttpClient.newBuilder().version(version).connectTimeout(Duration.ofSeconds(10)).executor(executor).build();
    }

    private void loop(HttpRequest request) {
        boolean first = true;
        try {
            while (running) {
                long start = System.nanoTime();
                if (first) {
                    allSendingAt.accumulateAndGet(start, Math::max);
                    first = false;
                }
                HttpResponse<Void> response;
                try {
                    response = client.send(request, HttpResponse.BodyHandlers.discarding());
                } catch (java.io.IOException e) {
                    response = null;
                } catch (InterruptedException e) {
                    return;
                }
                record(response, start);
                if (response == null) {
                    try {
                        Thread.sleep(50); // a refused connection fails at once: do not spin
                    } catch (InterruptedException e) {
                        return; // stopped
                    }
                }
            }
        } finally {
            stopped.countDown();
        }
    }

    /** One client of an asynchronous load: the next request goes when this one is answered, until the load stops. */
    private void sendAsync(HttpRequest request, boolean first) {
        long start = System.nanoTime();
        if (first) {
            allSendingAt.accumulateAndGet(start, Math::max);
        }
        client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            record(response, start);
            if (!running) {
                stopped.countDown();
            } else if (response == null) {
                CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS).execute(() -> sendAsync(request, false));
            } else {
                sendAsync(request, false);
            }
        });
    }

    private void record(HttpResponse<Void> response, long start) {
        int status = response == null ? 0 : response.statusCode();
        long took = System.nanoTime() - start;
        answeredAt = start + took;
        latencies.record(took, status);
        if (running && status == 200) {
            okAnsweredAt.add(start + took);
            okAnswered.incrementAndGet();
        }
        if (outcomes != null) {
            outcomes.add(new Outcome(status, response == null ? null : response.headers().firstValue("Retry-After").orElse(null), took / 1_000_000, start));
        }
    }

    /**
     * Stops sending and waits for the requests in flight while they are still being answered: up to {@code drain}, and
     * no longer than {@link #UNANSWERED} (or twice the requests' own wait) without an answer: a load whose requests all
     * hang, as when the carriers wait for a poller they hold, is over when it stopped. Then abandons them.
     */
    public Result stop(Duration drain) {
        stoppedAt = System.nanoTime();
        running = false;
        long deadline = stoppedAt + drain.toNanos();
        long unanswered = Math.max(UNANSWERED.toNanos(), 2 * waitNanos);
        try {
            while (!stopped.await(100, TimeUnit.MILLISECONDS)) {
                long now = System.nanoTime();
                if (now >= deadline || now - Math.max(answeredAt, stoppedAt) >= unanswered) {
                    workers.forEach(Thread::interrupt);
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return result();
    }

    /** The 200s answered so far while the load runs. */
    public long answered() {
        return okAnswered.get();
    }

    public Result result() {
        long end = stoppedAt == 0 ? System.nanoTime() : stoppedAt;
        long[] answered = okAnsweredAt.stream().mapToLong(Long::longValue).sorted().toArray();
        long from = allSendingAt.get() == 0 ? startedAt : allSendingAt.get() + waitNanos;
        return new Result(latencies, answered.length, (end - startedAt) / 1e9, outcomes == null ? List.of() : List.copyOf(outcomes),
                SteadyState.of(answered, startedAt, from, end));
    }

    /** The wait a work request asks for, its {@code ?ms=}; zero for a request that names none. */
    static Duration ownWait(URI target) {
        Matcher ms = OWN_WAIT.matcher(target.getRawQuery() == null ? "" : target.getRawQuery());
        return ms.find() ? Duration.ofMillis(Long.parseLong(ms.group(1))) : Duration.ZERO;
    }

    @Override
    public void close() {
        if (running) {
            stop(Duration.ofSeconds(5));
        }
        if (ownsClient) {
            client.shutdownNow();
        }
    }

    /**
     * Every answer, including those of requests still in flight when the load stopped; {@code throughput}
     * counts the 200s answered in the load's steady state, per second ({@code windowThroughput}: over the
     * whole time it ran). {@code outcomes} is empty unless kept.
     */
    public record Result(Latencies latencies, long okWhileRunning, double seconds, List<Outcome> outcomes, SteadyState steady) {

        public double throughput() {
            return steady == null ? windowThroughput() : steady.perSecond();
        }

        public double windowThroughput() {
            return okWhileRunning / seconds;
        }
    }

    /**
     * The part of a load's window in steady state and the 200s answered in it: from {@code fromNanos}
     * (every client sending, and one request's wait since) to {@code toNanos} (the load stopped). Where
     * that part is under a quarter of the window (a window barely longer than one request, or clients
     * that took most of it to start), the whole window counts, and {@code whole} says so.
     */
    public record SteadyState(double fromSeconds, double seconds, long answered, boolean whole) {

        public double perSecond() {
            return seconds <= 0 ? 0 : answered / seconds;
        }

        /** {@code answeredAt} sorted; every instant in {@link System#nanoTime()}. */
        public static SteadyState of(long[] answeredAt, long startedNanos, long fromNanos, long toNanos) {
            long window = toNanos - startedNanos;
            long from = Math.max(fromNanos, startedNanos);
            if (toNanos - from < window / 4) {
                return new SteadyState(0, window / 1e9, ProbeTimeline.between(answeredAt, startedNanos, toNanos), true);
            }
            return new SteadyState((from - startedNanos) / 1e9, (toNanos - from) / 1e9, ProbeTimeline.between(answeredAt, from, toNanos), false);
        }
    }
}
