package io.starvationlab.experiment.run;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import io.starvationlab.harness.plan.Plan;

/** A mode the server JVM says it cannot run ({@code native} without FFM): one request, whose answer is the measurement. */
final class UnavailableModePhase implements PhaseKind {

    @Override
    public boolean takes(Plan.Phase phase, ServerFacts facts) {
        return "native".equals(phase.mode()) && !facts.nativePinAvailable();
    }

    @Override
    public Optional<String> warmUp(Plan.Phase phase) {
        return Optional.empty();
    }

    @Override
    public PhaseRecord measure(ServerSession session, Plan.Phase phase, Duration duration) {
        Instant start = Instant.now();
        HttpResponse<String> answer = session.runner().lab().get(phase.workPath());
        Instant end = Instant.now();
        return new PhaseRecord(phase, session.spec().name(), null,
                new PhaseRecord.Answer(answer.statusCode(), answer.headers().firstValue("Content-Type").orElse("")), start, end, end);
    }
}
