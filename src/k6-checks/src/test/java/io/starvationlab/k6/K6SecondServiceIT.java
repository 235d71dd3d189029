package io.starvationlab.k6;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.SecondServiceProcess;
import io.starvationlab.harness.ServerJdk;
import io.starvationlab.harness.Servers;

/**
 * {@code k6/own-service.js} on a real k6 against a service that is not the lab ({@code src/second-service}: the
 * JDK's HTTP server, 4 carriers, no {@code /lab/info}), given only its URLs: the load on its native wait,
 * its virtual-thread endpoint and its health check (on its management port) watched. k6 ends with every threshold as expected
 * ({@code EXPECT_STARVED=true}), and the report names the virtual-thread endpoint starved by the plan's
 * rule and the health check untouched, with the facts unknown and no prediction judged.
 */
class K6SecondServiceIT {

    private static K6 k6;
    @RegisterExtension
    static final Servers servers = new Servers();
    private static SecondServiceProcess service;

    @BeforeAll
    static void startTheService() {
        k6 = K6.find("K6SecondServiceIT: the suite given only the second service's URLs names /hello starved and /health untouched");
        Jdks.Jdk current = Jdks.current();
        // the native wait is an FFM upcall, final from JDK 22 (on 21 the service answers 501)
        assumeTrue(new ServerJdk(current.feature()).hasFfm(), "FFM is final from JDK 22; the tests run on JDK " + current.feature());
        service = servers.secondService(current, "k6-second-service");
    }

    @Test
    void nativeWaitStarvesTheVirtualThreadEndpointAndLeavesTheHealthCheckUntouched(@TempDir Path reports) throws Exception {
        ChildProcess.Result run = k6.run("own-service.js", Map.of(
                "LOAD_URL", service.uri("/native?ms=100").toString(),
                // the health check on the management port: /health on the service's own port keeps its median but not its
                // tail under this load (p99 963-1308 ms measured, cause not named yet; docs/starving.md)
                "WATCH", "hello=" + service.uri("/hello") + ",health=" + service.managementUri("/health"),
                "WATCH_STARVED", "hello",
                "EXPECT_STARVED", "true",
                "BASELINE_SECONDS", "3",
                "LOAD_SECONDS", "6",
                // a fifth of the probe VUs: the starved endpoint waits about 1.6 s here (64 requests ahead, 4 carriers, 100 ms each)
                "PROBE_TIMEOUT_MS", "5000",
                "REPORT_DIR", reports.toString()));
        JsonNode lab = K6.passedReport(reports, run);

        assertThat(lab.path("layout").asText()).isEqualTo("own-service");
        assertThat(lab.path("facts").path("service").isNull()).as("no /lab/info facts: %s", lab.path("facts")).isTrue();
        assertThat(lab.path("verdicts")).as("one load window").hasSize(1);
        JsonNode verdict = lab.path("verdicts").get(0);
        System.out.printf("second service under %s: /hello p50 %.1f ms (baseline %.1f ms), /health p99 %.1f ms, %.1f requests/s, run %.1f s%n",
                verdict.path("request").asText(), verdict.path("loadedMs").asDouble(), verdict.path("baselineMs").asDouble(),
                verdict.path("untouched").get(0).path("ms").asDouble(), verdict.path("perSecond").asDouble(), lab.path("runSeconds").asDouble());
        assertThat(verdict.path("observed").asText()).as("/hello by the plan's starved rule: %s", verdict).isEqualTo("starves");
        assertThat(verdict.path("expected").asText()).as("no prediction without /lab/info").isEqualTo("unknown");
        assertThat(verdict.path("agrees").isNull()).isTrue();
        assertThat(verdict.path("untouched")).hasSize(1);
        assertThat(verdict.path("untouched").get(0).path("probe").asText()).isEqualTo("health");
        assertThat(verdict.path("untouched").get(0).path("untouched").asBoolean(false))
                .as("/health by the plan's untouched rule: %s", verdict.path("untouched")).isTrue();
        assertThat(verdict.path("sampling").path("complete").asBoolean()).as("no probe dropped, %s", verdict.path("sampling")).isTrue();
        assertThat(lab.path("notes").toString()).contains("The service has no /lab/info")
                .contains("No probe answer named its event loop");
    }
}
