package io.starvationlab.diagnose;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.Program;
import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;

/**
 * The diagnosis as a user runs it: {@code java -jar src/diagnose/target/starvation-diagnose.jar ...} on a JDK, as its
 * own process, with its report as text and as JSON ({@code --json}).
 *
 * @param exitCode 0 not starved, 1 starved, 2 could not diagnose
 * @param text     what it printed
 * @param report   the JSON report, or null when it wrote none
 */
record Diagnosis(int exitCode, String text, JsonNode report) {

    /** Clients of the load: 16 per carrier, so that a wait for a carrier is seconds long when carriers are held. */
    static final int CONCURRENCY = 16 * LabServer.CARRIERS;
    /** Long enough for the carriers' queue to form before the watch: 64 requests queue within a second on held carriers. */
    static final Duration RAMP = Duration.ofSeconds(1);
    /** Sixteen samples, eight times the threshold. */
    static final Duration WATCH = Duration.ofSeconds(4);

    /** The diagnosis of a JVM while {@link #CONCURRENCY} clients on platform threads of this JVM call {@code target} in a closed loop. */
    static Diagnosis underLoad(URI target, Jdks.Jdk toolJdk, String... arguments) {
        try (ClosedLoad load = ClosedLoad.start(target, CONCURRENCY, Duration.ofSeconds(30))) {
            Machine.pause(RAMP);
            Diagnosis diagnosis = run(toolJdk, WATCH, arguments);
            ClosedLoad.Result result = load.stop(Duration.ofSeconds(1));
            System.out.printf("load on %s: %.1f/s, statuses %s%n", target, result.throughput(), result.latencies().statuses());
            return diagnosis;
        }
    }

    /** Runs the diagnosis on {@code jdk} with {@code arguments}; bounded by the watch it asks for plus a minute. */
    static Diagnosis run(Jdks.Jdk jdk, Duration watch, String... arguments) {
        try {
            Path json = Files.createTempFile("starvation-diagnose-", ".json");
            Files.delete(json);
            List<String> command = new ArrayList<>(List.of(jdk.launcher().toString(), "-jar", Program.DIAGNOSE.jar().toAbsolutePath().toString(), "--seconds",
                    String.valueOf(watch.toSeconds()), "--json", json.toString()));
            command.addAll(List.of(arguments));
            ChildProcess.Result result = ChildProcess.of(command).run(watch.plusMinutes(1));
            JsonNode report = Files.exists(json) ? LabClient.json().readTree(json.toFile()) : null;
            Files.deleteIfExists(json);
            System.out.println("$ starvation-diagnose " + String.join(" ", arguments) + "\n" + result.output());
            return new Diagnosis(result.exitCode(), result.output(), report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String cause() {
        return report.path("verdict").path("cause").asText();
    }

    String frame() {
        return report.path("verdict").path("frame").asText(null);
    }

    List<String> details() {
        return report.path("verdict").path("details").valueStream().map(JsonNode::asText).toList();
    }

    /** Each "what this JVM lets the diagnosis see" line, as {@code yes ...} or {@code no ...}. */
    List<String> visibility() {
        return report.path("visibility").valueStream().map(v -> (v.path("sees").asBoolean() ? "yes " : "no ") + v.path("what").asText()).toList();
    }

    String summary() {
        return report == null ? text : report.path("verdict").toString();
    }
}
