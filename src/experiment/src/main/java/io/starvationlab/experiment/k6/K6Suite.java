package io.starvationlab.experiment.k6;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.K6Binary;

/**
 * The k6 suite of the project ({@code k6/starvation.js}) on a real k6, as a second client beside the
 * Java runner, on the user's own k6 ({@link K6Binary}).
 */
public record K6Suite(Path executable, Path suite) {

    /** Bounds a run: the seven default-JVM phases take about 90 s, the VUs' start included. */
    private static final Duration BOUND = Duration.ofMinutes(6);

    /** k6 for the project at {@code projectDir}, or empty when there is none. */
    public static Optional<K6Suite> find(Path projectDir) {
        return K6Binary.find().map(k6 -> new K6Suite(k6, projectDir.toAbsolutePath().resolve("k6")));
    }

    /**
     * A run of the suite: k6's version, exit code (99: a threshold went other than expected), how long it took
     * and what its report says; {@code failure} when k6 wrote no summary.
     */
    public record Run(String version, List<String> phases, int exitCode, double seconds, K6Summary summary, String failure) {
    }

    /**
     * {@code k6 run starvation.js} against {@code base} for {@code phases} (the plan's default-JVM phases),
     * with the plan's quick settings when {@code quick}; its summary and report go to {@code reportDir}, its
     * output to {@code log}.
     */
    public Run run(URI base, List<String> phases, boolean quick, Path reportDir, Path log) {
        String version = ChildProcess.of(executable.toString(), "version").run(Duration.ofSeconds(30)).output().strip();
        List<String> line = new ArrayList<>(List.of(executable.toString(), "run", "--quiet"));
        Map.of("BASE_URL", base.toString().replaceFirst("/$", ""), "PHASES", String.join(",", phases), "QUICK", String.valueOf(quick),
                "REPORT_DIR", reportDir.toAbsolutePath().toString())
                .forEach((name, value) -> line.addAll(List.of("-e", name + "=" + value)));
        line.add("starvation.js");
        try {
            Files.createDirectories(reportDir);
            Files.createDirectories(log.getParent());
            long started = System.nanoTime();
            ChildProcess.Result result;
            try {
                result = ChildProcess.of(line).in(suite).withEnvironment(Map.of("K6_NO_USAGE_REPORT", "true")).run(BOUND);
            } catch (ChildProcess.TimedOut e) {
                Files.writeString(log, e.output());
                return new Run(version, phases, -1, (System.nanoTime() - started) / 1e9, null, "k6 did not finish within " + BOUND.toMinutes() + " min");
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            Files.writeString(log, String.join(" ", line) + "\n" + result.output());
            Path summary = reportDir.resolve("summary.json");
            return Files.isRegularFile(summary) ? new Run(version, phases, result.exitCode(), seconds, K6Summary.read(summary), null)
                    : new Run(version, phases, result.exitCode(), seconds, null, "k6 exited " + result.exitCode() + " and wrote no summary.json (see " + log + ")");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
