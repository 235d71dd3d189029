package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.ServerJdk;
import io.starvationlab.harness.ServerProcess;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.junit.ServiceConditions;
import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.harness.load.Http2LoadProcess;
import io.starvationlab.service.Mode;

/**
 * The service while its carriers starve: every endpoint still answers within its bound, liveness
 * never fails, and everything is idle again soon after the load stops.
 */
class StarvedServerIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    /**
     * On the carriers, every mode but platform: they may wait, up to their deadline (ms + acquire timeout
     * + 4 s; the probe's ms is 0), or be refused.
     */
    static final List<String> ON_CARRIERS = Stream.concat(
            Mode.labels().stream().filter(mode -> !mode.equals("platform")).map(mode -> "/work/" + mode + "?ms=50"),
            Stream.of("/work/unpinned?ms=50&downstream=sleep", "/probe/virtual")).toList();
    /** On the worker pool or the event loop: starvation must not reach them. */
    static final List<String> OFF_CARRIERS = List.of(
            "/work/platform?ms=50", "/probe/worker", "/probe/event-loop", "/q/health/live", "/q/health/ready", "/lab/info");
    static final List<String> ENDPOINTS = Stream.concat(ON_CARRIERS.stream(), OFF_CARRIERS.stream()).toList();

    static LabServer strict;

    @BeforeAll
    static void start() {
        strict = servers.lab("starved-server", Map.of("quarkus.vertx.max-event-loop-execute-time", "500ms"));
    }

    @Test
    void everyEndpointShouldAnswerInTimeWhileCarriersStarveAndRecoverAfter() throws Exception {
        LabServer server = strictServer();
        LabClient lab = new LabClient(server.baseUri());
        ServerJdk jdk = ServerJdk.of(lab);
        ExecutorService clients = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().factory());
        List<Integer> liveness = new ArrayList<>();
        try (ClosedLoad load = ClosedLoad.start(server.uri("/work/" + jdk.starvingMode() + "?ms=100&downstream=sleep"), 16 * LabServer.CARRIERS,
                Duration.ofSeconds(60))) {
            ServiceConditions.awaitCarriersStarving(lab);
            List<CompletableFuture<long[]>> answers = ENDPOINTS.stream()
                    .map(endpoint -> CompletableFuture.supplyAsync(() -> timed(server, endpoint, Duration.ofSeconds(60)), clients)).toList();
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < until) {
                liveness.add((int) timed(server, "/q/health/live", Duration.ofSeconds(2))[0]);
                Machine.pause(Duration.ofMillis(250));
            }
            for (int i = 0; i < ENDPOINTS.size(); i++) {
                String endpoint = ENDPOINTS.get(i);
                long[] answer = answers.get(i).get();
                System.out.printf("under %s load: %-40s %d in %d ms%n", jdk.starvingMode(), endpoint, answer[0], answer[1]);
                if (OFF_CARRIERS.contains(endpoint)) {
                    assertThat(answer[0]).as(endpoint).isEqualTo(200L);
                    assertThat(answer[1]).as(endpoint + " is not on the carriers").isLessThan(2_000);
                } else {
                    // within ms + acquire timeout (10 s) + 5 s
                    assertThat(answer[1]).as(endpoint + " within its bound").isLessThan(15_050);
                    boolean noFfm = endpoint.startsWith("/work/native") && !jdk.hasFfm();
                    assertThat(answer[0]).as(endpoint).isIn(noFfm ? List.of(501L) : List.of(200L, 503L));
                }
            }
            load.stop(Duration.ofSeconds(30));
        } finally {
            clients.shutdownNow();
        }
        assertThat(liveness).as("liveness answered within 2 s, every time").isNotEmpty().allMatch(status -> status == 200);

        long stopped = System.nanoTime();
        ServiceConditions.awaitIdle(lab, Duration.ofSeconds(60), "idle again");
        long virtual = timed(server, "/probe/virtual", Duration.ofSeconds(60))[1];
        // the load has drained when stop returns; what is left must go within seconds, far under the wait above
        assertThat((System.nanoTime() - stopped) / 1e9).as("seconds until idle").isLessThan(5);
        assertThat(virtual).as("the virtual probe is fast again").isLessThan(200);
    }

    /**
     * With a short deadline (acquire timeout 200 ms + grace 300 ms), the virtual probe under starvation
     * is answered by the event loop at its deadline: a 503 {@code deadline} problem with Retry-After,
     * never a wait as long as the starvation.
     * <p>
     * The deadline is the server's promise, so it is judged on the server's clock: the longest
     * {@code /probe/virtual} answer in {@code http_server_requests_seconds_max}, from the request's
     * arrival to its answer, and no event loop may have been reported blocked meanwhile. What the client
     * measures adds the scheduling of two cores shared with the load's 128 threads and the server: probes
     * sent as the load started came back after up to 1.1 s with two busy processes on the same cores, and
     * once after 5.2 s in CI. So the probes start once the load's own requests meet their deadlines, past
     * its start-up, and the client's time gets only a bound far above the deadline and far below its
     * timeout.
     */
    @Test
    void theVirtualProbeShouldBeAnsweredAtItsDeadlineWhileCarriersStarve() throws Exception {
        Map<String, String> shortDeadline = Map.of("lab.downstream.acquire-timeout", "200ms", "lab.work.deadline-grace", "300ms");
        LabServer server = servers.lab("probe-deadline", shortDeadline);
        LabClient lab = new LabClient(server.baseUri());
        assertThat(lab.get("/probe/virtual").statusCode()).isEqualTo(200);
        ExecutorService clients = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().factory());
        List<HttpResponse<String>> refused = new ArrayList<>();
        long slowest = 0;
        try (ClosedLoad load = ClosedLoad.start(server.uri("/work/" + ServerJdk.of(lab).starvingMode() + "?ms=200&downstream=sleep"),
                32 * LabServer.CARRIERS, Duration.ofSeconds(60))) {
            ServiceConditions.awaitCarriersStarving(lab);
            await("the load's own requests answered at their deadline").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> lab.metrics().sum("lab_work_rejected_total", sample -> "deadline".equals(sample.label("reason"))).orElseThrow()
                            >= 32 * LabServer.CARRIERS);
            for (int round = 0; round < 4; round++) {
                long start = System.nanoTime();
                List<CompletableFuture<HttpResponse<String>>> probes = Stream.generate(() -> CompletableFuture.supplyAsync(
                        () -> lab.get("/probe/virtual", Duration.ofSeconds(60)), clients)).limit(10).toList();
                for (CompletableFuture<HttpResponse<String>> probe : probes) {
                    HttpResponse<String> answer = probe.get();
                    assertThat(answer.statusCode()).isIn(200, 503);
                    if (answer.statusCode() == 503) {
                        refused.add(answer);
                    }
                }
                // sent together: the round lasts as long as its slowest probe
                slowest = Math.max(slowest, (System.nanoTime() - start) / 1_000_000);
            }
            load.stop(Duration.ofSeconds(30));
        } finally {
            clients.shutdownNow();
        }
        double slowestOnServer = lab.metrics().samples("http_server_requests_seconds_max",
                sample -> "/probe/virtual".equals(sample.label("uri"))).stream().mapToDouble(sample -> sample.value() * 1000).max().orElseThrow();
        System.out.printf("virtual probe with a 500 ms deadline under starvation: %d of 40 refused, slowest %.0f ms on the server, %d ms at the client%n",
                refused.size(), slowestOnServer, slowest);
        assertThat(refused).as("some probes waited past their deadline").isNotEmpty();
        assertThat(slowestOnServer).as("answered at their 500 ms deadline at the latest, on the server's clock").isLessThan(2_500);
        assertThat(slowest).as("answered long before the client's 60 s timeout").isLessThan(15_000);
        for (HttpResponse<String> answer : refused) {
            assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(answer.headers().firstValue("Retry-After")).isPresent();
            assertThat(answer.body()).contains("\"reason\":\"deadline\"");
        }
    }

    /**
     * HTTP/2 multiplexes a client's requests on one connection, so work on the carriers and the
     * event-loop endpoints share the connection's monitor. Were the answers of virtual threads written
     * by the virtual threads (Quarkus' default, {@code lab.faults.virtual-thread-writes=true}), a starved one
     * holding that monitor would stop the event loop (docs/service.md, "Answers written by the event loop").
     * Written by the event loop, no event loop is ever reported blocked, even at a 500 ms limit, and the
     * probes on that connection stay fast.
     */
    @Test
    void theEventLoopShouldNeverWaitForAStarvedVirtualThreadOnASharedConnection() throws Exception {
        LabServer server = strictServer();
        String starvingMode = ServerJdk.of(new LabClient(server.baseUri())).starvingMode();
        Map<String, String> loads = Http2LoadProcess.run(server.baseUri(), Duration.ofSeconds(12), List.of(
                "/work/" + starvingMode + "?ms=100&downstream=sleep=" + 16 * LabServer.CARRIERS,
                "/work/unpinned?ms=1&downstream=sleep=24", "--after=5", "/probe/event-loop=4", "/q/health/live=2"));
        loads.values().forEach(line -> System.out.println("over one HTTP/2 connection, starved: " + line));
        for (String probe : List.of("/probe/event-loop", "/q/health/live")) {
            String line = loads.get(probe);
            assertThat(line).as(probe).isNotNull().contains("statuses={200=");
            assertThat(line).as(probe + ": only 200s").doesNotContainPattern("statuses=\\{200=\\d+, ");
            double max = Double.parseDouble(line.replaceAll(".* max=", ""));
            assertThat(max).as(probe + ": slowest, ms").isLessThan(2_000);
        }
    }

    /**
     * One server for the class's tests with the default bounds, judged by a blocked-thread checker at 500 ms (Quarkus'
     * default is 2 s): a stricter oracle for every test that uses it; each test begins once the last one's work is gone.
     */
    private static LabServer strictServer() {
        ServiceConditions.awaitIdle(new LabClient(strict.baseUri()), Duration.ofSeconds(60), "idle before the test");
        return strict;
    }

    /** Status and milliseconds; status 0 when no answer came within {@code timeout}. */
    private static long[] timed(LabServer server, String endpoint, Duration timeout) {
        long start = System.nanoTime();
        int status = ServerProcess.status(server.uri(endpoint), timeout);
        return new long[] { status, (System.nanoTime() - start) / 1_000_000 };
    }
}
