package io.starvationlab.experiment;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import io.starvationlab.experiment.prometheus.AlertTimeline;
import io.starvationlab.experiment.prometheus.PrometheusReport;
import io.starvationlab.experiment.prometheus.PrometheusRun;
import io.starvationlab.experiment.server.LabServer;

/**
 * Runs the starvation experiment of a plan: for each server JVM the plan names, starts the packaged
 * service with 4 carriers, measures a probes-only baseline, then each phase's load with the probes
 * running throughout; then the cross-JDK matrix ({@link JdkMatrix}); and writes the report.
 * <p>
 * {@code ExperimentRunner [--quick[=true|false]] [--plan k6/plan.json] [--out target/experiment] [--publish docs] [--repeat N]
 * [--phases=a,b]}
 * <p>
 * With {@code --publish}, a full run of the whole plan also writes its report and pictures as
 * {@code results.md} there, the results the README links to.
 * <p>
 * {@code --phases=a,b} runs only the plan's phases of those names (empty: all).
 * <p>
 * With {@code --repeat N} the plan runs N times, each run's report under {@code repeat-1/} and so on,
 * and {@link Repeats} gives each figure's spread and flags every verdict that differs between runs.
 */
public final class ExperimentRunner {

    private static final int BASELINE_ATTEMPTS = 3;
    /** An idle canary waits well under a millisecond; a few milliseconds mean the carriers were busy. */
    private static final double BASELINE_CANARY_LIMIT_MILLIS = 5;

    private final Plan plan;
    private final Path planFile;
    private final boolean quick;
    private final Path out;
    private final Consumer<String> progress;
    private Set<String> only = Set.of();

