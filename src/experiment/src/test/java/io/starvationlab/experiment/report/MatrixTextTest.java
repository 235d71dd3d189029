package io.starvationlab.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.findings.MatrixFindingsTest;
import io.starvationlab.experiment.results.JudgedMatrix;
import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.harness.Project;

/** The README's matrix table and the matrix picture come from the run, and say where it differs from the prediction. */
class MatrixTextTest {

    /** A published run replaces the generated block of the project's README, and nothing else; a quick run's matrix is not published. */
    @Test
    void theReadmeTableShouldComeFromTheRunAndSayWhich() throws Exception {
        String readme = Files.readString(Project.resolve("README.md"));
        int start = readme.indexOf(MatrixText.README_START);
        int end = readme.indexOf(MatrixText.README_END);
        assertThat(start).isNotNegative().isLessThan(end);
        JudgedMatrix matrix = MatrixFindingsTest.documented(cells -> cells);
        assertThat(MatrixText.readme(readme, new JudgedMatrix(true, matrix.columns(), matrix.rows(), matrix.cells(), 0), "now"))
                .as("a quick run's matrix is not published").isEqualTo(readme);
        String text = MatrixText.readme(readme, matrix, "2026-12-01T00:00:00Z");
        assertThat(text).startsWith(readme.substring(0, start + MatrixText.README_START.length())).endsWith(readme.substring(end))
                .doesNotContain(readme.substring(start + MatrixText.README_START.length(), end))
                .contains("full run of 2026-12-01T00:00:00Z", "| `pinned` (pinned / sleep, default) | **starves** (37.8/s) | free (490/s)");
        String svg = MatrixChart.svg(matrix);
        assertThat(svg).startsWith("<svg").contains("JDK 27", "native-db-platform-pollers").doesNotContain("#ff7f0e\" stroke-width=\"4\"");
        String differs = MatrixChart.svg(MatrixFindingsTest.replace(26, "pinned", MatrixFindingsTest.phase("pinned", 39, 500, 300, JudgedPhase.STARVED)));
        assertThat(differs).contains("#ff7f0e\" stroke-width=\"4\"", "predicted free");
    }
}
