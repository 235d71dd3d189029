package io.starvationlab.experiment.results;

import java.util.Locale;

/** How the results' figures are written, in the findings, the report and the pictures alike (the root locale). */
public final class Figures {

    private Figures() {
    }

    /** One decimal under 100, none above; "-" for no figure. */
    public static String fixed(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        return value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }

    /** Milliseconds as seconds to two decimals. */
    public static String seconds(double millis) {
        return Double.isNaN(millis) ? "-" : String.format(Locale.ROOT, "%.2f s", millis / 1000);
    }

    public static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.0f %%", share * 100);
    }

    /** A spread such as the slowest event loop's p50 over the fastest's. */
    public static String times(double ratio) {
        return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "-" : String.format(Locale.ROOT, "%.1fx", ratio);
    }

    /** A throughput, or what it means when nothing completed. */
    public static String perSecond(double throughput) {
        return throughput == 0 ? "collapsed to 0/s" : String.format(Locale.ROOT, "%.1f/s", throughput);
    }

    /** A ratio of two throughputs; a zero denominator is not a number worth printing. */
    public static String ratio(double ratio) {
        return Double.isInfinite(ratio) ? "no ratio (the reference collapsed to 0/s)" : Double.isNaN(ratio) ? "no ratio (both 0/s)"
                : String.format(Locale.ROOT, "%.2fx", ratio);
    }

    /** {@code /probe/virtual} against its baseline; none answered in the phase when it is not a number. */
    public static String slowdown(JudgedPhase figures) {
        return Double.isNaN(figures.virtualProbeSlowdown()) ? "no answer" : String.format(Locale.ROOT, "%.0fx", figures.virtualProbeSlowdown());
    }
}
