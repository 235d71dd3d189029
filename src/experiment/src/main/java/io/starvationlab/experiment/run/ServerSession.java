package io.starvationlab.experiment.run;

import java.time.Duration;
import io.starvationlab.harness.load.PhaseRunner;

/** A started server JVM as a phase kind sees it: the server, the runner of its phases, what it said of itself, and the run's drain. */
public record ServerSession(ServerRun.Spec spec, PhaseRunner runner, ServerFacts facts, Duration drain) {
}
