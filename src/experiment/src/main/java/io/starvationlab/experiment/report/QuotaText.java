package io.starvationlab.experiment.report;

import java.util.Locale;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.QueueModel;
import io.starvationlab.experiment.results.QuotaReport;
import io.starvationlab.experiment.run.ServerRun;
import io.starvationlab.harness.CpuQuota;

/** The report's section on the server JVMs inside a CPU quota: what each saw and chose, and its phases against their models. */
final class QuotaText {

    private QuotaText() {
    }

    static String markdown(QuotaReport quota) {
        if (quota == null || !quota.planned()) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n## Inside a CPU quota\n\n");
        if (quota.unavailable() != null) {
            md.append("Not measured: no CPU quota can be set here (").append(quota.unavailable())
                    .append("). The phases of the plan's server JVMs inside one were skipped; with `CI=true` the run fails instead.\n");
            return md.toString();
        }
        md.append("Each server JVM here ran inside a cgroup with a CPU quota (period ").append(CpuQuota.PERIOD_MICROS / 1000)
                .append(" ms), as a container's CPU limit runs it, with no `-XX:ActiveProcessorCount`: the JVM takes its processors, and with")
                .append(" them its carriers, from the quota. Its warm-up ran each path at one client per carrier for longer than elsewhere,")
                .append(" because inside the quota the JIT compiles on the carriers' own CPUs.\n\n");
        quota.skipped().forEach(line -> md.append("- Not run: ").append(line).append('\n'));
        if (!quota.skipped().isEmpty()) {
            md.append('\n');
        }
        if (quota.servers().isEmpty()) {
            return md.append("No server JVM inside a quota ran.\n").toString();
        }
        md.append("| server JVM | quota | /lab/info quota / period µs | cgroup | effective CPUs | processors | carriers | GC | warm-up throttled |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (QuotaReport.Server server : quota.servers()) {
            md.append("| ").append(server.jvm()).append(" | ").append(cpus(server.cpus())).append(" | ")
                    .append(server.cpuQuotaMicros()).append(" / ").append(server.cpuPeriodMicros()).append(" | ").append(server.cgroupVersion())
                    .append(" | ").append(server.effectiveCpuCount()).append(" | ").append(server.availableProcessors()).append(" | ")
                    .append(server.carriers()).append(" | ").append(server.garbageCollector()).append(" | ")
                    .append(throttled(server.warmUpThrottling())).append(" |\n");
        }
        quota.servers().stream().filter(server -> !server.belowMachine()).forEach(server -> md.append(String.format(Locale.ROOT,
                "\n%s: a quota of %s on this machine's %d processors limits nothing the JVM would not take anyway. HotSpot reports"
                        + " no container then (`java -XshowSettings:system`: \"System not containerized\") and takes the machine's count, so"
                        + " its phases check the carrier model at %d carriers, not that the quota set them; the quota below the machine's does.\n",
                server.jvm(), cpus(server.cpus()), quota.machineProcessors(), server.carriers())));
        md.append("\n| phase | mode | ms x concurrency | req/s | model: carriers ÷ ms | measured / model | throttled | /probe/virtual p50 / p99 ms |")
                .append(" queue model ms | worker / event-loop / health p99 ms | verdict |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (QuotaReport.Server server : quota.servers()) {
            for (QuotaReport.Phase phase : server.phases()) {
                md.append("| ").append(phase.name()).append(" | ").append(phase.mode()).append(phase.carrierBound() ? " (carrier-bound)" : "")
                        .append(" | ").append(phase.ms()).append(" x ").append(phase.concurrency()).append(" | ")
                        .append(Figures.fixed(phase.throughputPerSecond())).append(" | ").append(Figures.fixed(phase.modelPerSecond()))
                        .append(" | ").append(Figures.ratio(phase.throughputToModel())).append(" | ").append(throttled(phase.throttling()))
                        .append(" | ").append(Figures.fixed(phase.virtualP50Millis())).append(" / ").append(Figures.fixed(phase.virtualP99Millis()))
                        .append(" | ").append(Figures.fixed(phase.virtualModelMillis())).append(" | ").append(Figures.fixed(phase.workerP99Millis()))
                        .append(" / ").append(Figures.fixed(phase.eventLoopP99Millis())).append(" / ").append(Figures.fixed(phase.healthP99Millis()))
                        .append(" | ").append(phase.verdict()).append(" |\n");
            }
        }
        md.append("\nThe models. A carrier-bound load (`native`; `pinned` where synchronized pins) holds a carrier through each")
                .append(" request's wait and uses next to no CPU, so the carriers bound it, not the CPUs: carriers ÷ ms, the finding's")
                .append(" model. `cpu` spins for its ms by the wall clock, so it too runs at most carriers ÷ ms;")
                .append(" but each spinning carrier uses a CPU, together the whole quota, and the rest of the JVM (event loops, probes, the")
                .append(" collector, the compiler) takes its CPU from the same quota: where the two pass it, the group is throttled until the")
                .append(" next period, and a request ends late by what the rest took. `/probe/virtual` waits for a carrier behind the load,")
                .append(" in the queue model: ").append(QueueModel.formula()).append(" (per event loop in the section on the unrelated")
                .append(" request's wait); the other probes wait for no carrier, only for the CPU the quota leaves them.\n");
        return md.toString();
    }

    /** "1 CPU", "2 CPUs", "1.5 CPUs". */
    static String cpus(double cpus) {
        return ServerRun.cpus(cpus) + (cpus == 1 ? " CPU" : " CPUs");
    }

    /** "3 of 80 periods (41 ms)", or "-" outside a quota. */
    private static String throttled(CpuQuota.Throttling throttling) {
        return throttling == null ? "-" : String.format(Locale.ROOT, "%d of %d periods (%.0f ms)", throttling.throttledPeriods(),
                throttling.periods(), throttling.throttledMillis());
    }
}
