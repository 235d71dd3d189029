package io.starvationlab.harness.load;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.PrometheusText;

/**
 * Runs phases against one server: probes run throughout at a fixed rate, each phase optionally adds a
 * closed-loop load, and the canary and pinning figures are read from the service before and after.
 */
public final class PhaseRunner implements AutoCloseable {

    private static final String WAIT = "virtual_threads_carrier_wait_seconds";
    private static final String STALLED = "virtual_threads_carrier_stalled_seconds";
    private static final Predicate<PrometheusText.Sample> CANARY = s -> "canary".equals(s.label("source"));
    private static final Predicate<PrometheusText.Sample> REQUESTS = s -> "task".equals(s.label("source"));
    /**
     * How long a stopped load waits for its requests in flight before it abandons them: a carrier-bound queue of 64 drains
     * in 1.6 s; what is left after this (a shared lock's queue at 10/s, a 200-thread pool's at 200/s) is no phase's figure.
     */
    private static final Duration ABANDON_AFTER = Duration.ofSeconds(5);

    private final LabServer server;
    private final LabClient lab;
    private final Probes probes;
    /** When set, loads and probes share this HTTP/2 client, so their streams share one connection; else HTTP/1.1 connections of their own. */
    private final HttpClient http2;

    public PhaseRunner(LabServer server, Map<String, String> probeEndpoints, Map<String, Double> probesPerSecond, Duration probeTimeout,
            boolean http2) {
        this.server = server;
        this.lab = new LabClient(server.baseUri());
        this.http2 = http2 ? ClosedLoad.http2Client() : null;
        this.probes = http2 ? Probes.startThrough(this.http2, server.baseUri(), new TreeMap<>(probeEndpoints), probesPerSecond, probeTimeout)
                : Probes.start(server.baseUri(), new TreeMap<>(probeEndpoints), probesPerSecond, probeTimeout);
    }

    public LabClient lab() {
        return lab;
    }

    public LabServer server() {
        return server;
    }

    /** A closed-loop load of {@code concurrency} clients on {@code workPath}, the way this runner's phases send it (HTTP/1.1 or HTTP/2). */
    public ClosedLoad load(String workPath, int concurrency) {
        return http2 == null ? ClosedLoad.start(server.uri(workPath), concurrency, Duration.ofSeconds(30))
                : ClosedLoad.startThrough(http2, server.uri(workPath), concurrency, Duration.ofSeconds(30));
    }

    /** Probes only, for {@code duration}. */
    public PhaseResult baseline(String name, Duration duration, Duration drain) {
        return run(name, null, 0, duration, drain);
    }

    /**
     * Probes plus {@code concurrency} closed-loop requests to {@code workPath} for {@code duration};
     * then {@code drain} with no load, so late probe answers land in this phase and the next starts idle.
     */
    public PhaseResult run(String name, String workPath, int concurrency, Duration duration, Duration drain) {
        PrometheusText before = lab.metrics();
        lab.pinning(true);
        probes.nextWindow();
        AtomicReference<Double> maxStalled = new AtomicReference<>(0.0);
        AtomicReference<Double> maxRequestStalled = new AtomicReference<>(0.0);
        Thread sampler = Thread.ofPlatform().daemon().name("stalled-sampler").start(() -> sampleStalled(maxStalled, maxRequestStalled));
        ClosedLoad.Result load = null;
        long loadStarted = System.nanoTime();
        long loadStopped = loadStarted;
        try {
            if (workPath != null) {
                // each answer kept: when the load's requests were answered is what an unrelated request waits for
                try (ClosedLoad running = http2 == null ? ClosedLoad.startKeepingEach(server.uri(workPath), concurrency, Duration.ofSeconds(90))
                        : ClosedLoad.startThrough(http2, server.uri(workPath), concurrency, Duration.ofSeconds(90))) {
                    Machine.pause(duration);
                    loadStopped = System.nanoTime();
                    load = running.stop(ABANDON_AFTER);
                }
            } else {
                Machine.pause(duration);
            }
            Machine.pause(drain);
        } finally {
            sampler.interrupt();
        }
        Probes.Window window = probes.nextWindow();
        PrometheusText after = lab.metrics();
        JsonNode pinning = lab.pinning(false);
        TreeMap<Double, Double> canary = PrometheusText.delta(before.buckets(WAIT, CANARY), after.buckets(WAIT, CANARY));
        TreeMap<Double, Double> requestWait = PrometheusText.delta(before.buckets(WAIT, REQUESTS), after.buckets(WAIT, REQUESTS));
        JsonNode top = pinning.path("groups").path(0);
        return new PhaseResult(name, load, window.latencies(), new ProbeTimeline(window.samples(), loadStarted, loadStopped,
                ProbeTimeline.answeredAt(load)),
                PrometheusText.quantile(0.99, canary) * 1000,
                canary.isEmpty() ? 0 : canary.lastEntry().getValue(), maxStalled.get(),
                PrometheusText.quantile(0.99, requestWait) * 1000, maxRequestStalled.get(),
                pinning.path("eventsSinceReset").asLong(), top.isMissingNode() ? null : top.path("frame").asText(),
                top.isMissingNode() ? null : top.path("reason").asText(), top.path("count").asLong(), null);
    }

    private void sampleStalled(AtomicReference<Double> canary, AtomicReference<Double> requests) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                PrometheusText metrics = lab.metrics();
                metrics.sum(STALLED, CANARY).ifPresent(seconds -> canary.accumulateAndGet(seconds * 1000, Math::max));
                metrics.sum(STALLED, REQUESTS).ifPresent(seconds -> requests.accumulateAndGet(seconds * 1000, Math::max));
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // a scrape that fails under load is just a missed sample
            }
        }
    }

    @Override
    public void close() {
        probes.close();
        if (http2 != null) {
            http2.shutdownNow();
        }
    }
}
