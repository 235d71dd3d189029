package io.starvationlab.experiment.run;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.starvationlab.experiment.load.ClosedLoad;
import io.starvationlab.experiment.plan.Plan;
import io.starvationlab.experiment.server.LabServer;

/**
 * What each phase of a server JVM will run ({@link PhaseKind#warmUp}), briefly and one after the other,
 * so that no phase times the JIT compiling it; with a carrier always left free, so that the warm-up
 * starves nothing and raises no alert.
 */
final class WarmUp {

    private static final Duration EACH = Duration.ofMillis(500);
    private static final Duration ABANDON_AFTER = Duration.ofSeconds(15);

    private WarmUp() {
    }

    static void run(PhaseRunner runner, List<Plan.Phase> phases, ServerFacts facts) {
        Set<String> paths = new LinkedHashSet<>();
        phases.forEach(phase -> PhaseKind.of(phase, facts).warmUp(phase).ifPresent(paths::add));
        for (String path : paths) {
            try (ClosedLoad load = runner.load(path, LabServer.CARRIERS - 1)) {
                LabServer.sleep(EACH);
                load.stop(ABANDON_AFTER);
            }
        }
    }
}
