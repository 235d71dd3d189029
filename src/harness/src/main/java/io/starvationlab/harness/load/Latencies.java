package io.starvationlab.harness.load;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/** Response times in an HdrHistogram (microseconds, 3 significant digits, up to 10 minutes), with outcome counts. */
public final class Latencies {

    private final ConcurrentHistogram histogram = new ConcurrentHistogram(Duration.ofMinutes(10).toNanos() / 1000, 3);
    private final ConcurrentHashMap<Integer, LongAdder> statuses = new ConcurrentHashMap<>();

    /** Records one answer; {@code status} 0 means no answer (timeout or connection failure). */
    public void record(long nanos, int status) {
        histogram.recordValue(Math.min(Math.max(nanos / 1000, 1), histogram.getHighestTrackableValue()));
        statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
    }

    public long count() {
        return histogram.getTotalCount();
    }

    public long ok() {
        LongAdder ok = statuses.get(200);
        return ok == null ? 0 : ok.sum();
    }

    /** Every answer but a 200, no answer (status 0) included. */
    public long failed() {
        return count() - ok();
    }

    public Map<Integer, Long> statuses() {
        Map<Integer, Long> counts = new TreeMap<>();
        statuses.forEach((status, count) -> counts.put(status, count.sum()));
        return counts;
    }

    /** The value at {@code percentile} (0–100) in milliseconds, or NaN when nothing was recorded. */
    public double percentileMillis(double percentile) {
        Histogram copy = histogram.copy();
        return copy.getTotalCount() == 0 ? Double.NaN : copy.getValueAtPercentile(percentile) / 1000.0;
    }

    public double maxMillis() {
        Histogram copy = histogram.copy();
        return copy.getTotalCount() == 0 ? Double.NaN : copy.getMaxValue() / 1000.0;
    }
}
