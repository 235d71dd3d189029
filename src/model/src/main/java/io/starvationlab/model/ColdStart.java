package io.starvationlab.model;

import java.time.Duration;

/**
 * The plan's cold-start runs: fresh server JVMs starved at once, each repeat one with a bean the event
 * loops need left to its first use and one with it created at start-up; the Java runner's only.
 *
 * @param repeats      how many pairs of fresh JVMs a full run starts
 * @param quickRepeats how many a quick run starts
 * @param seconds      how long the probes run, from the moment its event loops need the bean (at least until the race's holders have answered)
 * @param quickSeconds the same in a quick run
 */
public record ColdStart(int repeats, int quickRepeats, double seconds, double quickSeconds) {

    /** What {@code -Dexperiment.phases=} calls the cold-start runs. */
    public static final String NAME = "cold-start";

    public int repeats(boolean quickMode) {
        return quickMode ? quickRepeats : repeats;
    }

    public Duration starved(boolean quickMode) {
        return Duration.ofMillis((long) ((quickMode ? quickSeconds : seconds) * 1000));
    }
}
