package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.Gauges;
import io.starvationlab.experiment.LabClient;
import io.starvationlab.experiment.LabServer;
import io.starvationlab.experiment.Outcomes;
import io.starvationlab.experiment.ThreadDump;

/**
 * Ten times more concurrent database work than permits: every request ends in time, as 200 or as
 * 503 with Retry-After, and afterwards nothing is held. {@code -Dlab.overload.seconds=60} makes it
 * the benchmark run.
 */
class OverloadIT {

    static final int PERMITS = 50;
    static final int MS = 1000;
    static final Duration ACQUIRE_TIMEOUT = Duration.ofSeconds(2);

    @Test
    void overloadShouldEndEveryRequestInTimeAs200Or503AndLeakNothing() {
        Duration length = Duration.ofSeconds(Long.getLong("lab.overload.seconds", 12));
        Map<String, String> settings = Map.of("lab.downstream.permits", String.valueOf(PERMITS),
                "lab.downstream.acquire-timeout", ACQUIRE_TIMEOUT.toMillis() + "ms");
        try (LabServer server = LabServer.start(List.of(), settings, StarvationIT.LOGS, "overload")) {
            LabClient lab = new LabClient(server.baseUri());
            int idleVirtualThreads = ThreadDump.count(server.pid()).virtualThreads();
            List<Outcomes.Outcome> outcomes;
            try (Outcomes load = Outcomes.start(server.uri("/work/unpinned?downstream=db&ms=" + MS), 10 * PERMITS, Duration.ofSeconds(60))) {
                LabServer.sleep(length);
                outcomes = load.stop(Duration.ofSeconds(30));
            }
            long bound = MS + ACQUIRE_TIMEOUT.toMillis() + 5_000;
            Map<Integer, Long> statuses = outcomes.stream().collect(Collectors.groupingBy(Outcomes.Outcome::status, Collectors.counting()));
            System.out.printf("overload %d s, %d concurrent: %s, slowest %d ms (bound %d ms)%n", length.toSeconds(), 10 * PERMITS,
                    statuses, outcomes.stream().mapToLong(Outcomes.Outcome::millis).max().orElse(0), bound);

            assertThat(statuses.keySet()).as("only 200 or 503").containsOnly(200, 503);
            assertThat(statuses.get(200)).as("permits keep serving").isGreaterThan(0L);
            assertThat(statuses.get(503)).as("the rest is refused, not queued forever").isGreaterThan(0L);
            assertThat(outcomes).as("every 503 says when to retry")
                    .filteredOn(outcome -> outcome.status() == 503).allSatisfy(outcome -> assertThat(outcome.retryAfter()).isEqualTo("1"));
            assertThat(outcomes).as("no request outlives ms + acquire timeout + 5 s")
                    .allSatisfy(outcome -> assertThat(outcome.millis()).isLessThanOrEqualTo(bound));

            Gauges after = Gauges.awaitIdle(lab, Duration.ofSeconds(5));
            assertThat(after.idle()).as("permits, connections and requests all released: %s", after).isTrue();
            int virtualThreads = ThreadDump.count(server.pid()).virtualThreads();
            assertThat(virtualThreads).as("virtual threads back to their idle level (%d)", idleVirtualThreads)
                    .isLessThanOrEqualTo(idleVirtualThreads + 5);
        }
    }
}
