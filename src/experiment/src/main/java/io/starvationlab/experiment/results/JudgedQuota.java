package io.starvationlab.experiment.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.starvationlab.experiment.run.MeasuredMainPlan;
import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.harness.CpuQuota;
import io.starvationlab.model.Plan;

/**
 * The server JVMs the run started inside a CPU quota, as a container's CPU limit starts them: what each saw
 * of its quota and chose from it, and its phases beside the quota's model. Field names are stable
 * ({@code report.json}).
 *
 * @param unavailable       why no quota can be set here, when the plan has server JVMs inside one; otherwise null
 * @param skipped           the quota's server JVMs and phases not run here, and why
 * @param machineProcessors the machine's processors: a quota of as many limits nothing the JVM would not take anyway
 */
public record JudgedQuota(String unavailable, List<String> skipped, int machineProcessors, List<Server> servers) {

    /**
     * One server JVM inside a quota.
     *
     * @param cpus             the quota the run set, in CPUs
     * @param info             what it said in {@code /lab/info}: the quota it read from its group's files, its processors,
     *                         carriers and collector (in {@code report.json}: {@code servers}, by {@code jvm})
     * @param belowMachine     whether the quota is below the machine's processors: only then does HotSpot report a container,
     *                         and only then are its carriers fewer than it would take without the quota
     * @param warmUpThrottling how often the quota ran out during the warm-up
     */
    public record Server(String jvm, double cpus, @JsonIgnore MeasuredServer.Info info, boolean belowMachine, CpuQuota.Throttling warmUpThrottling,
            List<Phase> phases) {

        /** The carriers the quota gives: its CPUs, a fraction rounded up, as the JVM rounds it. */
        public int expectedCarriers() {
            return (int) Math.ceil(cpus);
        }
    }

    /**
     * One phase inside a quota beside the quota's model (its figures are those of {@link JudgedRun#phases()}, by name).
     *
     * @param carrierBound   whether its load holds the carriers while it waits and uses next to no CPU (native, or pinned
     *                       where synchronized pins): its throughput is the quota's carriers ÷ ms
     * @param modelPerSecond the quota's carriers ÷ ms
     * @param throttling     how often the quota ran out during the phase (load and drain)
     */
    public record Phase(@JsonIgnore JudgedPhase figures, boolean carrierBound, double modelPerSecond, CpuQuota.Throttling throttling) {

        @JsonProperty
        public String name() {
            return figures.name();
        }

        public double throughputToModel() {
            return modelPerSecond == 0 ? Double.NaN : figures.throughputPerSecond() / modelPerSecond;
        }
    }

    /** The quota servers of {@code main}, their phases taken from {@code phases} (the run's, by name). */
    static JudgedQuota of(Plan plan, MeasuredMainPlan main, List<JudgedPhase> phases) {
        int machineProcessors = main.machineProcessors();
        Map<String, JudgedPhase> byName = phases.stream().collect(Collectors.toMap(JudgedPhase::name, Function.identity(), (a, b) -> a));
        List<Server> servers = new ArrayList<>();
        for (MeasuredServer server : main.servers()) {
            if (server.spec().cpuQuota() == null) {
                continue;
            }
            double cpus = server.spec().cpuQuota();
            List<Phase> own = server.phases().stream().filter(record -> byName.containsKey(record.name()))
                    .map(record -> phase(byName.get(record.name()), cpus, record.throttling())).toList();
            servers.add(new Server(server.name(), cpus, server.info(), cpus < machineProcessors, server.warmUpThrottling(), own));
        }
        List<String> skipped = main.skipped().stream().filter(skip -> plan.jvms().get(skip.jvm()).cpuQuota() != null)
                .map(MeasuredMainPlan.Skipped::toString).toList();
        return new JudgedQuota(main.cpuQuotaUnavailable(), skipped, machineProcessors, List.copyOf(servers));
    }

    static Phase phase(JudgedPhase figures, double cpus, CpuQuota.Throttling throttling) {
        return new Phase(figures, "carriers".equals(figures.modelBasis()) && !"cpu".equals(figures.mode()),
                Math.ceil(cpus) * 1000.0 / Math.max(figures.ms(), 1), throttling);
    }

    /** Whether the plan ran or meant to run any server JVM inside a quota. */
    public boolean planned() {
        return unavailable != null || !skipped.isEmpty() || !servers.isEmpty();
    }
}
