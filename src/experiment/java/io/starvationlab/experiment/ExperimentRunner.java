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

import io.starvationlab.experiment.server.LabServer;

/**
 * Runs the starvation experiment of a plan: for each server JVM the plan names, starts the packaged
 * service with 4 carriers, measures a probes-only baseline, then each phase's load with the probes
 * running throughout; then the cross-JDK matrix ({@link JdkMatrix}); and writes the report.
 * <p>
 * {@code ExperimentRunner [--quick[=true|false]] [--plan k6/plan.json] [--out target/experiment] [--publish docs]}:
 * with {@code --publish}, a full run also writes its report and pictures as {@code results.md} there,
 * the results the README links to.
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
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick", "--quick=true", "--quick=" -> quick = true;
                case "--quick=false" -> quick = false;
                case "--plan" -> planFile = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--publish" -> publish = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; use [--quick] [--plan file] [--out dir] [--publish dir]");
            }
        }
        ExperimentReport report = new ExperimentRunner(planFile, quick, out, line -> System.out.println("[experiment] " + line)).run();
        System.out.println();
        System.out.println(ReportText.table(report));
        System.out.println("Verdict rule: " + report.verdictRule());
        System.out.println();
        if (report.matrix() != null) {
            System.out.println(MatrixText.table(report.matrix()));
        }
        System.out.println(ReportText.findings(report));
        System.out.println("Report: " + out.resolve("report.md").toAbsolutePath() + " (and report.json, probe-p99.svg)");
        if (publish != null && !quick) {
            System.out.println("Results: " + report.publish(out, publish).toAbsolutePath());
        }
    }

    public ExperimentReport run() throws Exception {
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        int jdk = LabServer.javaFeatureVersion();
        Map<String, List<Plan.Phase>> groups = plan.phasesByJvm(quick);
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
                    PhaseRunner runner = new PhaseRunner(server, plan.probes().endpoints(), plan.probes().ratePerSecond(),
                            Duration.ofMillis(plan.probes().timeoutMillis()), jvm.http2())) {
                ServerFacts facts = ServerFacts.read(group.getKey(), jvm.description(), runner.lab().info());
                servers.put(group.getKey(), facts);
                progress.accept(String.format("  %s, %d carriers, synchronized pins: %s", facts.javaVersion(), facts.carriers(),
                        facts.synchronizedPins()));
                warmUp(runner, group.getValue());
                PhaseResult baseline = cleanBaseline(runner);
                reports.add(PhaseReport.baseline(group.getKey(), baseline));
                progress.accept(String.format("  baseline: /probe/virtual p50 %.1f ms", baseline.probe("virtual").percentileMillis(50)));
                for (Plan.Phase phase : group.getValue()) {
                    done++;
                    Duration duration = plan.phaseDuration(phase, quick);
                    progress.accept(String.format("  [%d/%d] %s: %d x %s for %d s", done, total, phase.name(), phase.concurrency(),
                            phase.workPath(), duration.toSeconds()));
                    PhaseResult result = runner.run(phase.name(), phase.workPath(), phase.concurrency(), duration, plan.drain(quick));
                    PhaseReport report = PhaseReport.of(phase, facts, result, baseline, plan.starved());
                    reports.add(report);
                    progress.accept(String.format("        %.1f req/s (model %.1f, %s), /probe/virtual p50 %.1f ms (%.0fx), canary p99 %.1f ms: %s",
                            report.throughputPerSecond(), report.modelLimitPerSecond(), report.modelBasis(),
                            report.probes().get("virtual").p50Millis(), report.virtualProbeSlowdown(), report.canaryP99Millis(),
                            report.verdict()));
                }
            }
        }
        // JDK matrix (issue 12): the JDK-sensitive cells on every JDK found, after the main plan
        MatrixReport matrix = new JdkMatrix(plan, quick, out, projectDir(), progress).run(reports);
        List<Finding> findings = new ArrayList<>(Finding.evaluate(reports, servers, plan.starved()));
        if (matrix != null) {
            findings.addAll(matrix.findings());
        }
        ExperimentReport report = new ExperimentReport(started.toString(), quick, environment(), servers, reports,
                findings, plan.starved().describe(), matrix);
        report.write(out);
        return report;
    }

    /**
     * A probes-only baseline, measured once the warm-up has drained; one that still sees pinning or a
     * waiting canary is measured again, and reported as contaminated if it never comes clean.
     */
    private PhaseResult cleanBaseline(PhaseRunner runner) {
        PhaseResult baseline = null;
        for (int attempt = 1; attempt <= BASELINE_ATTEMPTS; attempt++) {
            if (!Quiescence.await(runner.lab(), Duration.ofSeconds(30))) {
                progress.accept("  the server did not drain within 30 s of the warm-up");
            }
            baseline = runner.baseline("baseline", plan.baseline(quick), plan.drain(quick));
            String contamination = Quiescence.contamination(baseline, BASELINE_CANARY_LIMIT_MILLIS);
            if (contamination == null) {
                return baseline;
            }
            progress.accept("  baseline contaminated (" + contamination + ")" + (attempt < BASELINE_ATTEMPTS ? ": measuring it again" : ": kept, marked"));
            baseline = baseline.contaminated(contamination);
        }
        return baseline;
    }

    /** Each mode of the group briefly, so that no phase measures the JIT compiling it. */
    private void warmUp(PhaseRunner runner, List<Plan.Phase> phases) {
        Set<String> paths = new LinkedHashSet<>();
        phases.forEach(phase -> paths.add("/work/" + phase.mode() + "?ms=20&downstream=" + phase.downstream()));
        Duration each = Duration.ofMillis(quick ? 500 : 1000);
        for (String path : paths) {
            runner.run("warm-up", path, 8, each, Duration.ofMillis(300));
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
                plan.probes().ratePerSecond());
    }
}
