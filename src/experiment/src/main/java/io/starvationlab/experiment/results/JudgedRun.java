package io.starvationlab.experiment.results;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import io.starvationlab.experiment.prometheus.MeasuredPrometheus;
import io.starvationlab.experiment.run.Disturbance;
import io.starvationlab.experiment.run.EventLoopsBlocked;
import io.starvationlab.experiment.run.MainRun;
import io.starvationlab.experiment.run.MeasuredColdStart;
import io.starvationlab.experiment.run.MeasuredMainPlan;
import io.starvationlab.experiment.run.MeasuredMatrix;
import io.starvationlab.experiment.run.MeasuredPhase;
import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.harness.load.ProbeSample;
import io.starvationlab.model.Plan;

/**
 * Everything the run measured, judged: each server JVM's {@code /lab/info}, its baseline and phases judged by the
 * plan's rule against the model, what Prometheus saw against the phases, the JDK matrix against its predictions.
 *
 * @param phases   each server JVM's baseline, then its phases, in the order they ran
 * @param notRun   phases only asked once, and why (a mode the JDK cannot run), and server JVMs skipped on this JDK
 * @param matrix   the JDK matrix; null when the plan has none
 * @param quota    the server JVMs inside a CPU quota, and those the plan has but this machine could not run
 * @param virtualReach how the runner's {@code /probe/virtual} came through the event loops, every phase of every server JVM
 * @param k6       the k6 suite beside the runner on the default server JVM, or why it did not run
 * @param eventLoopsBlocked what Vert.x's blocked-thread checker logged of each server JVM of the main plan, by name
 * @param coldStarts the fresh JVMs starved at once, in the order they ran
 * @param remeasured every window, of the main plan and of the matrix, measured again because its own signals called it disturbed
 */
public record JudgedRun(Map<String, MeasuredServer.Info> servers, List<JudgedPhase> phases, List<String> notRun, JudgedPrometheus prometheus,
        JudgedMatrix matrix, JudgedQuota quota, List<ProbeReach> virtualReach, K6Comparison k6, Map<String, EventLoopsBlocked> eventLoopsBlocked,
        List<MeasuredColdStart> coldStarts, List<Disturbance.Remeasured> remeasured) {

    public static JudgedRun of(Plan plan, MeasuredMainPlan main, MeasuredPrometheus prometheus, MeasuredMatrix matrix) {
        Map<String, MeasuredServer.Info> servers = new LinkedHashMap<>();
        Map<String, EventLoopsBlocked> blocked = new LinkedHashMap<>();
        List<JudgedPhase> phases = new ArrayList<>();
        List<String> notRun = new ArrayList<>();
        List<ProbeReach> reach = new ArrayList<>();
        double leastShare = plan.probes().leastEventLoopShare();
        Map<String, Double> whileLoaded = new LinkedHashMap<>();
        Map<String, Double> windows = new LinkedHashMap<>();
        main.skipped().forEach(skipped -> notRun.add(skipped.toString()));
        for (MeasuredServer server : main.servers()) {
            servers.put(server.name(), server.info());
            blocked.put(server.name(), server.eventLoopsBlocked());
            phases.add(JudgedPhase.baseline(server.name(), server.baseline()));
            for (MeasuredPhase phase : server.phases()) {
                if (phase.result() == null) {
                    notRun.add(phase.name() + ": answered " + phase.answer().status() + " " + phase.answer().contentType());
                    continue;
                }
                phases.add(JudgedPhase.of(phase, server, plan.starved()));
                var timeline = phase.result().timeline();
                var samples = timeline == null ? null : timeline.samples().get(UnrelatedWait.PROBE);
                reach.add(ProbeReach.of(phase.name(), server.name(), samples == null ? List.of() : samples, server.info().eventLoops(),
                        leastShare, server.spec().http2()));
                if (MainRun.K6_SERVER.equals(server.name()) && timeline != null) {
                    // k6 counts a probe in the load's window when it was sent while the load ran: the same probes here
                    List<ProbeSample> during = timeline.duringLoad(UnrelatedWait.PROBE, Duration.ZERO);
                    whileLoaded.put(phase.name(), ProbeDistribution.of(during.stream().map(ProbeSample::latencyMillis).toList(),
                            (int) during.stream().filter(sample -> sample.status() != 200).count()).p50Millis());
                    windows.put(phase.name(), Duration.between(phase.start(), phase.loadEnd()).toMillis() / 1000.0);
                }
            }
        }
        K6Comparison k6 = main.k6() == null ? K6Comparison.notRun(main.k6NotRun())
                : K6Comparison.of(main.k6(), phases.stream().filter(p -> MainRun.K6_SERVER.equals(p.jvm())).toList(), whileLoaded, windows, reach,
                        leastShare);
        return new JudgedRun(servers, List.copyOf(phases), List.copyOf(notRun), JudgedPrometheus.of(prometheus),
                matrix == null ? null : JudgedMatrix.of(matrix, plan), JudgedQuota.of(plan, main, phases),
                List.copyOf(reach), k6, blocked, main.coldStarts(), Stream.concat(main.servers().stream(), matrix == null ? Stream.empty()
                        : matrix.columns().stream().flatMap(column -> column.servers().stream())).flatMap(server -> server.remeasured().stream()).toList());
    }

    public Optional<JudgedPhase> phase(String name) {
        return phases.stream().filter(phase -> phase.name().equals(name)).findFirst();
    }
}
