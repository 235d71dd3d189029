package io.starvationlab.experiment.findings;

import java.util.ArrayList;
import java.util.List;

import io.starvationlab.experiment.results.JudgedRun;
import io.starvationlab.model.Plan;

/** Every finding judged on a run's judged figures, in the order the report gives them. */
public final class Findings {

    private Findings() {
    }

    public static List<Finding> of(JudgedRun run, Plan plan) {
        List<Finding> findings = new ArrayList<>(PhaseFindings.evaluate(run, plan));
        findings.add(QuotaFindings.evaluate(run.quota()));
        findings.add(ColdStartFindings.lazyBean(run.coldStarts()));
        findings.add(ColdStartFindings.noneBlocked(run.eventLoopsBlocked(), run.coldStarts()));
        findings.addAll(AlertFindings.evaluate(run.prometheus()));
        findings.addAll(K6Findings.evaluate(run.k6(), run.virtualReach()));
        if (run.matrix() != null) {
            findings.addAll(MatrixFindings.evaluate(run.matrix(), plan.starved()));
        }
        return List.copyOf(findings);
    }
}
