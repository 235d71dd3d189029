package io.starvationlab.experiment;

import java.util.List;
import java.util.Optional;

/**
 * The cross-JDK matrix of a run: one column per JDK of the plan (measured, or skipped and why), one
 * entry per JDK and cell with its prediction, and the findings judged on it. Field names are stable:
 * {@code report.json} carries it as {@code matrix}.
 *
 * @param seconds how long the matrix added to the run (server starts, warm-ups, baselines, cells)
 */
public record MatrixReport(boolean quick, List<Column> columns, List<String> rows, List<Cell> cells, List<Finding> findings,
        double seconds) {

    /**
     * One JDK of the matrix.
     *
     * @param jdk      the JDK's exact version and vendor, or null when none was found
     * @param status   "measured", or why the column is empty
     * @param servers  what each of its server JVMs said in {@code /lab/info}
     * @param attempts flags tried on a JDK that no longer has them, and what the JVM said
     */
    public record Column(int feature, String jdk, String status, List<ServerFacts> servers, List<Attempt> attempts) {
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
            String predictionWhy, Boolean agrees, String source, PhaseReport figures) {
    }

    public Optional<Cell> cell(int jdk, String name) {
        return cells.stream().filter(cell -> cell.jdk() == jdk && cell.cell().equals(name)).findFirst();
    }

    public Optional<Column> column(int jdk) {
        return columns.stream().filter(column -> column.feature() == jdk).findFirst();
    }
}
