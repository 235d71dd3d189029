package io.starvationlab.experiment.run;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.harness.plan.Plan;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.load.PhaseRunner;

/**
 * What each phase of a server JVM will run ({@link PhaseKind#warmUp}), briefly and one after the other,
 * so that no phase times the JIT compiling it; with a carrier always left free, so that the warm-up
 * starves nothing and raises no alert. Inside a CPU quota the JIT compiles on the quota's CPUs, the
 * carriers' own: there each path runs longer, at one client per carrier, each holding its carrier for
 * 20 ms at a time, so nothing waits long enough to look starved.
 */
final class WarmUp {

    private static final Duration EACH = Duration.ofMillis(500);
    private static final Duration EACH_IN_A_QUOTA = Duration.ofSeconds(2);
    private static final Duration ABANDON_AFTER = Duration.ofSeconds(15);

    private WarmUp() {
    }

    static void run(PhaseRunner runner, List<Plan.Phase> phases, ServerFacts facts, boolean inCpuQuota) {
        Set<String> paths = new LinkedHashSet<>();
        phases.forEach(phase -> PhaseKind.of(phase, facts).warmUp(phase).ifPresent(paths::add));
        int clients = inCpuQuota ? facts.carriers() : LabServer.CARRIERS - 1;
        for (String path : paths) {
            try (ClosedLoad load = runner.load(path, clients)) {
                LabServer.sleep(inCpuQuota ? EACH_IN_A_QUOTA : EACH);
                load.stop(ABANDON_AFTER);
            }
        }
    }
}
