package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.ClosedLoad;
import io.starvationlab.experiment.Gauges;
import io.starvationlab.experiment.LabClient;
import io.starvationlab.experiment.LabServer;

/**
 * The service while its carriers starve: every endpoint still answers within its bound, liveness
 * never fails, and everything is idle again soon after the load stops.
 */
class StarvedServerIT {

    /** On the carriers: they may wait, up to their deadline (ms + acquire timeout + 5 s), or be refused. */
    static final List<String> ON_CARRIERS = List.of(
            "/work/unpinned?ms=50", "/work/pinned?ms=50", "/work/reentrant?ms=50", "/work/native?ms=50",
            "/work/cpu?ms=50", "/work/unpinned?ms=50&downstream=sleep", "/probe/virtual");
    /** On the worker pool or the event loop: starvation must not reach them. */
    static final List<String> OFF_CARRIERS = List.of(
            "/work/platform?ms=50", "/probe/worker", "/probe/event-loop", "/q/health/live", "/q/health/ready", "/lab/info");
    static final List<String> ENDPOINTS = Stream.concat(ON_CARRIERS.stream(), OFF_CARRIERS.stream()).toList();

    @Test
    void everyEndpointShouldAnswerInTimeWhileCarriersStarveAndRecoverAfter() throws Exception {
        try (LabServer server = LabServer.start(List.of(), Map.of(), StarvationIT.LOGS, "starved-server")) {
            LabClient lab = new LabClient(server.baseUri());
            ExecutorService clients = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().factory());
            List<Integer> liveness = new ArrayList<>();
            try (ClosedLoad load = ClosedLoad.start(server.uri("/work/" + StarvationIT.starvingMode() + "?ms=100&downstream=sleep"), 16 * LabServer.CARRIERS,
                    Duration.ofSeconds(60))) {
                LabServer.sleep(Duration.ofSeconds(2));
                List<CompletableFuture<long[]>> answers = new ArrayList<>();
                for (String endpoint : ENDPOINTS) {
                    answers.add(CompletableFuture.supplyAsync(() -> timed(lab, endpoint), clients));
                }
                long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (System.nanoTime() < until) {
                    liveness.add(lab.get("/q/health/live", Duration.ofSeconds(2)).statusCode());
                    LabServer.sleep(Duration.ofMillis(250));
                }
                for (int i = 0; i < ENDPOINTS.size(); i++) {
                    String endpoint = ENDPOINTS.get(i);
                    long[] answer = answers.get(i).get();
                    System.out.printf("under %s load: %-40s %d in %d ms%n", StarvationIT.starvingMode(), endpoint, answer[0], answer[1]);
                    if (OFF_CARRIERS.contains(endpoint)) {
                        assertThat(answer[0]).as(endpoint).isEqualTo(200L);
                        assertThat(answer[1]).as(endpoint + " is not on the carriers").isLessThan(2_000);
                    } else {
                        boolean noFfm = endpoint.startsWith("/work/native") && LabServer.javaFeatureVersion() < 22;
                        assertThat(answer[0]).as(endpoint).isIn(noFfm ? List.of(501L) : List.of(200L, 503L));
                        // ms + acquire timeout (10 s) + 5 s
                        assertThat(answer[1]).as(endpoint + " ends within its bound").isLessThanOrEqualTo(15_050);
                    }
                }
                load.stop(Duration.ofSeconds(30));
            } finally {
                clients.shutdownNow();
            }
            assertThat(liveness).as("liveness answers 200 within 2 s throughout").isNotEmpty().containsOnly(200);

            long stopped = System.nanoTime();
            Gauges gauges = Gauges.awaitIdle(lab, Duration.ofSeconds(5));
            assertThat(gauges.idle()).as("idle within 5 s: %s", gauges).isTrue();
            long virtual = timed(lab, "/probe/virtual")[1];
            assertThat((System.nanoTime() - stopped) / 1e9).isLessThan(5.5);
            assertThat(virtual).as("the virtual probe is fast again").isLessThan(200);
        }
    }

    private static long[] timed(LabClient lab, String endpoint) {
        long start = System.nanoTime();
        HttpResponse<String> response = lab.get(endpoint, Duration.ofSeconds(30));
        return new long[] { response.statusCode(), (System.nanoTime() - start) / 1_000_000 };
    }
}
