package io.starvationlab.experiment.run;

import java.time.Instant;

import io.starvationlab.harness.CpuQuota;
import io.starvationlab.harness.load.PhaseResult;
import io.starvationlab.model.Plan;

/**
 * One phase as the run measured it, before anything is judged: what ran on which server JVM, when,
 * and either its figures or, for a mode the server cannot run, its answer.
 *
 * @param result     the harness's figures; null when the phase was only asked once ({@code answer})
 * @param answer     the answer to a mode the server refuses (501 where there is no FFM); null otherwise
 * @param loadEnd    when its load stopped; {@code end}: when its drain did
 * @param throttling how often the server's CPU quota ran out from {@code start} to {@code end}; null outside a quota
 * @param disturbed  why this window, the last of its attempts, still showed the machine holding it back ({@link Disturbance});
 *                   null for a clean window
 */
public record MeasuredPhase(Plan.Phase phase, String server, PhaseResult result, Answer answer, Instant start, Instant loadEnd,
        Instant end, CpuQuota.Throttling throttling, String disturbed) {

    public record Answer(int status, String contentType) {
    }

    public String name() {
        return phase.name();
    }

    /** This window, kept though disturbed: every attempt was. */
    MeasuredPhase disturbed(String why) {
        return new MeasuredPhase(phase, server, result, answer, start, loadEnd, end, throttling, why);
    }
}
