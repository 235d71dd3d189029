package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.InstanceOfAssertFactories.DOUBLE;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.Project;
import io.starvationlab.harness.PrometheusText;
import io.starvationlab.harness.ServerJdk;
import io.starvationlab.harness.junit.Needs;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.service.Mode;

/**
 * What Prometheus and the orchestrator see: every lab metric in Prometheus form, and the opt-in
 * starvation readiness check. The metrics are read first, from a fresh server with the readiness
 * check on (the canary is on by default), which the readiness test with the canary then starves.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ObservabilityIT {

    @RegisterExtension
    static final Servers servers = new Servers();
    private static LabServer readinessWithCanary;

    @Test
    @Order(1)
    void metricsShouldCarryEveryLabMetricInPrometheusForm() throws Exception {
        LabServer server = readinessServer(true);
        LabClient lab = new LabClient(server.baseUri());
        ServerJdk jdk = ServerJdk.of(lab);
        for (String mode : Mode.labels()) {
            int expected = mode.equals("native") && !jdk.hasFfm() ? 501 : 200;
            assertThat(lab.get("/work/" + mode + "?ms=30&downstream=sleep").statusCode()).as(mode).isEqualTo(expected);
        }
        assertThat(lab.get("/work/unpinned?ms=30").statusCode()).isEqualTo(200);
        for (String probe : List.of("/probe/virtual", "/probe/worker", "/probe/event-loop", "/q/health/live", "/q/health/ready")) {
            assertThat(lab.get(probe).statusCode()).isEqualTo(200);
        }
        String scrape = lab.get("/q/metrics").body();
        // also what the Kubernetes checks judge the alert rules and the dashboard by, later in the build: they may only name metrics it has
        assertAcceptedByPrometheus(Files.writeString(Files.createDirectories(Project.testLogs()).resolve("scrape.txt"), scrape));
        PrometheusText metrics = PrometheusText.parse(scrape);

        // the starvation meter (src/meter), bound as any service binds it: the canary's waits and the requests'
        Predicate<PrometheusText.Sample> canary = s -> "canary".equals(s.label("source"));
        Predicate<PrometheusText.Sample> requests = s -> "task".equals(s.label("source"));
        assertThat(metrics.type("virtual_threads_carrier_wait_seconds")).contains("histogram");
        assertThat(metrics.buckets("virtual_threads_carrier_wait_seconds", canary).keySet())
                .as("canary buckets from 1 ms to 30 s").contains(0.001, 0.1, 1.0, 30.0, Double.POSITIVE_INFINITY);
        assertThat(metrics.type("virtual_threads_carrier_stalled_seconds")).contains("gauge");
        assertThat(metrics.samples("virtual_threads_carrier_stalled_seconds", canary)).hasSize(1);
        // every /work mode but platform and the virtual probe reached a carrier, 501s included; none waits now
        long onCarriers = Mode.labels().stream().filter(mode -> !mode.equals("platform")).count() + 2;
        assertThat(metrics.sum("virtual_threads_carrier_wait_seconds_count", requests)).as("requests timed on their way to a carrier")
                .hasValue((double) onCarriers);
        assertThat(metrics.sum("virtual_threads_carrier_queued", s -> true)).hasValue(0.0);
        assertThat(metrics.sum("virtual_threads_carrier_stalled_seconds", requests)).hasValue(0.0);
        for (String downstream : List.of("db", "sleep")) {
            assertThat(metrics.samples("lab_downstream_permits_in_use", s -> downstream.equals(s.label("downstream")))).hasSize(1);
            assertThat(metrics.samples("lab_downstream_permits_waiting", s -> downstream.equals(s.label("downstream")))).hasSize(1);
            assertThat(metrics.buckets("lab_downstream_permit_wait_seconds", s -> downstream.equals(s.label("downstream")))).isNotEmpty();
            assertThat(metrics.samples("lab_downstream_rejected_total", s -> downstream.equals(s.label("downstream"))
                    && "permit-timeout".equals(s.label("reason")))).as("rejections exist before the first one").hasSize(1);
        }
        assertThat(metrics.type("lab_downstream_call_seconds")).contains("histogram");
        assertThat(metrics.samples("lab_downstream_call_seconds_count", s -> "reentrant".equals(s.label("mode"))
                && "sleep".equals(s.label("downstream")))).singleElement().extracting(PrometheusText.Sample::value).isEqualTo(1.0);
        for (String reason : List.of("overloaded", "deadline")) {
            assertThat(metrics.samples("lab_work_rejected_total", s -> reason.equals(s.label("reason"))))
                    .as("admission refusals exist before the first one").hasSize(1);
        }
        assertThat(metrics.samples("lab_downstream_rejected_total", s -> "none".equals(s.label("downstream"))))
                .as("only a downstream's own refusals are downstream rejections").isEmpty();

        assertThat(metrics.samples("jvm_threads_virtual_pinned_seconds_count")).as("Micrometer's pinned timer").isNotEmpty();
        if (jdk.hasSchedulerMxBean()) {
            assertThat(metrics.samples("jvm_threads_virtual_live_threads", s -> "mounted".equals(s.label("scheduling_status")))).hasSize(1);
            assertThat(metrics.samples("jvm_threads_virtual_live_threads", s -> "queued".equals(s.label("scheduling_status")))).hasSize(1);
            assertThat(metrics.samples("jvm_threads_virtual_parallelism")).singleElement()
                    .extracting(PrometheusText.Sample::value).isEqualTo((double) LabServer.CARRIERS);
            assertThat(metrics.samples("jvm_threads_virtual_pool_size_threads")).hasSize(1);
        }
        for (String uri : List.of("/probe/virtual", "/probe/worker", "/probe/event-loop", "/work/{mode}", "/work/platform", "/q/health/live")) {
            assertThat(metrics.buckets("http_server_requests_seconds", s -> uri.equals(s.label("uri"))))
                    .as("histogram buckets for " + uri).containsKey(Double.POSITIVE_INFINITY);
        }
        assertThat(metrics.type("http_server_requests_seconds")).contains("histogram");
        assertContainerMeters(metrics, lab.info());
    }

    /**
     * What the JVM sees of its container, as {@code /lab/info} says it: the CPUs it derives from the
     * machine and any quota (-XX:ActiveProcessorCount=4 sets availableProcessors, not these), the quota
     * and memory limit only where the container sets them, the collector as a label.
     */
    static void assertContainerMeters(PrometheusText metrics, JsonNode info) {
        assertThat(metrics.samples("lab_container_cpus")).singleElement().extracting(PrometheusText.Sample::value)
                .isEqualTo(info.path("effectiveCpuCount").asDouble());
        assertThat(metrics.samples("system_cpu_count")).as("availableProcessors").singleElement()
                .extracting(PrometheusText.Sample::value).isEqualTo(info.path("availableProcessors").asDouble());
        assertThat(metrics.samples("lab_jvm_garbage_collector", s -> info.path("garbageCollector").asText().equals(s.label("collector"))))
                .singleElement().extracting(PrometheusText.Sample::value).isEqualTo(1.0);
        if (info.path("cpuQuotaMicros").isNull()) {
            assertThat(metrics.samples("lab_container_cpu_quota_seconds")).as("no quota, no series").isEmpty();
        } else {
            // the service's seconds from microseconds may differ in the last bit: 100000 µs reads 0.09999999999999999 s
            assertThat(metrics.samples("lab_container_cpu_quota_seconds")).singleElement().extracting(PrometheusText.Sample::value, DOUBLE)
                    .isCloseTo(info.path("cpuQuotaMicros").asDouble() / 1e6, within(1e-9));
            assertThat(metrics.samples("lab_container_cpu_period_seconds")).singleElement().extracting(PrometheusText.Sample::value, DOUBLE)
                    .isCloseTo(info.path("cpuPeriodMicros").asDouble() / 1e6, within(1e-9));
        }
        if (info.path("memoryLimitBytes").isNull()) {
            assertThat(metrics.samples("lab_container_memory_limit_bytes")).as("no memory limit, no series").isEmpty();
        } else {
            assertThat(metrics.samples("lab_container_memory_limit_bytes")).singleElement().extracting(PrometheusText.Sample::value)
                    .isEqualTo(info.path("memoryLimitBytes").asDouble());
        }
    }

    /**
     * With the canary off, only the requests' own waits for a carrier can take readiness DOWN: the canary
     * draws one queue of the scheduler, which under the same backlog may wait far less than the requests.
     */
    @ParameterizedTest(name = "canary enabled: {0}")
    @ValueSource(booleans = { true, false })
    @Order(2)
    void readinessShouldGoDownWhileCarriersStarveAndComeBackAfterWhenEnabled(boolean canary) {
        LabServer server = readinessServer(canary);
        LabClient lab = new LabClient(server.baseUri());
        assertThat(lab.get("/q/health/ready").statusCode()).isEqualTo(200);
        List<Integer> liveness = new CopyOnWriteArrayList<>();
        try (ClosedLoad load = ClosedLoad.start(server.uri("/work/" + ServerJdk.of(lab).starvingMode() + "?ms=200&downstream=sleep"), 16 * LabServer.CARRIERS, Duration.ofSeconds(60))) {
            await("readiness DOWN while requests wait past 1 s for a carrier").atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        liveness.add(lab.get("/q/health/live", Duration.ofSeconds(5)).statusCode());
                        return lab.get("/q/health/ready", Duration.ofSeconds(5)).statusCode() == 503;
                    });
            for (int i = 0; i < 10; i++) {
                liveness.add(lab.get("/q/health/live", Duration.ofSeconds(5)).statusCode());
                Machine.pause(Duration.ofMillis(100));
            }
            load.stop(Duration.ofSeconds(30));
        }
        long stopped = System.nanoTime();
        // waits far longer than the check may take, so that a slow return is measured and judged below, not cut off
        await("ready again once the load stopped").atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    liveness.add(lab.get("/q/health/live").statusCode());
                    return lab.get("/q/health/ready").statusCode() == 200;
                });
        double back = (System.nanoTime() - stopped) / 1e9;
        System.out.printf("readiness UP again %.1f s after the load stopped (canary %s)%n", back, canary);
        // the load has drained when stop returns: nothing waits for a carrier, so the check is UP at its next call
        assertThat(back).as("seconds to come back once nothing waits for a carrier").isLessThan(5);
        assertThat(liveness).as("liveness never goes down for starvation").isNotEmpty().containsOnly(200);
    }

    /** The service with the starvation readiness check on at 1 s; the one with the canary kept for the class. */
    private static LabServer readinessServer(boolean canary) {
        Map<String, String> enabled = Map.of("lab.starvation.readiness.enabled", "true", "lab.starvation.threshold", "1s",
                "lab.canary.enabled", String.valueOf(canary));
        if (!canary) {
            return servers.lab("observability-readiness-canary-false", enabled);
        }
        if (readinessWithCanary == null) {
            readinessWithCanary = servers.keepForClass(servers.lab("observability-readiness-canary-true", enabled));
        }
        return readinessWithCanary;
    }

    @Test
    void promtoolShouldRejectAScrapeItCannotParse() throws IOException {
        Path broken = Files.writeString(Path.of("target", "scrape-broken.txt"), "# TYPE lab_ok gauge\nlab_ok 1\nlab_broken{ 1\n");
        assertThatThrownBy(() -> assertAcceptedByPrometheus(broken)).isInstanceOf(AssertionError.class).hasMessageContaining("exit code");
    }

    /**
     * Prometheus's own parser, through promtool: exit 0 is a clean scrape, 3 a scrape with lint
     * remarks (printed, not failed), anything else (1: a parse error) fails.
     */
    static void assertAcceptedByPrometheus(Path scrape) {
        Path promtool = Needs.tool("promtool", "Debian package 'prometheus'");
        ChildProcess.Result check = ChildProcess.of(promtool.toString(), "check", "metrics").withInput(scrape).run(Duration.ofSeconds(30));
        System.out.println("promtool check metrics exited with " + check.exitCode() + ":\n" + check.output());
        assertThat(check.exitCode()).as("promtool's exit code (0 clean, 3 lint remarks): %s", check.output()).isIn(0, 3);
        assertThat(check.output()).as("promtool parses the scrape").doesNotContain("error while linting").doesNotContain("parsing error");
    }
}
