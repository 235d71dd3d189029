package io.starvationlab.experiment.run;

import java.time.Duration;
import java.time.Instant;

import io.starvationlab.harness.plan.Plan;
import io.starvationlab.harness.load.PhaseResult;

/** The plan's phase as it stands: {@code concurrency} clients in a closed loop on the work, the probes throughout. */
final class ClosedLoopPhase implements PhaseKind {

    @Override
    public boolean takes(Plan.Phase phase, ServerFacts facts) {
        return true;
    }

    @Override
    public PhaseRecord measure(ServerSession session, Plan.Phase phase, Duration duration) {
        Instant start = Instant.now();
        PhaseResult result = session.runner().run(phase.name(), phase.workPath(), phase.concurrency(), duration, session.drain());
        return new PhaseRecord(phase, session.spec().name(), result, null, start, start.plus(duration), Instant.now());
    }
}
