package io.starvationlab.experiment.findings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.results.JudgedMatrix;
import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.MadeUp;
import io.starvationlab.model.MatrixPlan;
import io.starvationlab.model.Plan;
import io.starvationlab.model.Prediction;

/**
 * The matrix's outcomes and findings, on the project's own plan and on a matrix built here: the measured
 * one that agrees with the JDKs' documentation, then broken copies of it.
 */
public class MatrixFindingsTest {

    public static final Plan PLAN = Plan.ofProject();
    public static final MatrixPlan MATRIX = PLAN.matrix();

    @Test
    void theProjectsPlanShouldHoldTheMatrixOfTheImagesJdksAndTheNewest() {
        assertThat(MATRIX.jdks()).contains(21, 25, 26, 27);
        assertThat(MATRIX.cells(false)).extracting(MatrixPlan.Cell::name)
                .contains("pinned", "reentrant", "native", "native-db", "cpu", "pinned-db", "native-db-platform-pollers");
        assertThat(MATRIX.cells(true)).extracting(MatrixPlan.Cell::name).containsExactly("pinned", "native", "pinned-db");
        assertThat(MATRIX.jvms().get("legacy-locking").attemptedOn(26)).isTrue();
        assertThat(MATRIX.jvms().get("legacy-locking").appliesTo(21)).as("21's default already").isFalse();
        assertThat(MATRIX.jvms().get("platform-pollers").appliesTo(21)).isFalse();
    }

    /** Each cell's outcome (starves, collapses under half the model, free) is its prediction: matrix-as-predicted holds only then. */
    @Test
    void everyMatrixFindingShouldHoldOnAMatrixThatBehavesAsDocumented() {
        JudgedMatrix good = documented(cells -> cells);
        assertThat(MatrixFindings.evaluate(good, PLAN.starved())).hasSize(6).allSatisfy(finding -> assertThat(finding.holds()).as(finding.claim() + ": " + finding.measured()).isTrue());
    }

    @Test
    void eachMatrixFindingShouldRejectAMatrixThatContradictsIt() {
        assertThat(finding(replace(21, "pinned", phase("pinned", 480, 500, 1, JudgedPhase.NOT_STARVED)), 0)).as("21 does not pin").isFalse();
        assertThat(finding(replace(26, "pinned", phase("pinned", 39, 500, 300, JudgedPhase.STARVED)), 0)).as("26 pins").isFalse();
        assertThat(finding(replace(27, "reentrant", phase("reentrant", 39, 500, 300, JudgedPhase.STARVED)), 1)).as("reentrant starves").isFalse();
        assertThat(finding(replace(26, "pinned-legacy-locking", phase("pinned-legacy-locking", 39, 40, 300, JudgedPhase.STARVED)), 2))
                .as("the flag pins on 26").isFalse();
        assertThat(finding(replace(25, "cpu", phase("cpu", 490, 500, 1, JudgedPhase.NOT_STARVED)), 3)).as("cpu free on 25").isFalse();
        assertThat(finding(replace(26, "native-db", phase("native-db", 38, 40, 300, JudgedPhase.STARVED)), 4)).as("no collapse on 26").isFalse();
        assertThat(finding(replace(21, "pinned-db", phase("pinned-db", 0.3, 40, 4000, JudgedPhase.STARVED)), 4)).as("collapse on 21").isFalse();

        JudgedMatrix silent = documented(cells -> cells);
        List<JudgedMatrix.Column> columns = new ArrayList<>(silent.columns());
        JudgedMatrix.Column on26 = columns.get(2);
        columns.set(2, new JudgedMatrix.Column(26, on26.jdk(), on26.status(), on26.servers(),
                List.of(new JudgedMatrix.Attempt("legacy-locking", List.of("-XX:LockingMode=1"), true, List.of()))));
        JudgedMatrix noWarning = new JudgedMatrix(false, columns, silent.rows(), silent.cells(), 0);
        assertThat(MatrixFindings.noFlagBringsPinningBackFrom26(noWarning).holds()).as("no warning captured").isFalse();
    }

    @Test
    void aMissingJdkShouldBeSaidNotPassed() {
        JudgedMatrix without21 = documented(cells -> cells.stream().filter(cell -> cell.jdk() != 21).toList());
        List<JudgedMatrix.Column> columns = new ArrayList<>(without21.columns());
        columns.set(0, new JudgedMatrix.Column(21, null, "skipped: no JDK 21 found", List.of(), List.of()));
        JudgedMatrix report = new JudgedMatrix(false, columns, without21.rows(), without21.cells(), 0);
        Finding pins = MatrixFindings.jdk21SynchronizedPins(report);
        assertThat(pins.holds()).isNull();
        assertThat(pins.measured()).contains("skipped: no JDK 21 found");
        List<Finding> findings = MatrixFindings.evaluate(report, PLAN.starved());
        assertThat(findings.get(2).holds()).as("JDK 26+ needs no JDK 21").isTrue();
        assertThat(List.of(findings.get(0), findings.get(1), findings.get(3), findings.get(4))).as("judged only on what was measured")
                .allSatisfy(finding -> assertThat(finding.holds()).as(finding.claim()).isNull());
    }

