package io.starvationlab.experiment;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import io.starvationlab.experiment.load.ClosedLoad;
import io.starvationlab.experiment.server.ChildProcess;
import io.starvationlab.experiment.server.Jdks;
import io.starvationlab.experiment.server.LabServer;

/**
 * Runs the plan's cross-JDK matrix: for each JDK of the matrix found on this machine (fetched with
 * {@code .ci/fetch-jdks} on Linux x86-64 when missing), starts the packaged service on it once per
 * matrix server JVM, measures a clean baseline and each applicable cell, and sets each cell beside its
 * {@link Prediction}. On the JDK that ran the main plan, a cell the main run measured identically
 * (same mode, downstream, ms, concurrency and JVM flags) is taken from it rather than measured again.
 */
final class JdkMatrix {

    private static final Duration FETCH_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration QUIET_WITHIN = Duration.ofSeconds(30);
    private static final int BASELINE_ATTEMPTS = 2;
    private static final double BASELINE_CANARY_LIMIT_MILLIS = 5;
    /** Under this share of its model limit a cell has collapsed rather than merely starved. */
    static final double COLLAPSE_BELOW = 0.5;

    private final Plan plan;
    private final MatrixPlan matrix;
    private final boolean quick;
    private final Path out;
    private final Path projectDir;
    private final Consumer<String> progress;

    JdkMatrix(Plan plan, boolean quick, Path out, Path projectDir, Consumer<String> progress) {
        this.plan = plan;
        this.matrix = plan.matrix();
        this.quick = quick;
        this.out = out;
        this.projectDir = projectDir;
        this.progress = progress;
    }

