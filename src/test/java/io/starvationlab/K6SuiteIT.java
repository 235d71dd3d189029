package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.server.ChildProcess;
import io.starvationlab.experiment.server.LabServer;

/**
 * The k6 scripts' request logic against the real service: every request the suite would send,
 * forwarded by the Node harness, must get the answer the contract promises. A wrong path or query in
 * a script fails here, not in a user's cluster.
 */
class K6SuiteIT {

    @Test
    void theK6ScriptsShouldOnlySendRequestsTheServiceAnswers() {
        try (LabServer server = LabServer.start(List.of(), Map.of(), StarvationIT.LOGS, "k6-live")) {
            ChildProcess.Result result = NodeScript.run(Map.of("BASE_URL", server.baseUri().toString()), "src/test/node/k6/live.mjs");
            assertThat(result.exitCode()).as("live.mjs:\n%s", result.output()).isZero();
        }
    }
}
