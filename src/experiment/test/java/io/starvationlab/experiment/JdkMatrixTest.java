package io.starvationlab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The matrix's predictions, outcomes, findings and README table, on the project's own plan and on a
 * matrix built here: the measured one that agrees with the JDKs' documentation, then broken copies of it.
 */
class JdkMatrixTest {

    static final Plan PLAN = Plan.read(Path.of(System.getProperty("lab.project.dir", "."), "k6", "plan.json"));
    static final MatrixPlan MATRIX = PLAN.matrix();

    @Test
    void predictionsShouldFollowTheJdksDocumentedBehaviour() {
        assertThat(predict(21, "pinned", "sleep", "default")).isEqualTo(Prediction.Outcome.STARVES);
        assertThat(predict(23, "pinned", "sleep", "default")).isEqualTo(Prediction.Outcome.STARVES);
        assertThat(predict(24, "pinned", "sleep", "default")).isEqualTo(Prediction.Outcome.FREE);
        assertThat(predict(25, "pinned", "sleep", "legacy-locking")).isEqualTo(Prediction.Outcome.STARVES);
        assertThat(predict(26, "pinned", "sleep", "legacy-locking")).as("26 ignores the flag").isEqualTo(Prediction.Outcome.FREE);
        assertThat(predict(27, "pinned", "sleep", "legacy-locking")).as("27 does not know it").isEqualTo(Prediction.Outcome.REFUSED);
        assertThat(predict(21, "native", "sleep", "default")).isEqualTo(Prediction.Outcome.UNAVAILABLE);
        assertThat(predict(22, "native", "sleep", "default")).isEqualTo(Prediction.Outcome.STARVES);
        assertThat(predict(21, "pinned", "db", "default")).as("platform pollers on 21").isEqualTo(Prediction.Outcome.STARVES);
        assertThat(predict(26, "native", "db", "default")).as("virtual pollers from 22").isEqualTo(Prediction.Outcome.COLLAPSES);
        assertThat(predict(26, "native", "db", "platform-pollers")).isEqualTo(Prediction.Outcome.STARVES);
        for (int jdk : List.of(21, 25, 26, 27)) {
            assertThat(predict(jdk, "reentrant", "sleep", "default")).isEqualTo(Prediction.Outcome.FREE);
            assertThat(predict(jdk, "cpu", "sleep", "default")).isEqualTo(Prediction.Outcome.STARVES);
            assertThat(predict(jdk, "unpinned", "sleep", "default")).isEqualTo(Prediction.Outcome.FREE);
        }
    }

    @Test
    void theProjectsPlanShouldHoldTheMatrixOfTheImagesJdksAndTheNewest() {
        assertThat(MATRIX.jdks()).contains(21, 25, 26, 27);
        assertThat(MATRIX.cells(false)).extracting(MatrixPlan.Cell::name)
                .contains("pinned", "reentrant", "native", "native-db", "cpu", "pinned-db", "native-db-platform-pollers");
        assertThat(MATRIX.cells(true)).extracting(MatrixPlan.Cell::name).containsExactly("pinned");
        assertThat(MATRIX.jvms().get("legacy-locking").attemptedOn(26)).isTrue();
        assertThat(MATRIX.jvms().get("legacy-locking").appliesTo(21)).as("21's default already").isFalse();
        assertThat(MATRIX.jvms().get("platform-pollers").appliesTo(21)).isFalse();
    }

    @Test
    void outcomeShouldTellACollapseFromStarvation() {
        assertThat(JdkMatrix.outcome(phase("pinned", 37.8, 40, 300, PhaseReport.STARVED))).isEqualTo(Prediction.Outcome.STARVES);
        assertThat(JdkMatrix.outcome(phase("native-db", 0.4, 40, 4000, PhaseReport.STARVED))).isEqualTo(Prediction.Outcome.COLLAPSES);
        assertThat(JdkMatrix.outcome(phase("pinned", 490, 500, 1, PhaseReport.NOT_STARVED))).isEqualTo(Prediction.Outcome.FREE);
    }

    @Test
    void everyMatrixFindingShouldHoldOnAMatrixThatBehavesAsDocumented() {
        MatrixReport good = documented(cells -> cells);
        assertThat(good.findings()).hasSize(5).allSatisfy(finding -> assertThat(finding.holds()).as(finding.claim() + ": " + finding.measured()).isTrue());
    }