    /** The matrix, reusing the main run's phases ({@code mainReports}) on the JDK that ran them; null when the plan has none. */
    MatrixReport run(List<PhaseReport> mainReports) {
        if (matrix == null) {
            return null;
        }
        long started = System.nanoTime();
        Jdks.Jdk current = Jdks.current();
        Set<Integer> wanted = new LinkedHashSet<>(matrix.jdks(quick));
        progress.accept("JDK matrix: " + matrix.jdks() + (quick ? " (quick: " + wanted + ", " + matrix.quick().cells() + ")" : ""));
        Jdks jdks = discover(wanted, current);
        List<MatrixReport.Column> columns = new ArrayList<>();
        List<MatrixReport.Cell> cells = new ArrayList<>();
        for (int feature : matrix.jdks()) {
            Optional<Jdks.Jdk> jdk = feature == current.feature() ? Optional.of(current) : jdks.byFeature(feature);
            if (!wanted.contains(feature) && feature != current.feature()) {
                columns.add(new MatrixReport.Column(feature, jdk.map(Jdks.Jdk::describe).orElse(null), "not in the quick matrix", List.of(), List.of()));
                continue;
            }
            if (jdk.isEmpty()) {
                String why = "skipped: no JDK " + feature + " found (LAB_JDKS / -Dlab.jdks, the machine's JDKs"
                        + (fetchable() ? ", .ci/fetch-jdks" : "") + ")";
                progress.accept("  JDK " + feature + ": " + why);
                columns.add(new MatrixReport.Column(feature, null, why, List.of(), List.of()));
                matrix.cells(quick).forEach(cell -> cells.add(empty(feature, cell, "no JDK " + feature)));
                continue;
            }
            columns.add(runColumn(jdk.get(), feature == current.feature() ? mainReports : List.of(), cells));
        }
        List<MatrixReport.Cell> ordered = new ArrayList<>();
        List<String> rows = matrix.cells(quick).stream().map(MatrixPlan.Cell::name).toList();
        for (String row : rows) {
            cells.stream().filter(cell -> cell.cell().equals(row)).forEach(ordered::add);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        MatrixReport partial = new MatrixReport(quick, columns, rows, ordered, List.of(), seconds);
        MatrixReport report = new MatrixReport(quick, columns, rows, ordered, MatrixFindings.evaluate(partial, plan.starved()), seconds);
        progress.accept(String.format(Locale.ROOT, "JDK matrix took %.0f s", seconds));
        return report;
    }

    private MatrixReport.Column runColumn(Jdks.Jdk jdk, List<PhaseReport> mainReports, List<MatrixReport.Cell> cells) {
        int feature = jdk.feature();
        progress.accept("  " + jdk.describe());
        List<MatrixPlan.Cell> toMeasure = new ArrayList<>();
        for (MatrixPlan.Cell cell : matrix.cells(quick)) {
            MatrixPlan.MatrixJvm jvm = matrix.jvms().get(cell.jvm());
            if (!cell.appliesTo(feature)) {
                cells.add(empty(feature, cell, "n/a on JDK " + feature + " (the cell is for " + cell.jdk() + ")"));
            } else if (!jvm.appliesTo(feature) && !jvm.attemptedOn(feature)) {
                cells.add(empty(feature, cell, "n/a on JDK " + feature + ": " + jvm.whyNot()));
            } else {
                Optional<PhaseReport> reused = reusable(cell, mainReports);
                if (reused.isPresent()) {
                    cells.add(cell(feature, cell, reused.get(), "main run: " + reused.get().name()));
                } else {
                    toMeasure.add(cell);
                }
            }
        }
        List<ServerFacts> servers = new ArrayList<>();
        List<MatrixReport.Attempt> attempts = new ArrayList<>();
        for (Map.Entry<String, List<MatrixPlan.Cell>> group : matrix.byJvm(toMeasure).entrySet()) {
            runServer(jdk, group.getKey(), group.getValue(), servers, attempts, cells);
        }
        return new MatrixReport.Column(feature, jdk.describe(), "measured", servers, attempts);
    }

    private void runServer(Jdks.Jdk jdk, String jvmName, List<MatrixPlan.Cell> group, List<ServerFacts> servers,
            List<MatrixReport.Attempt> attempts, List<MatrixReport.Cell> cells) {
        int feature = jdk.feature();
        MatrixPlan.MatrixJvm jvm = matrix.jvms().get(jvmName);
        boolean attempt = !jvm.appliesTo(feature) && jvm.attemptedOn(feature);
        String serverName = "jdk" + feature + "-" + jvmName;
        Path logs = out.resolve("logs");
        progress.accept("    server " + jvmName + (attempt ? " (attempted: " + jvm.flags() + " is gone from JDK " + feature + ")" : "")
                + ": " + jvm.description());
        LabServer server;
        try {
            server = LabServer.start(jdk, jvm.commandLine(), Map.of(), logs, serverName);
        } catch (IllegalStateException e) {
            List<String> says = jvmSays(logs.resolve(serverName + ".log"), jvm);
            progress.accept("      the JVM did not start: " + String.join(" / ", says));
            if (attempt) {
                attempts.add(new MatrixReport.Attempt(jvmName, jvm.commandLine(), false, says));
            }
            for (MatrixPlan.Cell cell : group) {
                Prediction prediction = Prediction.of(feature, cell.mode(), cell.downstream(), jvm);
                cells.add(new MatrixReport.Cell(feature, cell.name(), cell.mode(), cell.downstream(), cell.jvm(),
                        Prediction.Outcome.REFUSED.label(), prediction.outcome().label(), prediction.why(),
                        prediction.outcome() == Prediction.Outcome.REFUSED, "the JVM refused to start: " + String.join(" / ", says), null));
            }
            return;
        }
        try (server; PhaseRunner runner = new PhaseRunner(server, plan.probes().endpoints(), plan.probes().rates(),
                Duration.ofMillis(plan.probes().timeoutMillis()), false)) {
            ServerFacts facts = ServerFacts.read(serverName, jvm.description(), runner.lab().info());
            servers.add(facts);
            if (attempt) {
                List<String> says = jvmSays(server.log(), jvm);
                attempts.add(new MatrixReport.Attempt(jvmName, jvm.commandLine(), true, says));
                progress.accept("      started anyway; the JVM says: " + (says.isEmpty() ? "nothing" : String.join(" / ", says)));
            }
            progress.accept(String.format("      %s %s, synchronized pins: %s, native: %s", facts.javaVersion(), facts.javaVendor(),
                    facts.synchronizedPins(), facts.nativePinAvailable()));
            warmUp(server, group, facts);
            PhaseResult baseline = cleanBaseline(runner);
            for (int i = 0; i < group.size(); i++) {
                cells.add(measure(feature, group.get(i), runner, facts, baseline, serverName, i == group.size() - 1));
            }
        }
    }

    private MatrixReport.Cell measure(int feature, MatrixPlan.Cell cell, PhaseRunner runner, ServerFacts facts, PhaseResult baseline,
            String serverName, boolean last) {
        if ("native".equals(cell.mode()) && !facts.nativePinAvailable()) {
            HttpResponse<String> answer = runner.lab().get(matrix.phase(cell).workPath());
            String contentType = answer.headers().firstValue("Content-Type").orElse("");
            boolean unavailable = answer.statusCode() == 501 && contentType.startsWith("application/problem+json");
            Prediction prediction = Prediction.of(feature, cell.mode(), cell.downstream(), matrix.jvms().get(cell.jvm()));
            String outcome = unavailable ? Prediction.Outcome.UNAVAILABLE.label() : "answered " + answer.statusCode();
            progress.accept("      " + cell.name() + ": " + answer.statusCode() + " " + contentType);
            return new MatrixReport.Cell(feature, cell.name(), cell.mode(), cell.downstream(), cell.jvm(), outcome,
                    prediction.outcome().label(), prediction.why(), prediction.outcome().label().equals(outcome),
                    "measured: " + answer.statusCode() + " " + contentType, null);
        }
        Plan.Phase phase = matrix.phase(cell);
        Plan.Phase named = new Plan.Phase(phase.name(), serverName, phase.mode(), phase.downstream(), phase.lock(), phase.ms(),
                phase.concurrency(), phase.seconds());
        // a collapse's probes answer only once its requests reach their deadlines: the phase waits for them
        PhaseResult result = runner.run(cell.name(), phase.workPath(), phase.concurrency(), matrix.duration(), matrix.drain());
        PhaseReport report = PhaseReport.of(named, facts, result, baseline, plan.starved());
        MatrixReport.Cell measured = cell(feature, cell, report, "measured");
        progress.accept(String.format(Locale.ROOT, "      %-28s %7.1f req/s (model %.1f, %s), /probe/virtual %.0fx: %s (predicted %s)%s",
                cell.name(), report.throughputPerSecond(), report.modelLimitPerSecond(), report.modelBasis(), report.virtualProbeSlowdown(),
                measured.outcome(), measured.prediction(), Boolean.FALSE.equals(measured.agrees()) ? "  <- differs" : ""));
        if (!last && (report.throughputToModel() < COLLAPSE_BELOW || report.errors() > 0)) {
            // requests that timed out may still hold carriers: the next cell starts once they are gone
            Quiescence.await(runner.lab(), QUIET_WITHIN);
        }
        return measured;
    }

    /** A measured (or reused) cell, with its outcome read from its figures and set beside the prediction. */
    private MatrixReport.Cell cell(int feature, MatrixPlan.Cell cell, PhaseReport figures, String source) {
        Prediction prediction = Prediction.of(feature, cell.mode(), cell.downstream(), matrix.jvms().get(cell.jvm()));
        Prediction.Outcome outcome = outcome(figures);
        return new MatrixReport.Cell(feature, cell.name(), cell.mode(), cell.downstream(), cell.jvm(), outcome.label(),
                prediction.outcome().label(), prediction.why(), outcome == prediction.outcome(), source, figures);
    }

    /** Collapsed under half the model limit; otherwise starved or free by the plan's rule. */
    static Prediction.Outcome outcome(PhaseReport figures) {
        if (figures.throughputToModel() < COLLAPSE_BELOW) {
            return Prediction.Outcome.COLLAPSES;
        }
        return PhaseReport.STARVED.equals(figures.verdict()) ? Prediction.Outcome.STARVES : Prediction.Outcome.FREE;
    }

    /** A cell not measured on this JDK, still with its prediction. */
    private MatrixReport.Cell empty(int feature, MatrixPlan.Cell cell, String why) {
        Prediction prediction = Prediction.of(feature, cell.mode(), cell.downstream(), matrix.jvms().get(cell.jvm()));
        return new MatrixReport.Cell(feature, cell.name(), cell.mode(), cell.downstream(), cell.jvm(), null, prediction.outcome().label(),
                prediction.why(), null, why, null);
    }

    /** The main run's phase of the same name, if it ran exactly what the cell would: same load, same JVM flags. */
    private Optional<PhaseReport> reusable(MatrixPlan.Cell cell, List<PhaseReport> mainReports) {
        MatrixPlan.MatrixJvm jvm = matrix.jvms().get(cell.jvm());
        return mainReports.stream()
                .filter(report -> report.name().equals(cell.name()) && !report.isBaseline())
                .filter(report -> report.mode().equals(cell.mode()) && report.downstream().equals(cell.downstream())
                        && "private".equals(report.lock()) && report.ms() == matrix.ms() && report.concurrency() == matrix.concurrency())
                .filter(report -> plan.jvms().containsKey(report.jvm()) && !plan.jvms().get(report.jvm()).http2()
                        && plan.jvms().get(report.jvm()).commandLine().equals(jvm.commandLine()))
                .findFirst();
    }

    /**
     * Each mode of the group at once, one client each, so no phase times the JIT; at most three modes
     * hold a carrier, so one is always free and nothing collapses while warming up.
     */
    private void warmUp(LabServer server, List<MatrixPlan.Cell> group, ServerFacts facts) {
        Set<String> paths = new LinkedHashSet<>();
        group.stream().filter(cell -> facts.nativePinAvailable() || !"native".equals(cell.mode()))
                .forEach(cell -> paths.add("/work/" + cell.mode() + "?ms=20&downstream=" + cell.downstream()));
        List<ClosedLoad> loads = paths.stream().map(path -> ClosedLoad.start(server.uri(path), 1, Duration.ofSeconds(30))).toList();
        LabServer.sleep(Duration.ofMillis(1500));
        loads.forEach(load -> load.stop(Duration.ofSeconds(15)));
    }

    private PhaseResult cleanBaseline(PhaseRunner runner) {
        PhaseResult baseline = null;
        for (int attempt = 1; attempt <= BASELINE_ATTEMPTS; attempt++) {
            Quiescence.await(runner.lab(), QUIET_WITHIN);
            baseline = runner.baseline("baseline", matrix.baseline(), matrix.drain());
            String contamination = Quiescence.contamination(baseline, BASELINE_CANARY_LIMIT_MILLIS);
            if (contamination == null) {
                return baseline;
            }
            progress.accept("      baseline contaminated (" + contamination + ")" + (attempt < BASELINE_ATTEMPTS ? ": measuring it again" : ": kept"));
            baseline = baseline.contaminated(contamination);
        }
        return baseline;
    }

    /** What the JVM printed about the flags of {@code jvm}: its warning, or why it would not start. */
    static List<String> jvmSays(Path log, MatrixPlan.MatrixJvm jvm) {
        List<String> options = jvm.flags().stream().map(flag -> flag.replaceFirst("^-XX:[+-]?", "").replaceFirst("=.*$", "")).toList();
        try {
            return Files.readAllLines(log).stream().limit(200)
                    .filter(line -> options.stream().anyMatch(line::contains) || line.startsWith("Error: Could not create the Java Virtual Machine"))
                    .map(String::strip).distinct().limit(5).toList();
        } catch (IOException e) {
            return List.of("(no log: " + e.getMessage() + ")");
        }
    }

    /** The JDKs found, after fetching the missing ones where {@code .ci/fetch-jdks} can. */
    private Jdks discover(Set<Integer> wanted, Jdks.Jdk current) {
        Jdks jdks = Jdks.discover();
        jdks.skipped().forEach(skip -> progress.accept("  left out: " + skip));
        List<Integer> missing = wanted.stream().filter(f -> f != current.feature() && jdks.byFeature(f).isEmpty()).toList();
        if (missing.isEmpty() || !fetchable()) {
            return jdks;
        }
        progress.accept("  fetching JDK " + missing + " with .ci/fetch-jdks (at most " + FETCH_TIMEOUT.toMinutes() + " min)");
        List<String> command = new ArrayList<>(List.of(fetchScript().toString()));
        missing.forEach(feature -> command.add(String.valueOf(feature)));
        try {
            Path log = Files.createDirectories(out.resolve("logs")).resolve("fetch-jdks.log");
            try {
                ChildProcess.Result fetch = ChildProcess.of(command).run(FETCH_TIMEOUT);
                Files.writeString(log, fetch.output());
                if (fetch.exitCode() != 0) {
                    progress.accept("  fetch-jdks failed (exit " + fetch.exitCode() + "): see " + log);
                }
            } catch (ChildProcess.TimedOut e) {
                Files.writeString(log, e.output());
                progress.accept("  fetch-jdks did not finish in time: see " + log);
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            progress.accept("  fetch-jdks did not run: " + e.getMessage());
        }
        return Jdks.discover();
    }

    private boolean fetchable() {
        return "Linux".equals(System.getProperty("os.name")) && Set.of("amd64", "x86_64").contains(System.getProperty("os.arch"))
                && Files.isExecutable(fetchScript());
    }

    private Path fetchScript() {
        return projectDir.resolve(".ci").resolve("fetch-jdks");
    }

    /** Each column's JDK in a line, for the report's environment. */
    static String describe(MatrixReport report) {
        return report.columns().stream().map(column -> column.feature() + ": " + (column.jdk() == null ? column.status() : column.jdk()))
                .collect(Collectors.joining("; "));
    }

    static Map<Integer, List<MatrixReport.Cell>> byJdk(MatrixReport report) {
        Map<Integer, List<MatrixReport.Cell>> grouped = new LinkedHashMap<>();
        report.cells().forEach(cell -> grouped.computeIfAbsent(cell.jdk(), jdk -> new ArrayList<>()).add(cell));
        return grouped;
    }
}
