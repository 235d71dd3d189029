package io.starvationlab.harness.load;

/**
 * One probe: when it was sent, how long it took, and the event loop the answer named.
 *
 * @param sentAtNanos {@link System#nanoTime()} when it was sent
 * @param status      the HTTP status, 0 for no answer
 * @param eventLoop   the answer's {@code eventLoop}, or null where the endpoint does not say (health) or nothing answered
 */
public record ProbeSample(long sentAtNanos, long latencyNanos, int status, String eventLoop) {

    public double latencyMillis() {
        return latencyNanos / 1e6;
    }
}
