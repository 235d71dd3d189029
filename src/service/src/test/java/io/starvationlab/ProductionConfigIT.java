package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.load.ClosedLoad;

/**
 * The production configuration: no default credentials, a clear refusal to start without them, and
 * bounds on how much one client can take.
 */
class ProductionConfigIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    /** An external database without credentials; no database at all with the embedded one off. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "quarkus.datasource.jdbc.url | jdbc:postgresql://localhost:9/lab | needs credentials: set QUARKUS_DATASOURCE_USERNAME and QUARKUS_DATASOURCE_PASSWORD",
            "lab.embedded-postgres.enabled | false | No database configured" })
    void shouldRefuseToStartWithoutWhatItNeeds(String property, String value, String refusal) {
        ChildProcess.Result exit = LabServer.runUntilExit(List.of(), Map.of(property, value), Duration.ofSeconds(90));
        assertThat(exit.exitCode()).isNotZero();
        assertThat(exit.output()).contains(refusal);
    }

    @Test
    void shouldBoundTheRequestsInFlight() {
        LabServer server = servers.lab("max-in-flight", Map.of("lab.work.max-in-flight", "8"));
        ClosedLoad.Result result;
        try (ClosedLoad load = ClosedLoad.startKeepingEach(server.uri("/work/unpinned?ms=2000&downstream=sleep"), 24, Duration.ofSeconds(30))) {
            // requests served and requests refused: what the assertions below count
            await("answers of both kinds").atMost(Duration.ofSeconds(30))
                    .until(() -> load.result().latencies().statuses().keySet().containsAll(List.of(200, 503)));
            result = load.stop(Duration.ofSeconds(10));
        }
        Map<Integer, Long> statuses = result.latencies().statuses();
        assertThat(statuses.keySet()).containsOnly(200, 503);
        assertThat(result.outcomes()).filteredOn(outcome -> outcome.status() == 503).isNotEmpty()
                .allSatisfy(outcome -> {
                    assertThat(outcome.retryAfter()).isEqualTo("1");
                    assertThat(outcome.millis()).as("refused at once, before a thread is spent").isLessThan(500);
                });
        // 8 at a time, 2 s each: at most 8 per started 2 s (and the requests still running when the load stopped)
        long windows = (long) Math.ceil(result.seconds() / 2.0) + 1;
        assertThat(statuses.get(200)).as("never more than 8 requests served at once").isLessThanOrEqualTo(8 * windows);
        double overloaded = new LabClient(server.baseUri()).metrics()
                .sum("lab_work_rejected_total", sample -> "overloaded".equals(sample.label("reason"))).orElseThrow();
        assertThat(overloaded).as("refused as overloaded").isEqualTo((double) statuses.get(503));
    }
}
