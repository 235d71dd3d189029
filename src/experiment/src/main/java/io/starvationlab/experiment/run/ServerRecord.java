package io.starvationlab.experiment.run;

import java.util.List;

import io.starvationlab.harness.CpuQuota;
import io.starvationlab.harness.load.PhaseResult;

/**
 * One server JVM of the run: what it said of itself, its clean baseline and its phases; or, when it did
 * not start, what the JVM said.
 *
 * @param facts    {@code /lab/info}; null when the JVM did not start
 * @param jvmSays  the JVM's own lines about its flags (a warning, or why it refused to start)
 * @param baseline the probes-only baseline the phases are judged against; null when the JVM did not start
 * @param warmUpThrottling how often its CPU quota ran out during the warm-up; null outside a quota
 * @param eventLoopsBlocked what Vert.x's blocked-thread checker logged of its event loops, from start to its last phase; null when it did not start
 */
public record ServerRecord(ServerRun.Spec spec, ServerFacts facts, List<String> jvmSays, PhaseResult baseline, List<PhaseRecord> phases,
        CpuQuota.Throttling warmUpThrottling, EventLoopsBlocked eventLoopsBlocked) {

    public boolean started() {
        return facts != null;
    }

    public String name() {
        return spec.name();
    }
}
