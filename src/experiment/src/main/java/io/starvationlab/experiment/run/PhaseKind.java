package io.starvationlab.experiment.run;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

import io.starvationlab.harness.load.PhaseResult;
import io.starvationlab.harness.load.PhaseRunner;
import io.starvationlab.harness.plan.Plan;

/**
 * How a phase of the plan is measured on a running server JVM, after its warm-up and baseline. The run
 * loop ({@link ServerRun}) hands each phase to the first kind that takes it; a new kind is a constant
 * here, before the kinds it overrides.
 */
public enum PhaseKind {

    /** A mode the server JVM says it cannot run ({@code native} without FFM): one request, whose answer is the measurement. */
    UNAVAILABLE_MODE {
        @Override
        boolean takes(Plan.Phase phase, MeasuredServer.Info info) {
            return "native".equals(phase.mode()) && !info.nativePinAvailable();
        }

        @Override
        Optional<String> warmUp(Plan.Phase phase) {
            return Optional.empty();
        }

        @Override
        MeasuredPhase measure(PhaseRunner runner, String server, Plan.Phase phase, Duration duration, Duration drain) {
            Instant start = Instant.now();
            HttpResponse<String> answer = runner.lab().get(phase.workPath());
            Instant end = Instant.now();
            return new MeasuredPhase(phase, server, null, new MeasuredPhase.Answer(answer.statusCode(),
                    answer.headers().firstValue("Content-Type").orElse("")), start, end, end, null);
        }
    },

    /** The plan's phase as it stands: {@code concurrency} clients in a closed loop on the work, the probes throughout. */
    CLOSED_LOOP {
        @Override
        boolean takes(Plan.Phase phase, MeasuredServer.Info info) {
            return true;
        }

        @Override
        MeasuredPhase measure(PhaseRunner runner, String server, Plan.Phase phase, Duration duration, Duration drain) {
            Instant start = Instant.now();
            PhaseResult result = runner.run(phase.name(), phase.workPath(), phase.concurrency(), duration, drain);
            return new MeasuredPhase(phase, server, result, null, start, start.plus(duration), Instant.now(), null);
        }
    };

    /** Whether this kind measures {@code phase} on a server JVM that said {@code info} of itself. */
    abstract boolean takes(Plan.Phase phase, MeasuredServer.Info info);

    /** The request that warms up what {@code phase} runs, so that it does not time the JIT; none when there is nothing to warm. */
    Optional<String> warmUp(Plan.Phase phase) {
        return Optional.of("/work/" + phase.mode() + "?ms=20&downstream=" + phase.downstream());
    }

    /** Measures {@code phase} on {@code server} for {@code duration}, then drains for {@code drain}. */
    abstract MeasuredPhase measure(PhaseRunner runner, String server, Plan.Phase phase, Duration duration, Duration drain);

    static PhaseKind of(Plan.Phase phase, MeasuredServer.Info info) {
        return Arrays.stream(values()).filter(kind -> kind.takes(phase, info)).findFirst().orElseThrow();
    }
}
