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
 * running throughout, and writes the report.
 * <p>
 * {@code ExperimentRunner [--quick[=true|false]] [--plan k6/plan.json] [--out target/experiment] [--repeat N] [--phases=a,b]}
 * <p>
 * {@code --phases=a,b} runs only the plan's phases of those names (empty: all).
 * <p>
 * With {@code --repeat N} the plan runs N times, each run's report under {@code repeat-1/} and so on,
 * and {@link Repeats} gives each figure's spread and flags every verdict that differs between runs.
 */
public final class ExperimentRunner {

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
        int repeat = 1;
        Set<String> only = Set.of();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick", "--quick=true", "--quick=" -> quick = true;
                case "--quick=false" -> quick = false;
                case "--plan" -> planFile = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case String phases when phases.startsWith("--phases=") -> only = Set.of(phases.substring("--phases=".length()).split(","))
                        .stream().map(String::trim).filter(name -> !name.isEmpty()).collect(java.util.stream.Collectors.toSet());
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; use [--quick] [--plan file] [--out dir] [--repeat N] [--phases=a,b]");
            }
        }
        if (repeat > 1) {
            repeatedly(planFile, quick, out, repeat, only);
            return;
        }
        ExperimentReport report = new ExperimentRunner(planFile, quick, out, line -> System.out.println("[experiment] " + line)).only(only).run();
        print(report, out);
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
        System.out.println(ReportText.findings(report));
        System.out.println("Report: " + out.resolve("report.md").toAbsolutePath() + " (and report.json, probe-p99.svg)");
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
                            Duration.ofMillis(plan.probes().timeoutMillis()), jvm.http2())) {
                ServerFacts facts = ServerFacts.read(group.getKey(), jvm.description(), runner.lab().info());
                servers.put(group.getKey(), facts);
                progress.accept(String.format("  %s, %d carriers, synchronized pins: %s", facts.javaVersion(), facts.carriers(),
                        facts.synchronizedPins()));
                warmUp(runner, group.getValue());
                PhaseResult baseline = runner.baseline("baseline", plan.baseline(quick), plan.drain(quick));
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
                    if (report.unrelatedWait() != null) {
                        progress.accept("        " + WaitText.oneLine(report.unrelatedWait()));
                    }
                }
            }
        }
        ExperimentReport report = new ExperimentReport(started.toString(), quick, environment(), servers, reports,
                Finding.evaluate(reports, servers, plan.starved()), plan.starved().describe());
        report.write(out);
        return report;
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

    private ExperimentReport.Environment environment() {
        return new ExperimentReport.Environment(
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name") + " " + Runtime.version(), planFile.toString(), LabServer.CARRIERS,
                plan.probes().ratePerSecond());
    }
}
