package io.starvationlab.experiment.run;

import java.util.Map;

/**
 * One fresh server JVM of the cold-start runs, starved at once: what its event loops and its answers showed.
 *
 * @param lazy      whether the bean its event loops need was left to its first use
 * @param mode      the work that held the carriers
 * @param triggered whether its event loops came to need the bean (the lazy creation begun, or a permit refused)
 * @param probes    by name ({@code malformed}, {@code live}, {@code event-loop}): what the client and the service's own clock saw
 */
public record MeasuredColdStart(int repeat, boolean lazy, String server, String mode, double startSeconds, boolean triggered,
        EventLoopsBlocked eventLoopsBlocked, Map<String, Probe> probes) {

    /**
     * One probe's answers over the starved window.
     *
     * @param maxMillis       the slowest on the client, from the connection's opening
     * @param serverMaxMillis the slowest on the service's clock ({@code http_server_requests_seconds_max}); NaN when it timed none
     */
    public record Probe(long count, Map<Integer, Long> statuses, double maxMillis, double serverMaxMillis) {
    }

    public Probe probe(String name) {
        return probes.get(name);
    }
}
