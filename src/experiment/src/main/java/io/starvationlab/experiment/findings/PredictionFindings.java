package io.starvationlab.experiment.findings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.starvationlab.experiment.results.JudgedMatrix;
import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.harness.plan.Plan;
import io.starvationlab.harness.plan.Prediction;

/** Every phase and every matrix cell against what the JDKs' documentation predicts for it ({@link Prediction}). */
final class PredictionFindings {

    static final String PHASES = "phases-as-predicted";
    static final String MATRIX = "matrix-as-predicted";

    private PredictionFindings() {
    }

    /** Each phase of the main run starved exactly where its mode, downstream and server JVM predict it. */
    static Finding phases(List<JudgedPhase> phases, Map<String, MeasuredServer.Info> servers, Plan plan) {
        String claim = "Every phase starves where the JDK's documented behaviour says its mode holds the carriers, and only there";
        String expected = "starved when the prediction for its mode, downstream, JDK and flags is starves or collapses; not starved when free";
        List<String> agree = new ArrayList<>();
        List<String> differ = new ArrayList<>();
        for (JudgedPhase phase : phases) {
            Plan.Jvm jvm = plan.jvms().get(phase.jvm());
            MeasuredServer.Info server = servers.get(phase.jvm());
            if (phase.isBaseline() || jvm == null || server == null) {
                continue;
            }
            Prediction prediction = Prediction.of(server.feature(), phase.mode(), phase.downstream(), jvm.flags(), jvm.properties());
            boolean starved = JudgedPhase.STARVED.equals(phase.verdict());
            (starved == prediction.outcome().starved() ? agree : differ).add(phase.name() + " " + phase.verdict() + " (predicted "
                    + prediction.outcome().label() + ": " + prediction.why() + ")");
        }
        if (agree.isEmpty() && differ.isEmpty()) {
            return Finding.notJudged(PHASES, claim, expected, "no phase measured");
        }
        return new Finding(PHASES, claim, expected, differ.isEmpty() ? agree.size() + " of " + agree.size() + " phases as predicted"
                : differ.size() + " of " + (agree.size() + differ.size()) + " differ: " + String.join("; ", differ), differ.isEmpty());
    }

    /** Each measured cell of the matrix has the outcome its prediction names. */
    static Finding matrix(JudgedMatrix matrix) {
        String claim = "Every cell of the JDK matrix does what the JDK's documented behaviour predicts";
        String expected = "each measured cell's outcome (starves, collapses, free, 501, refused) is its prediction";
        List<JudgedMatrix.Cell> measured = matrix.cells().stream().filter(cell -> cell.agrees() != null).toList();
        List<String> differ = measured.stream().filter(cell -> !cell.agrees())
                .map(cell -> cell.jdk() + " " + cell.cell() + ": " + cell.outcome() + " (predicted " + cell.prediction() + ")").toList();
        if (measured.isEmpty()) {
            return Finding.notJudged(MATRIX, claim, expected, "no cell measured (" + matrix.describeJdks() + ")");
        }
        return new Finding(MATRIX, claim, expected, differ.isEmpty() ? measured.size() + " of " + measured.size() + " cells as predicted"
                : String.join("; ", differ), differ.isEmpty());
    }
}
