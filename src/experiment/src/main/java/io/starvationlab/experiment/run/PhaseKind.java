package io.starvationlab.experiment.run;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.starvationlab.harness.plan.Plan;

/**
 * How a phase of the plan is measured on a running server JVM, after its warm-up and baseline. The
 * run loop ({@link ServerRun}) hands each phase to the first kind of {@link #KINDS} that takes it; a new
 * kind is a class here and a line in {@link #KINDS}.
 */
public interface PhaseKind {

    /** In the order they are asked: the first that takes a phase measures it. */
    List<PhaseKind> KINDS = List.of(new UnavailableModePhase(), new ClosedLoopPhase());

    /** Whether this kind measures {@code phase} on a server JVM that said {@code facts} of itself. */
    boolean takes(Plan.Phase phase, ServerFacts facts);

    /** The request that warms up what {@code phase} runs, so that it does not time the JIT; none when there is nothing to warm. */
    default Optional<String> warmUp(Plan.Phase phase) {
        return Optional.of("/work/" + phase.mode() + "?ms=20&downstream=" + phase.downstream());
    }

    /** Measures {@code phase} for {@code duration}, then drains. */
    PhaseRecord measure(ServerSession session, Plan.Phase phase, Duration duration);

    static PhaseKind of(Plan.Phase phase, ServerFacts facts) {
        return KINDS.stream().filter(kind -> kind.takes(phase, facts)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no kind of phase takes " + phase));
    }
}
