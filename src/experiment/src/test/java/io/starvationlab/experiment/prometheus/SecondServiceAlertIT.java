package io.starvationlab.experiment.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.Project;
import io.starvationlab.harness.SecondServiceProcess;
import io.starvationlab.harness.junit.Needs;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.load.ClosedLoad;

/**
 * The lab's alert on a service that is not the lab: the second service, with the starvation meter and nothing else
 * of the project, scraped plainly (labels {@code job} and {@code instance} only, no Kubernetes) by a real Prometheus
 * that loads the project's PrometheusRule at the intervals the lab measured with. {@code CarrierStarvation} stays
 * quiet under load that frees its carriers, and goes pending under load that pins them, its summary naming the
 * target by job and instance.
 */
class SecondServiceAlertIT {

    private static final Duration FREE_LOAD = Duration.ofSeconds(15);
    private static final Duration PENDING_WITHIN = Duration.ofSeconds(20);

    @RegisterExtension
    static final Servers servers = new Servers();

    @Test
    void carrierStarvationShouldStayQuietUnderFreeLoadAndGoPendingUnderNativeLoad() {
        Path binary = Needs.tool("prometheus", "Debian package prometheus");
        if (Jdks.current().feature() < 22) {
            Needs.skip("its native frames need FFM, final from JDK 22; this is JDK " + Jdks.current().feature());
        }
        SecondServiceProcess service = servers.secondService(Jdks.current(), "alert-second-service");
        PrometheusServer prometheus = servers.keep(PrometheusServer.start(binary, AlertRules.ofProject(Project.root()), Project.testLogs()));
        // a plain scrape: Prometheus sets instance to the address; __metrics_path__ from the target, as a static config's would
        String instance = service.managementUri("/").getAuthority();
        prometheus.scrape(new PrometheusServer.ScrapeTarget(instance, Map.of("job", "second-service", "__metrics_path__", "/metrics")));
        await("Prometheus scraping :management/metrics").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> !prometheus.query("up{instance=\"" + instance + "\"} == 1").isEmpty());
        String alert = "ALERTS{alertname=\"CarrierStarvation\", instance=\"" + instance + "\"}";

        try (ClosedLoad free = ClosedLoad.start(service.uri("/sleep?ms=100"), 64, Duration.ofSeconds(30))) {
            long until = System.nanoTime() + FREE_LOAD.toNanos();
            while (System.nanoTime() < until) {
                assertThat(prometheus.query(alert)).as("no CarrierStarvation while the carriers are free").isEmpty();
                Machine.pause(Duration.ofMillis(500));
            }
            System.out.printf("free load (/sleep, 64 clients): %.0f requests/s, no alert in %d s; oldest task wait %.3f s, canary p99 %.3f s%n",
                    free.stop(Duration.ofSeconds(10)).throughput(), FREE_LOAD.toSeconds(),
                    value(prometheus, "max_over_time(virtual_threads_carrier_stalled_seconds{source=\"task\"}[15s])"),
                    value(prometheus, "histogram_quantile(0.99, rate(virtual_threads_carrier_wait_seconds_bucket{source=\"canary\"}[15s]))"));
        }

        try (ClosedLoad pinning = ClosedLoad.start(service.uri("/native?ms=100"), 64, Duration.ofSeconds(30))) {
            long started = System.nanoTime();
            AtomicReference<JsonNode> alerts = new AtomicReference<>(prometheus.query(alert));
            try {
                await("CarrierStarvation").atMost(PENDING_WITHIN).pollInterval(Duration.ofMillis(250))
                        .until(() -> !alerts.updateAndGet(last -> prometheus.query(alert)).isEmpty());
            } catch (ConditionTimeoutException e) {
                // judged below, with what the meter read
            }
            JsonNode pending = alerts.get();
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf("native load (/native, 64 clients): CarrierStarvation %s after %.1f s; oldest task wait %.3f s%n",
                    pending.path(0).path("metric").path("alertstate").asText("absent"), seconds,
                    value(prometheus, "max_over_time(virtual_threads_carrier_stalled_seconds{source=\"task\"}[15s])"));
            assertThat(pending).as("CarrierStarvation within %s of native load", PENDING_WITHIN).isNotEmpty();
            assertThat(pending.path(0).path("metric").path("alertstate").asText()).isEqualTo("pending");
            assertThat(summary(prometheus, instance)).as("the summary Prometheus rendered on job and instance alone")
                    .startsWith("New virtual threads on second-service at " + instance + " wait ");
            pinning.stop(Duration.ofSeconds(10));
        }
    }

    /** The summary of the active CarrierStarvation alert on {@code instance}, as Prometheus' alerts API renders it. */
    private static String summary(PrometheusServer prometheus, String instance) {
        for (JsonNode active : prometheus.api("/api/v1/alerts").path("alerts")) {
            if ("CarrierStarvation".equals(active.path("labels").path("alertname").asText()) && instance.equals(active.path("labels").path("instance").asText())) {
                return active.path("annotations").path("summary").asText();
            }
        }
        return "(no active CarrierStarvation on " + instance + ")";
    }

    private static double value(PrometheusServer prometheus, String promql) {
        return prometheus.query(promql).path(0).path("value").path(1).asDouble(Double.NaN);
    }
}
