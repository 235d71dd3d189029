package io.starvationlab.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.SerializationFeature;

import io.starvationlab.experiment.server.LabClient;

/**
 * The whole run: where it ran, the server JVMs, every phase and the findings. Written as
 * {@code report.json} (stable field names), {@code report.md}, and a chart.
 */
public record ExperimentReport(String startedAt, boolean quick, Environment environment, Map<String, ServerFacts> servers,
        List<PhaseReport> phases, List<Finding> findings, String verdictRule) {

    /** The machine and the client JVM. */
    public record Environment(String os, int hostProcessors, String clientJava, String plan, int carriersPerServer,
            double probesPerSecond) {
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public Optional<PhaseReport> phase(String name) {
        return phases.stream().filter(phase -> phase.name().equals(name)).findFirst();
    }

    public void write(Path directory) throws IOException {
        Files.createDirectories(directory);
        LabClient.json().copy().enable(SerializationFeature.INDENT_OUTPUT).writeValue(directory.resolve("report.json").toFile(), this);
        Files.writeString(directory.resolve("probe-p99.svg"), ProbeChart.svg(this));
        CdfChart.pick(this).ifPresent(pair -> write(directory.resolve(CdfChart.FILE),
                CdfChart.svg(pair.get(0), pair.get(1), servers.get(pair.get(0).jvm()).carriers(), servers.get(pair.get(1).jvm()).eventLoops())));
        Files.writeString(directory.resolve("report.md"), ReportText.markdown(this));
    }
}
