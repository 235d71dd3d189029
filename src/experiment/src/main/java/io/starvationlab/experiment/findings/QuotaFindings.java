package io.starvationlab.experiment.findings;

import java.util.Locale;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.JudgedQuota;
import io.starvationlab.experiment.run.ServerRun;
import io.starvationlab.harness.CpuQuota;

/** The finding on the server JVMs inside a CPU quota: the quota sets the carriers, and carrier-bound work runs at quota ÷ wait. */
final class QuotaFindings {

    /** How far from quota ÷ wait carrier-bound throughput may be. */
    static final double TOLERANCE = 0.10;
    static final Claim CARRIERS = new Claim("container-cpu-limit-sets-carriers", "The container's CPU limit sets the carriers: inside a CPU quota,"
            + " with no -XX:ActiveProcessorCount, the JVM runs one carrier per CPU of the quota, and carrier-bound work runs at quota ÷ wait",
            "at each quota: /lab/info reads the quota set, processors = carriers = its CPUs, and the carrier-bound phase (native, or pinned where"
                    + " synchronized pins) within ±" + Math.round(TOLERANCE * 100) + " % of carriers ÷ ms");

    private QuotaFindings() {
    }

    static Finding evaluate(JudgedQuota quota) {
        if (quota == null || !quota.planned()) {
            return CARRIERS.notJudged("no server JVM inside a CPU quota in this run");
        }
        if (quota.unavailable() != null) {
            return CARRIERS.notJudged("not measured: no CPU quota can be set here: " + quota.unavailable());
        }
        if (quota.servers().isEmpty()) {
            return CARRIERS.notJudged("not measured in this run" + (quota.skipped().isEmpty() ? ""
                    : ": " + String.join("; ", quota.skipped())));
        }
        Tally tally = new Tally();
        long carrierBound = 0;
        for (JudgedQuota.Server server : quota.servers()) {
            tally.expect(seesTheQuota(server) && server.info().carriers() == server.expectedCarriers()
                    && server.info().availableProcessors() == server.expectedCarriers());
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s: quota %s / %s us, %d processors, %d carriers (%s)%s",
                    server.jvm(), server.info().container().cpuQuotaMicros(), server.info().container().cpuPeriodMicros(),
                    server.info().availableProcessors(), server.info().carriers(), server.info().container().garbageCollector(), server.belowMachine() ? ""
                            : ", the machine's " + quota.machineProcessors() + " processors: no limit HotSpot reports, nor a carrier count it sets"));
            for (JudgedQuota.Phase phase : server.phases().stream().filter(JudgedQuota.Phase::carrierBound).toList()) {
                carrierBound++;
                tally.expect(Math.abs(phase.throughputToModel() - 1) <= TOLERANCE);
                line.append(String.format(Locale.ROOT, "; %s %s vs %s (%+.1f %%)", phase.name(), Figures.perSecond(phase.figures().throughputPerSecond()),
                        Figures.perSecond(phase.modelPerSecond()), 100 * (phase.throughputToModel() - 1)))
                        .append(phase.throttling() == null ? "" : ", throttled in " + ServerRun.throttled(phase.throttling()));
            }
            tally.add(line.toString());
        }
        if (!quota.skipped().isEmpty()) {
            tally.add("not run: " + String.join("; ", quota.skipped()));
        }
        // carriers that are not the quota's fail it on their own; the throughput needs a carrier-bound phase
        tally.need(carrierBound > 0);
        return tally.judged(CARRIERS, "; ");
    }

    /** What /lab/info read from the group's files is the quota the run set. */
    private static boolean seesTheQuota(JudgedQuota.Server server) {
        Long quota = server.info().container().cpuQuotaMicros();
        Long period = server.info().container().cpuPeriodMicros();
        return quota != null && period != null && period == CpuQuota.PERIOD_MICROS && quota == Math.round(server.cpus() * CpuQuota.PERIOD_MICROS);
    }
}
