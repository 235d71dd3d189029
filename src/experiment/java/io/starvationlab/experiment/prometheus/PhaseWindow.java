package io.starvationlab.experiment.prometheus;

import java.time.Duration;
import java.time.Instant;

/**
 * When a phase ran, by the wall clock, and on which pod (server JVM): its load from {@code start} to
 * {@code loadEnd}, then its drain until {@code end}.
 *
 * @param verdict the phase's verdict ({@code starved}, {@code not starved}, {@code baseline})
 */
public record PhaseWindow(String name, String jvm, String pod, String verdict, Instant start, Instant loadEnd, Instant end) {

    public static final String STARVED = "starved";
    public static final String NOT_STARVED = "not starved";

    public boolean starved() {
        return STARVED.equals(verdict);
    }

    public boolean contains(Instant at) {
        return !at.isBefore(start) && at.isBefore(end);
    }

    public Duration length() {
        return Duration.between(start, end);
    }
}