    private static boolean finding(JudgedMatrix matrix, int index) {
        return MatrixFindings.evaluate(matrix, PLAN.starved()).get(index).holds();
    }

    /** The documented matrix with one cell's figures replaced. */
    public static JudgedMatrix replace(int jdk, String name, JudgedPhase figures) {
        return documented(cells -> cells.stream().map(cell -> cell.jdk() == jdk && cell.cell().equals(name) ? measured(jdk, name, figures) : cell).toList());
    }

    /** A matrix measured as the JDKs document it, passed through {@code change}, with its findings. */
    public static JudgedMatrix documented(UnaryOperator<List<JudgedMatrix.Cell>> change) {
        List<JudgedMatrix.Cell> cells = new ArrayList<>();
        for (int jdk : List.of(21, 25, 26, 27)) {
            cells.add(measured(jdk, "unpinned", phase("unpinned", 490, 500, 1, JudgedPhase.NOT_STARVED)));
            cells.add(measured(jdk, "pinned", jdk == 21 ? phase("pinned", 37.8, 40, 300, JudgedPhase.STARVED) : phase("pinned", 490, 500, 1, JudgedPhase.NOT_STARVED)));
            cells.add(measured(jdk, "reentrant", phase("reentrant", 489, 500, 1, JudgedPhase.NOT_STARVED)));
            cells.add(jdk == 21 ? new JudgedMatrix.Cell(21, "native", "native", "sleep", "default", "501", "501", "", true, "measured: 501", null)
                    : measured(jdk, "native", phase("native", 39, 40, 400, JudgedPhase.STARVED)));
            cells.add(measured(jdk, "cpu", phase("cpu", 38, 40, 600, JudgedPhase.STARVED)));
            if (jdk == 21) {
                cells.add(measured(jdk, "pinned-db", phase("pinned-db", 33, 40, 250, JudgedPhase.STARVED)));
            } else {
                cells.add(measured(jdk, "native-db", phase("native-db", 0.4, 40, 4000, JudgedPhase.STARVED)));
                cells.add(measured(jdk, "native-db-platform-pollers", phase("native-db-platform-pollers", 37, 40, 700, JudgedPhase.STARVED)));
            }
            // the flag pins on 25, is ignored on 26 and refused on 27
            if (jdk == 27) {
                cells.add(new JudgedMatrix.Cell(27, "pinned-legacy-locking", "pinned", "sleep", "legacy-locking", "refused", "refused", "",
                        true, "the JVM refused to start", null));
            } else if (jdk >= 25) {
                cells.add(measured(jdk, "pinned-legacy-locking", jdk == 25
                        ? phase("pinned-legacy-locking", 39, 40, 450, JudgedPhase.STARVED) : phase("pinned-legacy-locking", 490, 500, 1, JudgedPhase.NOT_STARVED)));
            }
        }
        List<JudgedMatrix.Column> columns = List.of(
                new JudgedMatrix.Column(21, "JDK 21 (21.0.13, Debian)", "measured", List.of(), List.of()),
                new JudgedMatrix.Column(25, "JDK 25 (25.0.3, Eclipse Adoptium)", "measured", List.of(), List.of()),
                new JudgedMatrix.Column(26, "JDK 26 (26.0.2, Debian)", "measured", List.of(MadeUp.info("jdk26-legacy-locking", 2, 4, false, null)),
                        List.of(new JudgedMatrix.Attempt("legacy-locking", List.of("-XX:LockingMode=1"), true,
                                List.of("OpenJDK 64-Bit Server VM warning: Ignoring option LockingMode; support was removed in 26.0")))),
                new JudgedMatrix.Column(27, "JDK 27 (27.0.1, Debian)", "measured", List.of(),
                        List.of(new JudgedMatrix.Attempt("legacy-locking", List.of("-XX:LockingMode=1"), false,
                                List.of("Unrecognized VM option 'LockingMode=1'")))));
        List<String> rows = MATRIX.cells(false).stream().map(MatrixPlan.Cell::name).toList();
        return new JudgedMatrix(false, columns, rows, change.apply(cells), 0);
    }

    /** The plan's cell {@code name} measured on {@code jdk} at {@code figures}, beside its prediction. */
    private static JudgedMatrix.Cell measured(int jdk, String name, JudgedPhase figures) {
        MatrixPlan.Cell cell = MATRIX.cells(false).stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
        MatrixPlan.MatrixJvm server = MATRIX.jvms().get(cell.jvm());
        Prediction prediction = Prediction.of(jdk, cell.mode(), cell.downstream(), server.flags(), server.properties());
        Prediction.Outcome outcome = JudgedMatrix.outcome(figures);
        return new JudgedMatrix.Cell(jdk, name, cell.mode(), cell.downstream(), cell.jvm(), outcome.label(), prediction.outcome().label(),
                prediction.why(), outcome == prediction.outcome(), "measured", figures);
    }

    /** A pinned cell at {@code throughput} against its {@code model} (carriers at 40/s), {@code /probe/virtual} {@code slowdown} times its baseline. */
    public static JudgedPhase phase(String name, double throughput, double model, double slowdown, String verdict) {
        return MadeUp.phase(name, "pinned", model == 40 ? "carriers" : "permits", throughput, model, slowdown, verdict);
    }
}
