package io.starvationlab.k6;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Project;
import io.starvationlab.harness.Servers;
import io.starvationlab.harness.ServiceConditions;

/**
 * The k6 suite on a real k6 against the packaged service: k6 accepts the options of every layout
 * ({@code own-service.js}'s too, with a module of yours) and refuses broken ones, {@code smoke.js} passes, and {@code starvation.js} (the plan's quick
 * settings) ends with every threshold as expected, every window's verdict as the JVM's facts predict
 * ({@code src/k6-checks/src/test/node/fixtures/prediction-cases.json}), no probe dropped, and every probe that
 * names its event loop spread over all of them by the plan's rule.
 */
class K6SuiteIT {

    private static final Path CASES = Project.caseFile("prediction-cases.json");
    private static final Path FIXTURES = Project.resolve("src/k6-checks/src/test/node/fixtures");

    @RegisterExtension
    static final Servers servers = new Servers();
    private static K6 k6;
    private static LabServer server;

    @BeforeAll
    static void startTheService() {
        k6 = K6.find("K6SuiteIT: the suite's options in every layout, broken scripts refused, smoke.js and the quick starvation.js against the service");
        server = servers.lab("k6-suite", Map.of());
    }

    @Test
    void k6ShouldBeTheReleaseTheRunnerImageNames() {
        assertThat(k6.version()).as("the suite is tested with the k6 kubernetes/k6 runs").startsWith("k6 v" + K6.testedRelease() + " ");
    }

    @Test
    void k6ShouldAcceptTheOptionsOfEveryLayoutAndRefuseBrokenOnes() {
        Map<String, List<Map<String, String>>> layouts = Map.of(
                "starvation.js", List.of(Map.of(), Map.of("QUICK", "true"),
                        Map.of("PINNED_URL", "http://lab-pinned:8080", "UNPINNED_URL", "http://lab-unpinned:8080"),
                        Map.of("PINNED_URL", "http://a:8080", "UNPINNED_URL", "http://b:8080", "LOAD_RATE", "200", "LOAD_MAX_VUS", "400",
                                "STARVING_MODES", "", "PROBE_RATE", "7")),
                "own-service.js", List.of(Map.of("LOAD_URL", "http://orders:8081/native?ms=100", "WATCH", "hello=/hello,health=http://orders:9000/health",
                                "WATCH_STARVED", "hello", "EXPECT_STARVED", "true"),
                        Map.of("LOAD_MODULE", FIXTURES.resolve("load-module.js").toString(), "BASE_URL", "http://orders.example:8080",
                                "WATCH", "health=/health")),
                "smoke.js", List.of(Map.of()));
        layouts.forEach((script, knobs) -> knobs.forEach(layout -> {
            ChildProcess.Result inspected = k6.inspect(K6.SUITE.resolve(script), layout);
            assertThat(inspected.exitCode()).as("k6 inspect %s %s:\n%s", script, layout, inspected.output()).isZero();
        }));
        Map<String, String> broken = new LinkedHashMap<>();
        broken.put("broken-unknown-executor.js", "unknown executor type 'constant-arrivals-rate'");
        broken.put("broken-missing-exec.js", "function 'probe' not found in exports");
        broken.put("broken-threshold-metric.js", "no metric name \\\"http_req_duraton");
        broken.put("broken-threshold-expression.js", "unsupported aggregation method p on metric of type counter");
        broken.put("broken-duration.js", "invalid duration");
        broken.forEach((fixture, message) -> {
            ChildProcess.Result refused = k6.inspect(FIXTURES.resolve(fixture), Map.of());
            assertThat(refused.exitCode()).as(fixture).isNotZero();
            assertThat(refused.output()).as(fixture).contains(message);
        });
        Map<Map<String, String>, String> brokenKnobs = Map.of(
                Map.of("LOAD_URL", "http://orders:8081/native", "WATCH", "health"), "WATCH: 'health' has no URL",
                Map.of("LOAD_MODULE", FIXTURES.resolve("broken-load-module.js").toString()), "exports no request(params) function");
        brokenKnobs.forEach((knobs, message) -> {
            ChildProcess.Result refused = k6.inspect(K6.SUITE.resolve("own-service.js"), knobs);
            assertThat(refused.exitCode()).as("%s", knobs).isNotZero();
            assertThat(refused.output()).as("%s", knobs).contains(message);
        });
    }

