package io.starvationlab.experiment.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import io.starvationlab.experiment.run.MeasuredMatrix;
import io.starvationlab.experiment.run.MeasuredPhase;
import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.model.MatrixPlan;
import io.starvationlab.model.Plan;
import io.starvationlab.model.Prediction;

/**
 * The cross-JDK matrix of a run, judged: one column per JDK of the plan (measured, or skipped and why), one
 * entry per JDK and cell with its outcome set beside its {@link Prediction}. Field names are stable:
 * {@code report.json} carries it as {@code matrix}.
 *
 * @param seconds how long the matrix added to the run (server starts, warm-ups, baselines, cells)
 */
public record JudgedMatrix(boolean quick, List<Column> columns, List<String> rows, List<Cell> cells, double seconds) {

    /** Under this share of its model limit a cell has collapsed rather than merely starved. */
    public static final double COLLAPSE_BELOW = 0.5;

    /**
     * One JDK of the matrix.
     *
     * @param jdk      the JDK's exact version and vendor, or null when none was found
     * @param status   "measured", or why the column is empty
     * @param servers  what each of its server JVMs said in {@code /lab/info}
     * @param attempts flags tried on a JDK that no longer has them, and what the JVM said
     */
    public record Column(int feature, String jdk, String status, List<MeasuredServer.Info> servers, List<Attempt> attempts) {
    }

    /**
     * A server started with flags its JDK no longer has.
     *
     * @param started whether the JVM started anyway
     * @param jvmSays the JVM's own lines about the flags (its warning, or why it refused to start)
     */
    public record Attempt(String jvm, List<String> flags, boolean started, List<String> jvmSays) {
    }

    /**
     * One JDK and cell.
     *
     * @param outcome    what was measured: starves, collapses, free, 501, refused; null when not measured
     * @param prediction what the JDK's documented behaviour says ({@link Prediction})
     * @param agrees     whether measurement and prediction agree; null when not measured
     * @param source     "measured", "main run: <phase>" when the main plan's identical phase on this JDK is reused, or why there is nothing
     * @param figures    the phase's figures, as the main report gives them; null without a load
     */
    public record Cell(int jdk, String cell, String mode, String downstream, String jvm, String outcome, String prediction,
            String predictionWhy, Boolean agrees, String source, JudgedPhase figures) {
    }

    /** The matrix as run, each cell judged by the plan's rule and set beside its prediction. */
    public static JudgedMatrix of(MeasuredMatrix record, Plan plan) {
        MatrixPlan matrix = plan.matrix();
        List<Column> columns = new ArrayList<>();
        List<Cell> cells = new ArrayList<>();
        for (MeasuredMatrix.Column column : record.columns()) {
            List<MeasuredServer.Info> servers = column.servers().stream().filter(MeasuredServer::started).map(MeasuredServer::info).toList();
            List<Attempt> attempts = new ArrayList<>();
            for (MeasuredServer server : column.servers()) {
                String jvmName = server.name().substring(MatrixPlan.serverName(column.feature(), "").length());
                MatrixPlan.MatrixJvm jvm = matrix.jvms().get(jvmName);
                if (!jvm.appliesTo(column.feature()) && jvm.attemptedOn(column.feature())) {
                    attempts.add(new Attempt(jvmName, jvm.commandLine(), server.started(), server.jvmSays()));
                }
            }
            columns.add(new Column(column.feature(), column.jdk() == null ? null : column.jdk().describe(), column.status(), servers, attempts));
            matrix.cells(record.quick()).forEach(cell -> cell(column, cell, plan).ifPresent(cells::add));
        }
        List<String> rows = matrix.cells(record.quick()).stream().map(MatrixPlan.Cell::name).toList();
        List<Cell> ordered = rows.stream().flatMap(row -> cells.stream().filter(cell -> cell.cell().equals(row))).toList();
        return new JudgedMatrix(record.quick(), List.copyOf(columns), rows, ordered, record.seconds());
    }

