package io.starvationlab.model;

import java.util.List;
import java.util.Locale;

/**
 * The plan's one rule for "untouched" ({@code untouched} in {@code k6/plan.json}), which the runner, the
 * k6 thresholds and the k6 report all apply: a probe off the carriers is untouched by a load when its
 * percentile during the load stays under {@code maximumMillis}.
 *
 * @param probes        the probes judged, by their names in the plan's probes
 * @param percentile    the percentile compared: 50 or 99, the two the runner keeps per probe
 * @param maximumMillis the bound it stays under
 */
public record UntouchedRule(List<String> probes, double percentile, double maximumMillis) {

    public UntouchedRule {
        if (probes == null || probes.isEmpty() || (percentile != 50 && percentile != 99) || maximumMillis <= 0) {
            throw new IllegalArgumentException("the plan's untouched rule needs probes, a percentile of 50 or 99 (the runner keeps those)"
                    + " and a maximumMillis > 0; got " + probes + ", " + percentile + ", " + maximumMillis);
        }
        probes = List.copyOf(probes);
    }

    /** Whether a probe whose percentile was {@code loadedMillis} under load stayed untouched. */
    public boolean untouched(double loadedMillis) {
        return loadedMillis < maximumMillis;
    }

    /** The rule's percentile of one probe's figures in a phase, given the two the runner keeps. */
    public double figure(double p50Millis, double p99Millis) {
        return percentile == 50 ? p50Millis : p99Millis;
    }

    /** The rule in words, as every report states it. */
    public String describe() {
        String names = probes.size() == 1 ? probes.get(0)
                : String.join(", ", probes.subList(0, probes.size() - 1)) + " and " + probes.get(probes.size() - 1);
        return String.format(Locale.ROOT, "untouched when the %s probe%s keep%s p%d under %s ms", names, probes.size() == 1 ? "" : "s",
                probes.size() == 1 ? "s its" : " their", (long) percentile,
                maximumMillis == Math.rint(maximumMillis) ? String.valueOf((long) maximumMillis) : String.valueOf(maximumMillis));
    }
}