    @Test
    void smokeShouldPassAgainstThePackagedService() {
        ChildProcess.Result smoke = k6.run("smoke.js", Map.of("BASE_URL", server.baseUri().toString()));
        assertThat(smoke.exitCode()).as("k6 run smoke.js:\n%s", smoke.output()).isZero();
        assertThat(smoke.output()).containsPattern("checks_succeeded\\.+: 100\\.00% ").doesNotContain("✗");
    }

    @Test
    void starvationShouldMeetEveryPredictionOnEveryEventLoop(@TempDir Path reports) throws Exception {
        JsonNode info = new LabClient(server.baseUri()).info();
        ChildProcess.Result run = k6.run("starvation.js", Map.of("BASE_URL", server.baseUri().toString(), "QUICK", "true",
                "REPORT_DIR", reports.toString()));
        JsonNode lab = K6.passedReport(reports, run);

        assertThat(lab.path("verdicts")).as("one verdict per phase of the quick plan").hasSize(5);
        for (JsonNode verdict : lab.path("verdicts")) {
            String phase = verdict.path("phase").asText();
            String predicted = predictedOutcome(verdict.path("mode").asText(), verdict.path("downstream").asText(), info);
            assertThat(verdict.path("expected").asText()).as("%s: k6's prediction against prediction-cases.json", phase).isEqualTo(predicted);
            assertThat(verdict.path("observed").asText()).as("%s: what k6 measured, %s", phase, verdict).isEqualTo(predicted);
            assertThat(verdict.path("sampling").path("complete").asBoolean()).as("%s: no probe dropped, %s", phase, verdict.path("sampling")).isTrue();
            verdict.path("untouched").forEach(probe -> assertThat(probe.path("untouched").asBoolean(true))
                    .as("%s: %s untouched (%s ms)", phase, probe.path("probe").asText(), probe.path("ms").asText()).isTrue());
        }
        lab.path("droppedIterations").forEach(dropped -> assertThat(dropped.asInt()).as("probe iterations k6 dropped").isZero());

        // every window, the baseline too: each probe that names its event loop reached every one by the plan's rule
        int eventLoops = info.path("eventLoops").asInt();
        List<JsonNode> counted = StreamSupport.stream(lab.path("coverage").spliterator(), false).filter(c -> c.path("total").asInt() > 0).toList();
        assertThat(counted).extracting(c -> c.path("probe").asText()).contains("virtual", "worker", "event-loop");
        assertThat(counted).filteredOn(c -> c.path("probe").asText().equals("virtual")).hasSize(6);
        for (JsonNode coverage : counted) {
            assertThat(coverage.path("judged").asInt()).as("event loops judged one by one").isEqualTo(eventLoops);
            assertThat(coverage.path("even").asBoolean()).as("%s / %s: answers per event loop %s, at least %s each",
                    coverage.path("window").asText(), coverage.path("probe").asText(), coverage.path("answers"), coverage.path("leastAnswers"))
                    .isTrue();
        }
        ServiceConditions.assertNoEventLoopBlocked(server);
    }

    /** The outcome prediction-cases.json gives a mode and downstream on a JVM with the facts /lab/info reports. */
    private static String predictedOutcome(String mode, String downstream, JsonNode info) throws Exception {
        JsonNode cases = LabClient.json().readTree(CASES.toFile()).path("cases");
        for (JsonNode c : cases) {
            JsonNode facts = c.path("facts");
            if (c.path("mode").asText().equals(mode) && c.path("downstream").asText().equals(downstream)
                    && Stream.of("synchronizedPins", "nativePinAvailable", "virtualPollers").allMatch(f -> facts.path(f).equals(info.path(f)))) {
                return c.path("outcome").asText();
            }
        }
        throw new AssertionError("prediction-cases.json has no case for " + mode + " / " + downstream + " on " + info);
    }
}
