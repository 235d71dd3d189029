package io.starvationlab.k6;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.K6Binary;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.Project;

/**
 * The real k6 the tests run the suite in {@code k6/} with, the user's own ({@link K6Binary}):
 * missing, each k6 test is skipped, in CI too, with one line saying what it would have checked.
 * Every run is bounded and prints what k6 printed.
 */
final class K6 {

    static final Path PROJECT = Project.root();
    static final Path SUITE = PROJECT.resolve("k6");
    private static final Duration BOUND = Duration.ofMinutes(5);
    private static final Pattern RUNNER_IMAGE = Pattern.compile("image: grafana/k6:(\\S+)");

    private final Path executable;

    private K6(Path executable) {
        this.executable = executable;
    }

    /** k6, or the calling test skipped with a line that says what {@code wouldCheck} and how to get k6. */
    static K6 find(String wouldCheck) {
        return new K6(K6Binary.forTest(wouldCheck));
    }

    /** What {@code k6 version} says, e.g. {@code k6 v2.2.0 (commit/devel, go1.26.10, linux/amd64)}. */
    String version() {
        ChildProcess.Result result = ChildProcess.of(executable.toString(), "version").run(Duration.ofSeconds(30));
        System.out.println(executable + ": " + result.output().strip());
        return result.output().strip();
    }

    /** The k6 release the suite is tested with: the one the in-cluster runner image names ({@code kubernetes/k6/testrun.yaml}). */
    static String testedRelease() {
        try {
            Matcher image = RUNNER_IMAGE.matcher(Files.readString(PROJECT.resolve("kubernetes/k6/testrun.yaml")));
            if (!image.find()) {
                throw new IllegalStateException("kubernetes/k6/testrun.yaml names no grafana/k6 image");
            }
            return image.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code k6 run} of a script of the suite with {@code -e} knobs; k6's own options go before the script. */
    ChildProcess.Result run(String script, Map<String, String> knobs) {
        return k6("run", script, knobs, List.of("--quiet"));
    }

    /** {@code k6 inspect --execution-requirements}: k6 reads the options of a script as a run would, and runs nothing. */
    ChildProcess.Result inspect(Path script, Map<String, String> knobs) {
        return k6("inspect", script.toString(), knobs, List.of("--execution-requirements"));
    }

    /**
     * The suite's own part of the summary a {@code starvation.js} or {@code own-service.js} run wrote to {@code reports}
     * ({@code starvationLab}), once every threshold went as the suite expected and k6 exited 0
     * (99: a threshold crossed); report.md must be there too.
     */
    static JsonNode passedReport(Path reports, ChildProcess.Result run) throws IOException {
        assertThat(reports.resolve("report.md")).as("report.md").exists();
        JsonNode lab = LabClient.json().readTree(reports.resolve("summary.json").toFile()).path("starvationLab");
        List<String> crossed = new ArrayList<>();
        lab.path("thresholds").forEach(t -> {
            if (!t.path("ok").asBoolean()) {
                crossed.add(t.path("metric").asText() + ": " + t.path("expression").asText());
            }
        });
        assertThat(crossed).as("thresholds that went other than expected").isEmpty();
        assertThat(run.exitCode()).as("k6's exit code (99: a threshold crossed)").isZero();
        return lab;
    }

    private ChildProcess.Result k6(String command, String script, Map<String, String> knobs, List<String> flags) {
        List<String> line = new ArrayList<>(List.of(executable.toString(), command));
        line.addAll(flags);
        knobs.forEach((name, value) -> line.addAll(List.of("-e", name + "=" + value)));
        line.add(script);
        long started = System.nanoTime();
        ChildProcess.Result result = ChildProcess.of(line).in(SUITE).withEnvironment(Map.of("K6_NO_USAGE_REPORT", "true")).run(BOUND);
        System.out.printf("k6 %s %s %s: exit %d after %.1f s%n%s%n", command, script, knobs, result.exitCode(),
                (System.nanoTime() - started) / 1e9, result.output());
        return result;
    }
}
