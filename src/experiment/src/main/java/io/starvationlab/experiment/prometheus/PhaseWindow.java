package io.starvationlab.experiment.prometheus;

import java.time.Instant;

import io.starvationlab.model.StarvationRule;

/**
 * When a phase ran, by the wall clock, and on which pod (server JVM): its load from {@code start} to
 * {@code loadEnd}, then its drain until {@code end}.
 *
 * @param verdict the phase's verdict ({@link StarvationRule#STARVED}, {@link StarvationRule#NOT_STARVED}), or
 *                {@link #BASELINE}, {@link #WARM_UP} or {@link #DISTURBED}
 */
public record PhaseWindow(String name, String jvm, String pod, String verdict, Instant start, Instant loadEnd, Instant end) {

    /** The runner's own windows before a server's phases: a fresh JVM compiling every mode, then its probes-only baseline. */
    public static final String WARM_UP = "warm-up";
    public static final String BASELINE = "baseline";
    /** An attempt at a phase that its own signals called disturbed by the machine, measured again: judged by no claim. */
    public static final String DISTURBED = "disturbed";

    public boolean starved() {
        return StarvationRule.STARVED.equals(verdict);
    }

    /** Whether this window is the runner's own (a warm-up) or an attempt measured again (disturbed): no claim judges it. */
    public boolean unjudged() {
        return WARM_UP.equals(verdict) || DISTURBED.equals(verdict);
    }

    /** Whether the phase had a load the rule judged (not a warm-up or baseline). */
    public boolean judged() {
        return starved() || StarvationRule.NOT_STARVED.equals(verdict);
    }
}
