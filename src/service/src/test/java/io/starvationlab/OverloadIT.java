package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.load.OverloadRun;
import io.starvationlab.harness.Project;

/**
 * Ten times more concurrent database work than permits: every request ends in time, as 200 or as
 * 503 with Retry-After, and afterwards nothing is held. The 60-second run is a benchmark
 * ({@code ./mvnw -Pbenchmark verify -Dbenchmark=overload}).
 */
class OverloadIT {

    @Test
    void overloadShouldEndEveryRequestInTimeAs200Or503AndLeakNothing() {
        OverloadRun.Result run = OverloadRun.run(Duration.ofSeconds(5), Project.testLogs());
        System.out.println(run.summary());

        assertThat(run.statuses().keySet()).as("only 200 or 503").containsOnly(200, 503);
        assertThat(run.statuses().get(200)).as("permits keep serving").isGreaterThan(0L);
        assertThat(run.statuses().get(503)).as("the rest is refused, not queued forever").isGreaterThan(0L);
        assertThat(run.outcomes()).as("every 503 says when to retry")
                .filteredOn(outcome -> outcome.status() == 503).allSatisfy(outcome -> assertThat(outcome.retryAfter()).isEqualTo("1"));
        assertThat(run.slowestMillis()).as("no request outlives ms + acquire timeout + 5 s").isLessThanOrEqualTo(run.boundMillis());
        assertThat(run.after().idle()).as("permits, connections and requests all released: %s", run.after()).isTrue();
        assertThat(run.virtualThreadsAfter()).as("virtual threads back to their idle level (%d)", run.idleVirtualThreads())
                .isLessThanOrEqualTo(run.idleVirtualThreads() + 2); // + the canary's probe, + one finishing
    }
}
