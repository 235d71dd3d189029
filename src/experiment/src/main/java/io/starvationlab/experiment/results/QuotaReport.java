package io.starvationlab.experiment.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.starvationlab.harness.plan.Plan;
import io.starvationlab.experiment.run.MainRun;
import io.starvationlab.experiment.run.PhaseRecord;
import io.starvationlab.experiment.run.ServerFacts;
import io.starvationlab.experiment.run.ServerRecord;
import io.starvationlab.harness.CpuQuota;

/**
 * The server JVMs the run started inside a CPU quota, as a container's CPU limit starts them: what each saw
 * of its quota and chose from it, and its phases beside their models. Field names are stable
 * ({@code report.json}).
 *
 * @param unavailable       why no quota can be set here, when the plan has server JVMs inside one; otherwise null
 * @param skipped           the quota's server JVMs and phases not run here, and why
 * @param machineProcessors the machine's processors: a quota of as many limits nothing the JVM would not take anyway
 */
public record QuotaReport(String unavailable, List<String> skipped, int machineProcessors, List<Server> servers) {

    /**
     * One server JVM inside a quota.
     *
     * @param cpus             the quota the run set, in CPUs
     * @param cpuQuotaMicros   the quota as {@code /lab/info} read it from the group's files, per {@code cpuPeriodMicros}
     * @param belowMachine     whether the quota is below the machine's processors: only then does HotSpot report a container,
     *                         and only then are its carriers fewer than it would take without the quota
     * @param warmUpThrottling how often the quota ran out during the warm-up
     */
    public record Server(String jvm, double cpus, String cgroupVersion, Long cpuQuotaMicros, Long cpuPeriodMicros, int effectiveCpuCount,
            int availableProcessors, int carriers, String garbageCollector, boolean belowMachine, CpuQuota.Throttling warmUpThrottling,
            List<Phase> phases) {

        /** The carriers the quota gives: its CPUs, a fraction rounded up, as the JVM rounds it. */
        public int expectedCarriers() {
            return (int) Math.ceil(cpus);
        }
    }

    /**
     * One phase inside a quota, its figures beside the models (the whole phase is in {@link RunResults#phases()}).
     *
     * @param carrierBound       whether its load holds the carriers while it waits and uses next to no CPU (native, or pinned
     *                           where synchronized pins): its throughput is the quota's carriers ÷ ms
     * @param modelPerSecond     the quota's carriers ÷ ms
     * @param throttling         how often the quota ran out during the phase (load and drain)
     * @param virtualModelMillis the queue model's wait for {@code /probe/virtual} at the measured throughput; NaN where there is none
     */
    public record Phase(String name, String mode, int ms, int concurrency, boolean carrierBound, double throughputPerSecond,
            double modelPerSecond, CpuQuota.Throttling throttling, double virtualP50Millis, double virtualP99Millis, double virtualModelMillis,
            double workerP99Millis, double eventLoopP99Millis, double healthP99Millis, String verdict) {

        public double throughputToModel() {
            return modelPerSecond == 0 ? Double.NaN : throughputPerSecond / modelPerSecond;
        }

        /** The share of the phase's periods in which the quota ran out. */
        public double throttledShare() {
            return throttling == null || throttling.periods() == 0 ? Double.NaN : throttling.throttledPeriods() / (double) throttling.periods();
        }
    }

    /** The quota servers of {@code main}, their phases taken from {@code phases} (the run's reports, by name). */
    static QuotaReport of(Plan plan, MainRun.Record main, List<PhaseReport> phases, int machineProcessors) {
        Map<String, PhaseReport> byName = phases.stream().collect(Collectors.toMap(PhaseReport::name, Function.identity(), (a, b) -> a));
        List<Server> servers = new ArrayList<>();
        for (ServerRecord server : main.servers()) {
            if (server.spec().cpuQuota() == null) {
                continue;
            }
            double cpus = server.spec().cpuQuota();
            List<Phase> own = new ArrayList<>();
            for (PhaseRecord record : server.phases()) {
                PhaseReport report = byName.get(record.name());
                if (report != null) {
                    own.add(phase(report, cpus, record.throttling()));
                }
            }
            ServerFacts facts = server.facts();
            ServerFacts.Container container = facts.container();
            servers.add(new Server(server.name(), cpus, container.cgroupVersion(), container.cpuQuotaMicros(), container.cpuPeriodMicros(),
                    container.effectiveCpuCount(), facts.availableProcessors(), facts.carriers(), container.garbageCollector(),
                    cpus < machineProcessors, server.warmUpThrottling(), List.copyOf(own)));
        }
        List<String> skipped = main.skipped().stream().filter(skip -> plan.jvms().get(skip.jvm()).cpuQuota() != null)
                .map(MainRun.Skipped::toString).toList();
        return new QuotaReport(main.cpuQuotaUnavailable(), skipped, machineProcessors, List.copyOf(servers));
    }

    static Phase phase(PhaseReport report, double cpus, CpuQuota.Throttling throttling) {
        boolean carrierBound = "carriers".equals(report.modelBasis()) && !"cpu".equals(report.mode());
        double model = Math.ceil(cpus) * 1000.0 / Math.max(report.ms(), 1);
        return new Phase(report.name(), report.mode(), report.ms(), report.concurrency(), carrierBound, report.throughputPerSecond(), model,
                throttling, report.probes().get(UnrelatedWait.PROBE).p50Millis(), report.probes().get(UnrelatedWait.PROBE).p99Millis(),
                report.unrelatedWait() == null ? Double.NaN : report.unrelatedWait().modelMillis(), p99(report, "worker"),
                p99(report, "event-loop"), p99(report, "health-live"), report.verdict());
    }

    private static double p99(PhaseReport report, String probe) {
        PhaseReport.ProbeFigures figures = report.probes().get(probe);
        return figures == null ? Double.NaN : figures.p99Millis();
    }

    /** Whether the plan ran or meant to run any server JVM inside a quota. */
    public boolean planned() {
        return unavailable != null || !skipped.isEmpty() || !servers.isEmpty();
    }
}
