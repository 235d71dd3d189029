package io.starvationlab.experiment.results;

import java.util.Arrays;
import java.util.Collection;

/**
 * The waits of a set of probes: percentiles by nearest rank over every probe, and the shares that
 * waited longer than 1 s and 3 s. A probe that failed (a 503 at its deadline) counts with its wait.
 *
 * @param failed how many of {@code count} were not answered 200
 */
public record ProbeDistribution(int count, int failed, double minMillis, double p10Millis, double p50Millis, double p90Millis, double p99Millis,
        double maxMillis, double overOneSecond, double overThreeSeconds) {

    public static ProbeDistribution of(Collection<Double> waitsMillis, int failed) {
        double[] sorted = waitsMillis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (sorted.length == 0) {
            return new ProbeDistribution(0, failed, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        return new ProbeDistribution(sorted.length, failed, percentile(sorted, 0), percentile(sorted, 10), percentile(sorted, 50),
                percentile(sorted, 90), percentile(sorted, 99), percentile(sorted, 100), shareOver(sorted, 1000), shareOver(sorted, 3000));
    }

    /** Nearest rank: the smallest wait that at least {@code percentile} % of the probes did not exceed. */
    static double percentile(double[] sorted, double percentile) {
        int rank = (int) Math.ceil(percentile / 100 * sorted.length);
        return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
    }

    /** The share of {@code sorted} above {@code millis}. */
    static double shareOver(double[] sorted, double millis) {
        return Arrays.stream(sorted).filter(wait -> wait > millis).count() / (double) sorted.length;
    }
}
