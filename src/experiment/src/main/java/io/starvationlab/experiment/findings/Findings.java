package io.starvationlab.experiment.findings;

import java.util.ArrayList;
import java.util.List;

import io.starvationlab.experiment.results.JudgedRun;
import io.starvationlab.harness.plan.Plan;

/** Every finding judged on a run's results, in the order the report gives them. */
public final class Findings {

    private Findings() {
    }

    public static List<Finding> of(JudgedRun results, Plan plan) {
        List<Finding> findings = new ArrayList<>(PhaseFindings.evaluate(results.phases(), results.servers(), plan.starved(), plan.untouched()));
        findings.add(PredictionFindings.phases(results.phases(), results.servers(), plan));
        findings.add(QuotaFindings.evaluate(results.quota()));
        findings.add(ColdStartFindings.evaluate(results.coldStarts()));
        findings.add(BlockedThreadFindings.evaluate(results.eventLoopsBlocked(), results.coldStarts()));
        findings.addAll(AlertFindings.evaluate(results.prometheus()));
        findings.addAll(K6Findings.evaluate(results.k6(), results.virtualReach()));
        if (results.matrix() != null) {
            findings.addAll(MatrixFindings.evaluate(results.matrix(), plan.starved()));
            findings.add(PredictionFindings.matrix(results.matrix()));
        }
        return List.copyOf(findings);
    }
}