    @Test
    void eachMatrixFindingShouldRejectAMatrixThatContradictsIt() {
        assertThat(finding(replace(21, "pinned", phase("pinned", 480, 500, 1, PhaseReport.NOT_STARVED)), 0)).as("21 does not pin").isFalse();
        assertThat(finding(replace(26, "pinned", phase("pinned", 39, 500, 300, PhaseReport.STARVED)), 0)).as("26 pins").isFalse();
        assertThat(finding(replace(27, "reentrant", phase("reentrant", 39, 500, 300, PhaseReport.STARVED)), 1)).as("reentrant starves").isFalse();
        assertThat(finding(replace(26, "pinned-legacy-locking", phase("pinned-legacy-locking", 39, 40, 300, PhaseReport.STARVED)), 2))
                .as("the flag pins on 26").isFalse();
        assertThat(finding(replace(25, "cpu", phase("cpu", 490, 500, 1, PhaseReport.NOT_STARVED)), 3)).as("cpu free on 25").isFalse();
        assertThat(finding(replace(26, "native-db", phase("native-db", 38, 40, 300, PhaseReport.STARVED)), 4)).as("no collapse on 26").isFalse();
        assertThat(finding(replace(21, "pinned-db", phase("pinned-db", 0.3, 40, 4000, PhaseReport.STARVED)), 4)).as("collapse on 21").isFalse();

        MatrixReport silent = documented(cells -> cells);
        List<MatrixReport.Column> columns = new ArrayList<>(silent.columns());
        MatrixReport.Column on26 = columns.get(2);
        columns.set(2, new MatrixReport.Column(26, on26.jdk(), on26.status(), on26.servers(),
                List.of(new MatrixReport.Attempt("legacy-locking", List.of("-XX:LockingMode=1"), true, List.of()))));
        MatrixReport noWarning = new MatrixReport(false, columns, silent.rows(), silent.cells(), List.of(), 0);
        assertThat(MatrixFindings.noFlagBringsPinningBackFrom26(noWarning).holds()).as("no warning captured").isFalse();
    }

    @Test
    void aMissingJdkShouldBeSaidNotPassed() {
        MatrixReport without21 = documented(cells -> cells.stream().filter(cell -> cell.jdk() != 21).toList());
        List<MatrixReport.Column> columns = new ArrayList<>(without21.columns());
        columns.set(0, new MatrixReport.Column(21, null, "skipped: no JDK 21 found", List.of(), List.of()));
        MatrixReport report = new MatrixReport(false, columns, without21.rows(), without21.cells(), List.of(), 0);
        Finding pins = MatrixFindings.jdk21SynchronizedPins(report);
        assertThat(pins.holds()).isNull();
        assertThat(pins.measured()).contains("skipped: no JDK 21 found");
        List<Finding> findings = MatrixFindings.evaluate(report, PLAN.starved());
        assertThat(findings.get(2).holds()).as("JDK 26+ needs no JDK 21").isTrue();
        assertThat(List.of(findings.get(0), findings.get(1), findings.get(3), findings.get(4))).as("judged only on what was measured")
                .allSatisfy(finding -> assertThat(finding.holds()).as(finding.claim()).isNull());
    }

    @Test
    void theReadmeTableShouldComeFromTheRunAndSayWhich(@TempDir Path folder) throws Exception {
        Path readme = folder.resolve("README.md");
        Files.writeString(readme, "before\n" + MatrixText.README_START + "\nold table\n" + MatrixText.README_END + "\nafter\n");
        MatrixReport matrix = documented(cells -> cells);
        assertThat(MatrixText.updateReadme(readme, matrix, "2026-12-01T00:00:00Z")).isTrue();
        String text = Files.readString(readme);
        assertThat(text).startsWith("before\n").endsWith(MatrixText.README_END + "\nafter\n").doesNotContain("old table")
                .contains("full run of 2026-12-01T00:00:00Z", "| `pinned` (pinned / sleep, default) | **starves** (37.8/s) | free (490/s)");
        String svg = MatrixChart.svg(matrix);
        assertThat(svg).startsWith("<svg").contains("JDK 27", "native-db-platform-pollers").doesNotContain("#ff7f0e\" stroke-width=\"4\"");
        String differs = MatrixChart.svg(replace(26, "pinned", phase("pinned", 39, 500, 300, PhaseReport.STARVED)));
        assertThat(differs).contains("#ff7f0e\" stroke-width=\"4\"", "predicted free");
    }

    private static boolean finding(MatrixReport matrix, int index) {
        return matrix.findings().get(index).holds();
    }

    private static MatrixReport replace(int jdk, String name, PhaseReport figures) {
        return documented(cells -> cells.stream().map(cell -> cell.jdk() == jdk && cell.cell().equals(name)
                ? measured(jdk, cell.cell(), cell.mode(), cell.downstream(), cell.jvm(), figures) : cell).toList());
    }

