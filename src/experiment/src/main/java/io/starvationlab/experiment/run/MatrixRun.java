package io.starvationlab.experiment.run;

import java.io.IOException;
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

import io.starvationlab.experiment.prometheus.PrometheusRun;
import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.Jdks;
import io.starvationlab.model.MatrixPlan;
import io.starvationlab.model.Plan;

/**
 * Runs the plan's cross-JDK matrix with the one run loop ({@link ServerRun}): for each JDK of the
 * matrix found on this machine (fetched with {@code .ci/fetch-jdks} on Linux x86-64 when missing), each
 * matrix server JVM in turn with the cells that apply on it. On the JDK that ran the main plan, a cell
 * the main run measured identically (same mode, downstream, load and JVM flags, 4 carriers and no quota) is taken from it.
 */
public final class MatrixRun {

    private static final Duration FETCH_TIMEOUT = Duration.ofMinutes(10);

    private final RunSettings run;
    private final Plan plan;
    private final MatrixPlan matrix;
    private final boolean quick;
    private final Consumer<String> progress;
    private final ServerStarts starts;
    private final Jdks.Jdk current = Jdks.current();
    private Jdks jdks;

    public MatrixRun(RunSettings run, ServerStarts starts) {
        this.run = run;
        this.plan = run.plan();
        this.matrix = plan.matrix();
        this.quick = run.quick();
        this.progress = run.progress();
        this.starts = starts;
    }

    /**
     * Finds the matrix's JDKs (fetching the missing ones where it can) and plans the server JVMs of every JDK but the one
     * running the main plan, whose cells may be the main run's; the time on {@code clock}.
     */
    public void plan(RunClock clock) {
        if (matrix == null) {
            return;
        }
        clock.time(RunClock.JDKS, () -> {
            Set<Integer> wanted = new LinkedHashSet<>(matrix.jdks(quick));
            progress.accept("JDK matrix: " + matrix.jdks() + (quick ? " (quick: " + wanted + ", " + matrix.quick().cells() + ")" : ""));
            jdks = discover(wanted);
            for (int feature : wanted) {
                if (feature != current.feature()) {
                    jdks.byFeature(feature).ifPresent(jdk -> servers(jdk, List.of(), new LinkedHashMap<>()).keySet().forEach(starts::plan));
                }
            }
        });
    }

    /** The matrix, reusing the main run's phases ({@code main}) on the JDK that ran them; null when the plan has none. */
    public MeasuredMatrix run(List<MeasuredServer> main, RunClock clock) {
        if (matrix == null) {
            return null;
        }
        if (jdks == null) {
            plan(clock);
        }
        long started = System.nanoTime();
        Set<Integer> wanted = new LinkedHashSet<>(matrix.jdks(quick));
        List<MeasuredMatrix.Column> columns = new ArrayList<>();
        for (int feature : matrix.jdks()) {
            Optional<Jdks.Jdk> jdk = feature == current.feature() ? Optional.of(current) : jdks.byFeature(feature);
            if (!wanted.contains(feature) && feature != current.feature()) {
                columns.add(new MeasuredMatrix.Column(feature, jdk.orElse(null), "not in the quick matrix", List.of(), Map.of()));
            } else if (jdk.isEmpty()) {
                String why = "skipped: no JDK " + feature + " found (LAB_JDKS / -Dlab.jdks, the machine's JDKs" + (fetchable() ? ", .ci/fetch-jdks" : "") + ")";
                progress.accept("  JDK " + feature + ": " + why);
                columns.add(new MeasuredMatrix.Column(feature, null, why, List.of(), Map.of()));
            } else {
                columns.add(column(jdk.get(), feature == current.feature() ? main : List.of(), clock));
            }
        }
        double seconds = RunClock.since(started);
        progress.accept(String.format(Locale.ROOT, "JDK matrix took %.0f s", seconds));
        return new MeasuredMatrix(quick, List.copyOf(columns), seconds);
    }

