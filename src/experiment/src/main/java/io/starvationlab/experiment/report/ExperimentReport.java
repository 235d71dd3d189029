package io.starvationlab.experiment.report;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

import io.starvationlab.experiment.findings.Finding;
import io.starvationlab.experiment.results.JudgedRun;
import io.starvationlab.experiment.run.Environment;
import io.starvationlab.experiment.run.MeasuredTime;

/**
 * The whole run as a reader gets it: where it ran, everything it measured as judged ({@code run}: the server JVMs,
 * every phase, what Prometheus saw, the quota, k6, the cold starts, the cross-JDK matrix), the findings, and the run's own time ({@code time}: where it went).
 * Written by {@link ReportFiles} as {@code report.json} (stable field names), {@code report.md} and the pictures.
 */
public record ExperimentReport(String startedAt, boolean quick, Environment environment, String verdictRule, @JsonUnwrapped JudgedRun run,
        List<Finding> findings, MeasuredTime time) {

    /** The finding of that id; there is one of each in every run, judged or not. */
    public Finding finding(String id) {
        return findings.stream().filter(finding -> finding.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no finding " + id));
    }
}