    public ExperimentRunner(Path planFile, boolean quick, Path out, Consumer<String> progress) {
        this.plan = Plan.read(planFile);
        this.planFile = planFile;
        this.quick = quick;
        this.out = out;
        this.progress = progress;
    }

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        Path planFile = Path.of("k6", "plan.json");
        Path out = Path.of("target", "experiment");
        Path publish = null;
        int repeat = 1;
        Set<String> only = Set.of();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick", "--quick=true", "--quick=" -> quick = true;
                case "--quick=false" -> quick = false;
                case "--plan" -> planFile = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--publish" -> publish = Path.of(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case String phases when phases.startsWith("--phases=") -> only = Set.of(phases.substring("--phases=".length()).split(","))
                        .stream().map(String::trim).filter(name -> !name.isEmpty()).collect(java.util.stream.Collectors.toSet());
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; use [--quick] [--plan file] [--out dir] [--publish dir] [--repeat N] [--phases=a,b]");
            }
        }
        if (repeat > 1) {
            repeatedly(planFile, quick, out, repeat, only);
            return;
        }
        ExperimentReport report = new ExperimentRunner(planFile, quick, out, line -> System.out.println("[experiment] " + line)).only(only).run();
        print(report, out);
        if (publish != null && !quick && only.isEmpty()) {
            System.out.println("Results: " + report.publish(out, publish).toAbsolutePath());
        }
    }

    private static void repeatedly(Path planFile, boolean quick, Path out, int times, Set<String> only) throws Exception {
        List<ExperimentReport> reports = new ArrayList<>();
        for (int run = 1; run <= times; run++) {
            int current = run;
            Path runOut = out.resolve("repeat-" + run);
            ExperimentReport report = new ExperimentRunner(planFile, quick, runOut,
                    line -> System.out.println("[experiment " + current + "/" + times + "] " + line)).only(only).run();
            print(report, runOut);
            reports.add(report);
        }
        Repeats repeats = Repeats.of(reports);
        repeats.write(out);
        System.out.println();
        System.out.println(repeats.markdown());
        System.out.println("Repeats: " + out.resolve("repeats.md").toAbsolutePath());
    }

    private static void print(ExperimentReport report, Path out) {
        System.out.println();
        System.out.println(ReportText.table(report));
        System.out.println("Verdict rule: " + report.verdictRule());
        System.out.println();
        if (report.matrix() != null) {
            System.out.println(MatrixText.table(report.matrix()));
        }
        System.out.println(ReportText.findings(report));
        System.out.println("Report: " + out.resolve("report.md").toAbsolutePath() + " (and report.json, probe-p99.svg, timeline.svg)");
    }

    /** Runs only the phases named, or all when {@code names} is empty. */
    public ExperimentRunner only(Set<String> names) {
        Set<String> unknown = new java.util.TreeSet<>(names);
        plan.phases().forEach(phase -> unknown.remove(phase.name()));
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("no phase " + unknown + " in the plan " + planFile);
        }
        this.only = Set.copyOf(names);
        return this;
    }

    public ExperimentReport run() throws Exception {
        try (PrometheusRun prometheus = PrometheusRun.start(planFile.toAbsolutePath().getParent().getParent(), out, progress)) {
            return run(prometheus);
        }
    }

    private ExperimentReport run(PrometheusRun prometheus) throws Exception {
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        int jdk = LabServer.javaFeatureVersion();
        Map<String, List<Plan.Phase>> groups = new LinkedHashMap<>();
        plan.phasesByJvm(quick).forEach((jvm, phases) -> {
            List<Plan.Phase> chosen = phases.stream().filter(phase -> only.isEmpty() || only.contains(phase.name())).toList();
            if (!chosen.isEmpty()) {
                groups.put(jvm, chosen);
            }
        });
        List<PhaseReport> reports = new ArrayList<>();
        Map<String, ServerFacts> servers = new LinkedHashMap<>();
        long total = groups.values().stream().mapToLong(List::size).sum();
        int done = 0;
        progress.accept(String.format("%s run: %d phases on %d server JVMs, JDK %d, plan %s", quick ? "Quick" : "Full", total,
                groups.size(), jdk, planFile));
        for (Map.Entry<String, List<Plan.Phase>> group : groups.entrySet()) {
            Plan.Jvm jvm = plan.jvms().get(group.getKey());
            if (!jvm.appliesTo(jdk)) {
                progress.accept("Skipping server " + group.getKey() + " (" + jvm.jdk() + " only; this is JDK " + jdk + ")");
                done += group.getValue().size();
                continue;
            }
            progress.accept("Starting server " + group.getKey() + ": " + jvm.description());
            try (LabServer server = LabServer.start(jvm.commandLine(), Map.of(), out.resolve("logs"), group.getKey());
                    PhaseRunner runner = new PhaseRunner(server, plan.probes().endpoints(), plan.probes().rates(),
                            Duration.ofMillis(plan.probes().timeoutMillis()), jvm.http2());
                    AutoCloseable scraped = prometheus.scrape(group.getKey(), server)) {
                ServerFacts facts = ServerFacts.read(group.getKey(), jvm.description(), runner.lab().info());
                servers.put(group.getKey(), facts);
                progress.accept(String.format("  %s, %d carriers, synchronized pins: %s", facts.javaVersion(), facts.carriers(),
                        facts.synchronizedPins()));
                Instant warmUp = Instant.now();
                warmUp(runner, group.getValue());
                prometheus.phase(group.getKey(), "warm-up@" + group.getKey(), AlertTimeline.WARM_UP, warmUp, Instant.now(), Instant.now());
                Measured clean = cleanBaseline(runner);
                PhaseResult baseline = clean.result();
                Instant baselineStart = clean.start();
                reports.add(PhaseReport.baseline(group.getKey(), baseline));
                prometheus.phase(group.getKey(), reports.getLast().name(), PhaseReport.BASELINE, baselineStart,
                        baselineStart.plus(plan.baseline(quick)), Instant.now());
                progress.accept(String.format("  baseline: /probe/virtual p50 %.1f ms", baseline.probe("virtual").percentileMillis(50)));
                for (Plan.Phase phase : group.getValue()) {
                    done++;
                    Duration duration = plan.phaseDuration(phase, quick);
                    progress.accept(String.format("  [%d/%d] %s: %d x %s for %d s", done, total, phase.name(), phase.concurrency(),
                            phase.workPath(), duration.toSeconds()));
                    Instant phaseStart = Instant.now();
                    PhaseResult result = runner.run(phase.name(), phase.workPath(), phase.concurrency(), duration, plan.drain(quick));
                    PhaseReport report = PhaseReport.of(phase, facts, result, baseline, plan.starved());
                    reports.add(report);
                    prometheus.phase(group.getKey(), phase.name(), report.verdict(), phaseStart, phaseStart.plus(duration), Instant.now());
                    progress.accept(String.format("        %.1f req/s (model %.1f, %s), /probe/virtual p50 %.1f ms (%.0fx), canary p99 %.1f ms: %s",
                            report.throughputPerSecond(), report.modelLimitPerSecond(), report.modelBasis(),
                            report.probes().get("virtual").p50Millis(), report.virtualProbeSlowdown(), report.canaryP99Millis(),
                            report.verdict()));
                    if (report.unrelatedWait() != null) {
                        progress.accept("        " + WaitText.oneLine(report.unrelatedWait()));
                    }
                }
            }
        }
        PrometheusReport observed = prometheus.finish(jdk);
        // the JDK-sensitive cells on every JDK found, after the main plan
        MatrixReport matrix = new JdkMatrix(plan, quick, out, projectDir(), progress).run(reports);
        List<Finding> findings = new ArrayList<>(Finding.evaluate(reports, servers, plan.starved(), plan.untouched()));
        findings.addAll(observed.findings());
        if (matrix != null) {
            findings.addAll(matrix.findings());
        }
        ExperimentReport report = new ExperimentReport(started.toString(), quick, environment(), servers, reports, findings,
                plan.starved().describe(), observed, matrix);
        report.write(out);
        return report;
    }

    /**
     * A probes-only baseline, measured once the warm-up has drained; one that still sees pinning or a
     * waiting canary is measured again, and reported as contaminated if it never comes clean.
     */
    private Measured cleanBaseline(PhaseRunner runner) {
        Measured baseline = null;
        for (int attempt = 1; attempt <= BASELINE_ATTEMPTS; attempt++) {
            if (!Quiescence.await(runner.lab(), Duration.ofSeconds(30))) {
                progress.accept("  the server did not drain within 30 s of the warm-up");
            }
            Instant start = Instant.now();
            PhaseResult result = runner.baseline("baseline", plan.baseline(quick), plan.drain(quick));
            String contamination = Quiescence.contamination(result, BASELINE_CANARY_LIMIT_MILLIS);
            if (contamination == null) {
                return new Measured(result, start);
            }
            progress.accept("  baseline contaminated (" + contamination + ")" + (attempt < BASELINE_ATTEMPTS ? ": measuring it again" : ": kept, marked"));
            baseline = new Measured(result.contaminated(contamination), start);
        }
        return baseline;
    }

    /** A phase's result and when it started. */
    private record Measured(PhaseResult result, Instant start) {
    }

    /**
     * Each mode of the group briefly, so that no phase measures the JIT compiling it; with a carrier
     * left free, so the warm-up never starves the service and raises no alert.
     */
    private void warmUp(PhaseRunner runner, List<Plan.Phase> phases) {
        Set<String> paths = new LinkedHashSet<>();
        phases.forEach(phase -> paths.add("/work/" + phase.mode() + "?ms=20&downstream=" + phase.downstream()));
        Duration each = Duration.ofMillis(quick ? 500 : 600);
        for (String path : paths) {
            runner.run("warm-up", path, LabServer.CARRIERS - 1, each, Duration.ofMillis(300));
        }
    }

    /** The project the plan belongs to ({@code <project>/k6/plan.json}), where {@code .ci/fetch-jdks} lives. */
    private Path projectDir() {
        Path k6 = planFile.toAbsolutePath().getParent();
        return k6.getParent() == null ? k6 : k6.getParent();
    }

    private ExperimentReport.Environment environment() {
        return new ExperimentReport.Environment(
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name") + " " + Runtime.version(), planFile.toString(), LabServer.CARRIERS,
                plan.probes().rates());
    }
}