    /**
     * The server JVMs that measure {@code jdk}'s cells, each with its cells as phases, but the cells the main run measured alike
     * ({@code main}), put in {@code reused}.
     */
    private Map<ServerRun.Spec, List<Plan.Phase>> servers(Jdks.Jdk jdk, List<MeasuredServer> main, Map<String, MeasuredMatrix.Reused> reused) {
        int feature = jdk.feature();
        List<MatrixPlan.Cell> toMeasure = new ArrayList<>();
        matrix.cells(quick).stream().filter(cell -> matrix.whyNot(cell, feature).isEmpty())
                .forEach(cell -> reusable(cell, main).ifPresentOrElse(found -> reused.put(cell.name(), found), () -> toMeasure.add(cell)));
        Map<ServerRun.Spec, List<Plan.Phase>> servers = new LinkedHashMap<>();
        matrix.byJvm(toMeasure).forEach((jvmName, cells) -> {
            MatrixPlan.MatrixJvm jvm = matrix.jvms().get(jvmName);
            boolean attempt = !jvm.appliesTo(feature) && jvm.attemptedOn(feature);
            String description = jvm.description() + (attempt ? " (attempted: " + jvm.flags() + " is gone from JDK " + feature + ")" : "");
            servers.put(new ServerRun.Spec(MatrixPlan.serverName(feature, jvmName), description, jdk, jvm.commandLine(), false, null),
                    cells.stream().map(matrix::phase).toList());
        });
        return servers;
    }

    private MeasuredMatrix.Column column(Jdks.Jdk jdk, List<MeasuredServer> main, RunClock clock) {
        int feature = jdk.feature();
        progress.accept("  " + jdk.describe());
        ServerRun loop = new ServerRun(new ServerRun.Settings(plan.probes(), matrix.baseline(), matrix.drain(), plan.starved(), run.logs()),
                PrometheusRun.off("the matrix is judged on its cells, not on alerts"), starts, clock, progress, 0, null);
        Map<String, MeasuredMatrix.Reused> reused = new LinkedHashMap<>();
        List<MeasuredServer> servers = new ArrayList<>();
        servers(jdk, main, reused).forEach((spec, phases) -> servers.add(loop.run(spec, phases, phase -> matrix.duration(), "JDK matrix: JDK " + feature)));
        return new MeasuredMatrix.Column(feature, jdk, "measured", List.copyOf(servers), Map.copyOf(reused));
    }

    /** The main run's phase of the cell's name, if it ran exactly what the cell would: same load, same JVM flags. */
    private Optional<MeasuredMatrix.Reused> reusable(MatrixPlan.Cell cell, List<MeasuredServer> main) {
        MatrixPlan.MatrixJvm jvm = matrix.jvms().get(cell.jvm());
        for (MeasuredServer server : main) {
            for (MeasuredPhase record : server.phases()) {
                Plan.Phase phase = record.phase();
                Plan.Jvm ran = plan.jvms().get(phase.jvm());
                if (record.name().equals(cell.name()) && record.result() != null && phase.mode().equals(cell.mode())
                        && phase.downstream().equals(cell.downstream()) && "private".equals(phase.lock()) && phase.ms() == matrix.ms()
                        && phase.concurrency() == matrix.concurrency() && ran != null && !ran.http2() && ran.cpuQuota() == null
                        && ran.commandLine().equals(jvm.commandLine())) {
                    return Optional.of(new MeasuredMatrix.Reused(server, record));
                }
            }
        }
        return Optional.empty();
    }

    /** The JDKs found, after fetching the missing ones where {@code .ci/fetch-jdks} can. */
    private Jdks discover(Set<Integer> wanted) {
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
            Path log = Files.createDirectories(run.logs()).resolve("fetch-jdks.log");
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
        return run.projectDir().resolve(".ci").resolve("fetch-jdks");
    }
}
