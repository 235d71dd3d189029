package io.starvationlab.experiment;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.starvationlab.experiment.findings.Finding;
import io.starvationlab.experiment.findings.Findings;
import io.starvationlab.harness.plan.ColdStart;
import io.starvationlab.harness.plan.Plan;
import io.starvationlab.experiment.prometheus.PrometheusRecord;
import io.starvationlab.experiment.prometheus.PrometheusRun;
import io.starvationlab.experiment.report.ExperimentReport;
import io.starvationlab.experiment.report.MatrixText;
import io.starvationlab.experiment.report.Repeats;
import io.starvationlab.experiment.report.ReportText;
import io.starvationlab.experiment.results.RunResults;
import io.starvationlab.experiment.run.Environment;
import io.starvationlab.experiment.run.MainRun;
import io.starvationlab.experiment.run.MatrixRun;
import io.starvationlab.experiment.k6.K6Suite;
import io.starvationlab.harness.K6Binary;

/**
 * The starvation experiment of a plan, its rooms in the order the data flows: the plan ({@code plan/})
 * is run ({@code run/}: every server JVM with its warm-up, baseline and phases, then the JDK matrix),
 * the measurements become figures ({@code results/}), the figures are judged ({@code findings/}), and
 * everything is written as the report and its pictures ({@code report/}).
 * <p>
 * {@code ExperimentRunner [--quick[=true|false]] [--plan k6/plan.json] [--out target/experiment]
 * [--publish[=true|false]] [--repeat N] [--phases=a,b]}
 * <p>
 * {@code --publish}: a full run of the whole plan also copies its report and pictures to
 * {@code docs/results.md} and the matrix into the README's table; without it nothing outside
 * {@code --out} is written. {@code --phases=a,b} runs only the plan's phases of those names
 * ({@code cold-start}: its fresh JVMs starved at once). With
 * {@code --repeat N} the plan runs N times, each run under {@code repeat-N/}, and {@link Repeats} gives
 * each figure's spread and flags every verdict that differs between runs.
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
        boolean publish = false;
        Path planFile = Path.of("k6", "plan.json");
        Path out = Path.of("target", "experiment");
        int repeat = 1;
        Set<String> only = Set.of();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick", "--quick=true", "--quick=" -> quick = true;
                case "--quick=false" -> quick = false;
                case "--publish", "--publish=true", "--publish=" -> publish = true;
                case "--publish=false" -> publish = false;
                case "--plan" -> planFile = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case String phases when phases.startsWith("--phases=") -> only = Stream.of(phases.substring("--phases=".length()).split(","))
                        .map(String::trim).filter(name -> !name.isEmpty()).collect(Collectors.toSet());
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; use [--quick] [--plan file] [--out dir] [--publish] [--repeat N] [--phases=a,b]");
            }
        }
        if (repeat > 1) {
            repeatedly(planFile, quick, out, repeat, only);
            return;
        }
        ExperimentRunner runner = new ExperimentRunner(planFile, quick, out, line -> System.out.println("[experiment] " + line)).only(only);
        ExperimentReport report = runner.run();
        print(report, out);
        if (publish) {
            if (quick || !only.isEmpty()) {
                System.out.println("Not published: only a full run of the whole plan replaces docs/results.md and the README's table");
            } else {
                System.out.println("Published: " + report.publish(out, runner.projectDir().resolve("docs")).toAbsolutePath());
            }
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
        System.out.println("Report: " + out.resolve("report.md").toAbsolutePath() + " (and report.json and the pictures)");
    }

    /** Runs only the phases named ({@code cold-start} for the cold-start runs), or all when {@code names} is empty. */
    public ExperimentRunner only(Set<String> names) {
        Set<String> unknown = new TreeSet<>(names);
        plan.phases().forEach(phase -> unknown.remove(phase.name()));
        if (plan.coldStart() != null) {
            unknown.remove(ColdStart.NAME);
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("no phase " + unknown + " in the plan " + planFile);
        }
        this.only = Set.copyOf(names);
        return this;
    }

    /** plan → run → results → findings → report, written to {@code out}. */
    public ExperimentReport run() throws Exception {
        String started = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        MainRun.Record main;
        PrometheusRecord observed;
        try (PrometheusRun prometheus = PrometheusRun.start(projectDir(), out, progress)) {
            Optional<K6Suite> k6 = K6Suite.find(projectDir());
            String noK6 = K6Binary.NOT_FOUND;
            if (k6.isEmpty()) {
                progress.accept("k6 beside the runner: not run, " + noK6 + " (" + K6Binary.HOW_TO_GET + ")");
            }
            main = MainRun.run(plan, quick, only, out, prometheus, progress, k6.orElse(null), noK6);
            observed = prometheus.finish(Runtime.version().feature());
        }
        // the JDK-sensitive cells on every JDK found, after the main plan
        MatrixRun.Record matrix = new MatrixRun(plan, quick, out, projectDir(), progress).run(main.servers());
        RunResults results = RunResults.of(plan, main, observed, matrix);
        List<Finding> findings = Findings.of(results, plan);
        ExperimentReport report = ExperimentReport.of(started, quick, Environment.here(planFile.toString(), plan.probes().rates()), results,
                findings, plan.starved().describe());
        report.write(out);
        return report;
    }

    /** The project the plan belongs to ({@code <project>/k6/plan.json}): its manifests, its {@code .ci/fetch-jdks}, its docs. */
    private Path projectDir() {
        Path k6 = planFile.toAbsolutePath().getParent();
        return k6.getParent() == null ? k6 : k6.getParent();
    }
}