    /** A matrix measured as the JDKs document it, passed through {@code change}, with its findings. */
    static MatrixReport documented(UnaryOperator<List<MatrixReport.Cell>> change) {
        List<MatrixReport.Cell> cells = new ArrayList<>();
        for (int jdk : List.of(21, 25, 26, 27)) {
            cells.add(measured(jdk, "unpinned", "unpinned", "sleep", "default", phase("unpinned", 490, 500, 1, PhaseReport.NOT_STARVED)));
            cells.add(measured(jdk, "pinned", "pinned", "sleep", "default", jdk == 21 ? phase("pinned", 37.8, 40, 300, PhaseReport.STARVED)
                    : phase("pinned", 490, 500, 1, PhaseReport.NOT_STARVED)));
            cells.add(measured(jdk, "reentrant", "reentrant", "sleep", "default", phase("reentrant", 489, 500, 1, PhaseReport.NOT_STARVED)));
            cells.add(jdk == 21 ? new MatrixReport.Cell(21, "native", "native", "sleep", "default", "501", "501", "", true, "measured: 501", null)
                    : measured(jdk, "native", "native", "sleep", "default", phase("native", 39, 40, 400, PhaseReport.STARVED)));
            cells.add(measured(jdk, "cpu", "cpu", "sleep", "default", phase("cpu", 38, 40, 600, PhaseReport.STARVED)));
            if (jdk == 21) {
                cells.add(measured(jdk, "pinned-db", "pinned", "db", "default", phase("pinned-db", 33, 40, 250, PhaseReport.STARVED)));
            } else {
                cells.add(measured(jdk, "native-db", "native", "db", "default", phase("native-db", 0.4, 40, 4000, PhaseReport.STARVED)));
                cells.add(measured(jdk, "native-db-platform-pollers", "native", "db", "platform-pollers",
                        phase("native-db-platform-pollers", 37, 40, 700, PhaseReport.STARVED)));
            }
            if (jdk == 25) {
                cells.add(measured(jdk, "pinned-legacy-locking", "pinned", "sleep", "legacy-locking",
                        phase("pinned-legacy-locking", 39, 40, 450, PhaseReport.STARVED)));
            } else if (jdk == 26) {
                cells.add(measured(jdk, "pinned-legacy-locking", "pinned", "sleep", "legacy-locking",
                        phase("pinned-legacy-locking", 490, 500, 1, PhaseReport.NOT_STARVED)));
            } else if (jdk == 27) {
                cells.add(new MatrixReport.Cell(27, "pinned-legacy-locking", "pinned", "sleep", "legacy-locking", "refused", "refused", "",
                        true, "the JVM refused to start", null));
            }
        }
        List<MatrixReport.Column> columns = List.of(
                new MatrixReport.Column(21, "JDK 21 (21.0.13, Debian)", "measured", List.of(), List.of()),
                new MatrixReport.Column(25, "JDK 25 (25.0.3, Eclipse Adoptium)", "measured", List.of(), List.of()),
                new MatrixReport.Column(26, "JDK 26 (26.0.2, Debian)", "measured", List.of(facts("jdk26-legacy-locking", false)),
                        List.of(new MatrixReport.Attempt("legacy-locking", List.of("-XX:LockingMode=1"), true,
                                List.of("OpenJDK 64-Bit Server VM warning: Ignoring option LockingMode; support was removed in 26.0")))),
                new MatrixReport.Column(27, "JDK 27 (27.0.1, Debian)", "measured", List.of(),
                        List.of(new MatrixReport.Attempt("legacy-locking", List.of("-XX:LockingMode=1"), false,
                                List.of("Unrecognized VM option 'LockingMode=1'")))));
        List<String> rows = MATRIX.cells(false).stream().map(MatrixPlan.Cell::name).toList();
        MatrixReport partial = new MatrixReport(false, columns, rows, change.apply(cells), List.of(), 0);
        return new MatrixReport(false, columns, rows, partial.cells(), MatrixFindings.evaluate(partial, PLAN.starved()), 0);
    }

    private static MatrixReport.Cell measured(int jdk, String name, String mode, String downstream, String jvm, PhaseReport figures) {
        Prediction prediction = Prediction.of(jdk, mode, downstream, MATRIX.jvms().get(jvm));
        Prediction.Outcome outcome = JdkMatrix.outcome(figures);
        return new MatrixReport.Cell(jdk, name, mode, downstream, jvm, outcome.label(), prediction.outcome().label(), prediction.why(),
                outcome == prediction.outcome(), "measured", figures);
    }

    static PhaseReport phase(String name, double throughput, double model, double slowdown, String verdict) {
        PhaseReport.ProbeFigures virtual = new PhaseReport.ProbeFigures(slowdown, slowdown * 2, slowdown * 3, 40, 0);
        return new PhaseReport(name, "default", "pinned", "sleep", "private", 100, 64, 4, throughput, model, model == 40 ? "carriers" : "permits",
                (long) (throughput * 4), 0, Map.of("200", (long) (throughput * 4)), Map.of("virtual", virtual), slowdown, 1, 0, 1, 0, 0, null, null,
                verdict, null, null);
    }

    private static ServerFacts facts(String jvm, boolean pins) {
        return new ServerFacts(jvm, "", "26.0.2", "Debian", 2, 4, 256, null, pins, true, 50, 16, 200, List.of(), 4);
    }

    private static Prediction.Outcome predict(int jdk, String mode, String downstream, String jvm) {
        return Prediction.of(jdk, mode, downstream, MATRIX.jvms().get(jvm)).outcome();
    }
}
