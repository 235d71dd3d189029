package io.starvationlab.observe;

import java.time.Duration;

/** Histogram bucket bounds from 1 ms to 30 s: every latency the lab can produce lands in a bucket. */
public final class LatencyBuckets {

    private static final Duration[] BOUNDS = {
            Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
            Duration.ofSeconds(10), Duration.ofSeconds(30) };

    private LatencyBuckets() {
    }

    public static Duration[] bounds() {
        return BOUNDS.clone();
    }
}
