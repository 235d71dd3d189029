package io.starvationlab.model;

import java.util.Locale;

/**
 * The plan's one rule for "starved" ({@code starved} in {@code k6/plan.json}), which the runner, the k6
 * suite and the integration tests all apply: the probe's percentile during a load is at least
 * {@code baselineFactor} times the same percentile in the baseline, and at least {@code minimumMillis}.
 *
 * @param probe          the unrelated endpoint judged, by its name in the plan's probes
 * @param percentile     the percentile compared (50: the median)
 * @param baselineFactor how many times its baseline the probe must wait
 * @param minimumMillis  the least wait that can count as starved, whatever the baseline
 */
public record StarvationRule(String probe, double percentile, double baselineFactor, double minimumMillis) {

    /** The verdicts the rule gives, as every report and picture writes them. */
    public static final String STARVED = "starved";
    public static final String NOT_STARVED = "not starved";

    public StarvationRule {
        if (percentile <= 0 || percentile >= 100 || baselineFactor < 1 || minimumMillis < 0 || probe == null) {
            throw new IllegalArgumentException("the plan's starved rule needs a probe, a percentile in (0, 100), a baselineFactor >= 1"
                    + " and a minimumMillis >= 0; got " + this);
        }
    }

    /** Whether a probe whose percentile was {@code loadedMillis} under load, and {@code baselineMillis} idle, starved. */
    public boolean starved(double loadedMillis, double baselineMillis) {
        return loadedMillis >= Math.max(baselineFactor * Math.max(baselineMillis, 0), minimumMillis);
    }

    /** The rule in words, as every report states it. */
    public String describe() {
        return String.format(Locale.ROOT, "starved when /probe/%s's %s is at least %sx its baseline on the same JVM and at least %s ms", probe,
                percentile == 50 ? "p50" : "p" + trim(percentile), trim(baselineFactor), trim(minimumMillis));
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }
}