    /** A JDK's cell: measured, reused from the main run, refused, or empty and why; none for a JDK outside the quick matrix. */
    private static Optional<Cell> cell(MeasuredMatrix.Column column, MatrixPlan.Cell cell, Plan plan) {
        MatrixPlan matrix = plan.matrix();
        int feature = column.feature();
        MatrixPlan.MatrixJvm jvm = matrix.jvms().get(cell.jvm());
        Prediction prediction = Prediction.of(feature, cell.mode(), cell.downstream(), jvm.flags(), jvm.properties());
        if (!"measured".equals(column.status())) {
            return column.jdk() == null && !column.status().startsWith("not in") ? Optional.of(judged(feature, cell, prediction, null,
                    "no JDK " + feature, null)) : Optional.empty();
        }
        Optional<String> whyNot = matrix.whyNot(cell, feature);
        if (whyNot.isPresent()) {
            return Optional.of(judged(feature, cell, prediction, null, whyNot.get(), null));
        }
        MeasuredMatrix.Reused reused = column.reused().get(cell.name());
        if (reused != null) {
            return Optional.of(measured(feature, cell, prediction, JudgedPhase.of(reused.phase(), reused.server(), plan.starved()),
                    "main run: " + reused.phase().name()));
        }
        String serverName = MatrixPlan.serverName(feature, cell.jvm());
        MeasuredServer server = column.servers().stream().filter(s -> s.name().equals(serverName)).findFirst().orElseThrow();
        if (!server.started()) {
            return Optional.of(judged(feature, cell, prediction, Prediction.Outcome.REFUSED.label(),
                    "the JVM refused to start: " + String.join(" / ", server.jvmSays()), null));
        }
        MeasuredPhase phase = server.phases().stream().filter(p -> p.name().equals(cell.name())).findFirst().orElseThrow();
        if (phase.answer() != null) {
            MeasuredPhase.Answer answer = phase.answer();
            boolean unavailable = answer.status() == 501 && answer.contentType().startsWith("application/problem+json");
            String outcome = unavailable ? Prediction.Outcome.UNAVAILABLE.label() : "answered " + answer.status();
            return Optional.of(judged(feature, cell, prediction, outcome, "measured: " + answer.status() + " " + answer.contentType(), null));
        }
        return Optional.of(measured(feature, cell, prediction, JudgedPhase.of(phase, server, plan.starved()), "measured"));
    }

    private static Cell measured(int feature, MatrixPlan.Cell cell, Prediction prediction, JudgedPhase figures, String source) {
        return judged(feature, cell, prediction, outcome(figures).label(), source, figures);
    }

    /** A JDK's cell with its {@code outcome} (null: not measured, and {@code source} says why) set beside its prediction. */
    private static Cell judged(int feature, MatrixPlan.Cell cell, Prediction prediction, String outcome, String source, JudgedPhase figures) {
        return new Cell(feature, cell.name(), cell.mode(), cell.downstream(), cell.jvm(), outcome, prediction.outcome().label(), prediction.why(),
                outcome == null ? null : prediction.outcome().label().equals(outcome), source, figures);
    }

    /** Collapsed under half the model limit; otherwise starved or free by the plan's rule. */
    public static Prediction.Outcome outcome(JudgedPhase figures) {
        if (figures.throughputToModel() < COLLAPSE_BELOW) {
            return Prediction.Outcome.COLLAPSES;
        }
        return JudgedPhase.STARVED.equals(figures.verdict()) ? Prediction.Outcome.STARVES : Prediction.Outcome.FREE;
    }

    public Optional<Cell> cell(int jdk, String name) {
        return cells.stream().filter(cell -> cell.jdk() == jdk && cell.cell().equals(name)).findFirst();
    }

    /** Each column's JDK in a line, for the report's environment. */
    public String describeJdks() {
        return columns.stream().map(column -> column.feature() + ": " + (column.jdk() == null ? column.status() : column.jdk()))
                .collect(Collectors.joining("; "));
    }
}
