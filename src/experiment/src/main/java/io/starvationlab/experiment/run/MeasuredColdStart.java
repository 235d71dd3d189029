package io.starvationlab.experiment.run;

import java.util.Locale;
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

    /** The run in a line: its event loops blocked, and each probe's slowest answer on the client and on the service's clock. */
    public String describe() {
        String blocked = eventLoopsBlocked.any() ? String.format(Locale.ROOT, "%d blocked-thread warnings, longest %.2f s", eventLoopsBlocked.warnings(),
                eventLoopsBlocked.longestMillis() / 1000.0) : "no event loop blocked";
        return String.format(Locale.ROOT, "repeat %d %s: %s, live max %.0f ms (service %.1f), event-loop max %.0f ms (service %.1f), malformed %s max"
                + " %.0f ms (service %.1f)", repeat, lazy ? "lazy" : "eager", blocked, probe("live").maxMillis(), probe("live").serverMaxMillis(),
                probe("event-loop").maxMillis(), probe("event-loop").serverMaxMillis(), probe("malformed").statuses(), probe("malformed").maxMillis(),
                probe("malformed").serverMaxMillis());
    }
}
