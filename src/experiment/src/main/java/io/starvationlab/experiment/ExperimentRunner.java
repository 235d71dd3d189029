package io.starvationlab.experiment;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.starvationlab.experiment.findings.Finding;
import io.starvationlab.experiment.findings.Findings;
import io.starvationlab.experiment.k6.K6Suite;
import io.starvationlab.experiment.prometheus.MeasuredPrometheus;
import io.starvationlab.experiment.prometheus.PrometheusRun;
import io.starvationlab.experiment.report.ExperimentReport;
import io.starvationlab.experiment.report.Repeats;
import io.starvationlab.experiment.report.ReportFiles;
import io.starvationlab.experiment.report.ReportText;
import io.starvationlab.experiment.results.JudgedRun;
import io.starvationlab.experiment.run.Environment;
import io.starvationlab.experiment.run.MainRun;
import io.starvationlab.experiment.run.MatrixRun;
import io.starvationlab.experiment.run.MeasuredMainPlan;
import io.starvationlab.experiment.run.MeasuredMatrix;
import io.starvationlab.experiment.run.MeasuredTime;
import io.starvationlab.experiment.run.RunClock;
import io.starvationlab.experiment.run.RunSettings;
import io.starvationlab.experiment.run.ServerStarts;
import io.starvationlab.harness.K6Binary;
import io.starvationlab.model.ColdStart;
import io.starvationlab.model.Plan;

/**
 * The starvation experiment of a plan, its rooms in the order the data flows: the plan is run ({@code run/}:
 * every server JVM with its warm-up, baseline and phases, then the JDK matrix: what was measured), the
 * measurements are judged by the rule and the models ({@code results/}), the claims are judged on them
 * ({@code findings/}), and everything is shown as the report and its pictures ({@code report/}).
 * <p>
 * {@code ExperimentRunner [--quick[=true|false]] [--plan k6/plan.json] [--out target/experiment]
 * [--publish[=true|false]] [--repeat N] [--phases=a,b]}
 * <p>
 * {@code --publish}: a full run of the whole plan also copies its report and pictures to
 * {@code docs/results.md} and the matrix into the README's table (with {@code --repeat}, the last run's); without it nothing outside
 * {@code --out} is written. {@code --phases=a,b} runs only the plan's phases of those names
 * ({@code cold-start}: its fresh JVMs starved at once). With
 * {@code --repeat N} the plan runs N times, each run under {@code repeat-N/}, and {@link Repeats} gives
 * each figure's spread and flags every verdict that differs between runs.
 */
public final class ExperimentRunner {

    private final Path planFile;
    private final RunSettings settings;

    /** A run of {@code planFile}'s phases named in {@code only} ({@code cold-start} for the cold-start runs), or of all when it is empty. */
    public ExperimentRunner(Path planFile, boolean quick, Path out, Consumer<String> progress, Set<String> only) {
        Plan plan = Plan.read(planFile);
        Set<String> unknown = new TreeSet<>(only);
        plan.phases().forEach(phase -> unknown.remove(phase.name()));
        if (plan.coldStart() != null) {
            unknown.remove(ColdStart.NAME);
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("no phase " + unknown + " in the plan " + planFile);
        }
        Path k6 = planFile.toAbsolutePath().getParent();
        this.planFile = planFile;
        // the project the plan belongs to (<project>/k6/plan.json): its manifests, its .ci/fetch-jdks, its docs
        this.settings = new RunSettings(plan, quick, Set.copyOf(only), out, k6.getParent() == null ? k6 : k6.getParent(), progress);
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
        List<ExperimentReport> reports = new ArrayList<>();
        ExperimentRunner runner = null;
        for (int run = 1; run <= repeat; run++) {
            String label = repeat == 1 ? "[experiment] " : "[experiment " + run + "/" + repeat + "] ";
            Path runOut = repeat == 1 ? out : out.resolve("repeat-" + run);
            runner = new ExperimentRunner(planFile, quick, runOut, line -> System.out.println(label + line), only);
            ExperimentReport report = runner.run();
            System.out.println();
            System.out.println(ReportText.markdown(report));
            System.out.println("Report: " + runOut.resolve("report.md").toAbsolutePath() + " (and report.json and the pictures)");
            reports.add(report);
        }
        if (repeat > 1) {
            Repeats repeats = Repeats.of(reports);
            ReportFiles.write(repeats, out);
            System.out.println();
            System.out.println(repeats.markdown());
            System.out.println("Repeats: " + out.resolve("repeats.md").toAbsolutePath());
        }
        if (publish && (quick || !only.isEmpty())) {
            System.out.println("Not published: only a full run of the whole plan replaces docs/results.md and the README's table");
        } else if (publish) {
            // with --repeat, the last run's report: each run is a full run of the whole plan
            Path published = repeat == 1 ? out : out.resolve("repeat-" + repeat);
            System.out.println("Published: " + ReportFiles.publish(reports.getLast(), published, runner.settings.projectDir().resolve("docs")).toAbsolutePath());
        }
    }

    /** plan → run (measured) → results (judged) → findings → report (shown), written to {@code out}; the run's own time at its end. */
    public ExperimentReport run() throws Exception {
        RunClock clock = new RunClock();
        String started = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        Plan plan = settings.plan();
        MeasuredMainPlan main;
        MeasuredPrometheus observed;
        MeasuredMatrix matrix;
        try (ServerStarts starts = new ServerStarts(settings.logs())) {
            // every server JVM of the job planned in the order it runs, so that each can start beside an earlier phase
            MainRun mainRun = new MainRun(settings, starts);
            MatrixRun matrixRun = new MatrixRun(settings, starts);
            matrixRun.plan(clock);
            mainRun.planColdStarts();
            starts.open(Duration.ofSeconds(5)); // the first server JVM starts while Prometheus does: neither is measured
            try (PrometheusRun prometheus = PrometheusRun.start(settings.projectDir(), settings.out(), settings.progress())) {
                Optional<K6Suite> k6 = K6Suite.find(settings.projectDir());
                if (k6.isEmpty()) {
                    settings.progress().accept("k6 beside the runner: not run, " + K6Binary.NOT_FOUND + " (" + K6Binary.HOW_TO_GET + ")");
                }
                main = mainRun.run(prometheus, k6, clock);
                observed = clock.time(RunClock.PROMETHEUS, () -> prometheus.finish(Runtime.version().feature()));
            }
            // the JDK-sensitive cells on every JDK found, after the main plan
            matrix = matrixRun.run(main.servers(), clock);
            starts.settle();
            JudgedRun judged = clock.time(RunClock.REPORT, () -> JudgedRun.of(plan, main, observed, matrix));
            List<Finding> findings = clock.time(RunClock.REPORT, () -> Findings.of(judged, plan));
            ExperimentReport report = new ExperimentReport(started, settings.quick(), Environment.here(shown(planFile), plan.probes().rates()),
                    plan.starved().describe(), judged, findings, MeasuredTime.of(clock, starts));
            long writing = System.nanoTime();
            ReportFiles.write(report, settings.out());
            settings.progress().accept(String.format(Locale.ROOT, "The run took %.0f s; the report %.1f s to write", clock.seconds(),
                    RunClock.since(writing)));
            return report;
        }
    }

    /** {@code file} as the report shows it: relative to the project where it is inside it (a published report names no machine's folders). */
    private String shown(Path file) {
        Path project = settings.projectDir().toAbsolutePath().normalize();
        Path absolute = file.toAbsolutePath().normalize();
        return absolute.startsWith(project) ? project.relativize(absolute).toString() : file.toString();
    }
}
