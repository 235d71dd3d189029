package io.starvationlab.experiment.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.starvationlab.experiment.plan.Plan;
import io.starvationlab.experiment.prometheus.PrometheusRecord;
import io.starvationlab.experiment.run.ColdStartRecord;
import io.starvationlab.experiment.run.EventLoopsBlocked;
import io.starvationlab.experiment.run.MainRun;
import io.starvationlab.experiment.run.MatrixRun;
import io.starvationlab.experiment.run.PhaseRecord;
import io.starvationlab.experiment.run.ServerFacts;
import io.starvationlab.experiment.run.ServerRecord;

/**
 * Everything the run measured, as figures: each server JVM's facts, its baseline and phases judged by
 * the plan's rule against the model, what Prometheus saw, and the JDK matrix.
 *
 * @param phases   each server JVM's baseline, then its phases, in the order they ran
 * @param notRun   phases only asked once, and why (a mode the JDK cannot run), and server JVMs skipped on this JDK
 * @param matrix   the JDK matrix; null when the plan has none
 * @param quota    the server JVMs inside a CPU quota, and those the plan has but this machine could not run
 * @param eventLoopsBlocked what Vert.x's blocked-thread checker logged of each server JVM of the main plan, by name
 * @param coldStarts the fresh JVMs starved at once, in the order they ran
 */
public record RunResults(Map<String, ServerFacts> servers, List<PhaseReport> phases, List<String> notRun, PrometheusReport prometheus,
        MatrixReport matrix, QuotaReport quota, Map<String, EventLoopsBlocked> eventLoopsBlocked, List<ColdStartRecord> coldStarts) {

    public static RunResults of(Plan plan, MainRun.Record main, PrometheusRecord prometheus, MatrixRun.Record matrix) {
        Map<String, ServerFacts> servers = new LinkedHashMap<>();
        Map<String, EventLoopsBlocked> blocked = new LinkedHashMap<>();
        List<PhaseReport> phases = new ArrayList<>();
        List<String> notRun = new ArrayList<>();
        main.skipped().forEach(skipped -> notRun.add(skipped.toString()));
        for (ServerRecord server : main.servers()) {
            servers.put(server.name(), server.facts());
            blocked.put(server.name(), server.eventLoopsBlocked());
            phases.add(PhaseReport.baseline(server.name(), server.baseline()));
            for (PhaseRecord phase : server.phases()) {
                if (phase.result() == null) {
                    notRun.add(phase.name() + ": answered " + phase.answer().status() + " " + phase.answer().contentType());
                } else {
                    phases.add(PhaseReport.of(phase, server.facts(), server.baseline(), plan.starved()));
                }
            }
        }
        return new RunResults(servers, List.copyOf(phases), List.copyOf(notRun), PrometheusReport.of(prometheus),
                matrix == null ? null : MatrixReport.of(matrix, plan), QuotaReport.of(plan, main, phases, Runtime.getRuntime().availableProcessors()),
                blocked, main.coldStarts());
    }

    public Optional<PhaseReport> phase(String name) {
        return phases.stream().filter(phase -> phase.name().equals(name)).findFirst();
    }
}
