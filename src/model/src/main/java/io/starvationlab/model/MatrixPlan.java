package io.starvationlab.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The plan's cross-JDK matrix ({@code matrix} in {@code k6/plan.json}): the JDKs, the server JVMs with
 * the flags that matter on each, and the JDK-sensitive cells, each a load of {@code concurrency} x
 * {@code ms} on one server JVM.
 *
 * @param jdks    the JDK feature versions of the matrix, its columns
 * @param quick   what quick mode keeps: these JDKs, these cells
 */
public record MatrixPlan(List<Integer> jdks, double seconds, double baselineSeconds, double drainSeconds, int ms, int concurrency,
        QuickMatrix quick, Map<String, MatrixJvm> jvms, List<Cell> cells) {

    public record QuickMatrix(List<Integer> jdks, List<String> cells) {
    }

    /**
     * A server JVM of the matrix.
     *
     * @param jdk       the JDKs where its flags do what they say; elsewhere its cells are not applicable, for {@code whyNot}
     * @param attemptOn the JDKs where the flags are gone: the server is started once with them anyway, to
     *                  capture what the JVM says (a warning, or a refusal to start)
     */
    public record MatrixJvm(String description, List<String> flags, Map<String, String> properties, Plan.JdkRange jdk,
            Plan.JdkRange attemptOn, String whyNot) implements Plan.ServerJvm {

        public boolean attemptedOn(int feature) {
            return attemptOn != null && attemptOn.includes(feature);
        }
    }

    /** A row of the matrix: a mode and downstream on a server JVM, on the JDKs of {@code jdk} (all if absent). */
    public record Cell(String name, String jvm, String mode, String downstream, Plan.JdkRange jdk) implements Plan.OnJdks {
    }

    public MatrixPlan {
        for (Cell cell : cells) {
            if (!jvms.containsKey(cell.jvm())) {
                throw new IllegalStateException("matrix cell " + cell.name() + " names an unknown jvm " + cell.jvm());
            }
        }
    }

    public List<Integer> jdks(boolean quickMode) {
        return quickMode ? quick.jdks() : jdks;
    }

    /** The cells to measure in the given mode, in plan order. */
    public List<Cell> cells(boolean quickMode) {
        return quickMode ? cells.stream().filter(cell -> quick.cells().contains(cell.name())).toList() : cells;
    }

    /** Why {@code cell} is not measured on JDK {@code feature}; empty when it is. */
    public Optional<String> whyNot(Cell cell, int feature) {
        if (!cell.appliesTo(feature)) {
            return Optional.of("n/a on JDK " + feature + " (the cell is for " + cell.jdk() + ")");
        }
        MatrixJvm jvm = jvms.get(cell.jvm());
        if (!jvm.appliesTo(feature) && !jvm.attemptedOn(feature)) {
            return Optional.of("n/a on JDK " + feature + ": " + jvm.whyNot());
        }
        return Optional.empty();
    }

    /** The cells applicable on a JDK, grouped by server JVM in order of first appearance. */
    public Map<String, List<Cell>> byJvm(List<Cell> selected) {
        Map<String, List<Cell>> grouped = new LinkedHashMap<>();
        selected.forEach(cell -> grouped.computeIfAbsent(cell.jvm(), jvm -> new ArrayList<>()).add(cell));
        return grouped;
    }

    public static String serverName(int feature, String jvm) {
        return "jdk" + feature + "-" + jvm;
    }

    /** The phase a cell runs, as the main plan would write it. */
    public Plan.Phase phase(Cell cell) {
        return new Plan.Phase(cell.name(), cell.jvm(), cell.mode(), cell.downstream(), "private", ms, concurrency, seconds, null);
    }

    public Duration duration() {
        return Duration.ofMillis((long) (seconds * 1000));
    }

    public Duration baseline() {
        return Duration.ofMillis((long) (baselineSeconds * 1000));
    }

    public Duration drain() {
        return Duration.ofMillis((long) (drainSeconds * 1000));
    }
}
