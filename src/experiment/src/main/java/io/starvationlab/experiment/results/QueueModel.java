package io.starvationlab.experiment.results;

/**
 * How long an unrelated request waits for a carrier behind a closed-loop load, if every virtual thread waits its
 * turn in one FIFO queue: {@code (concurrency - carriers) / throughput} ({@code docs/event-loops.md}, "The model").
 */
public final class QueueModel {

    /** How far from the model a probe may be and still count as waiting its turn. */
    public static final double TOLERANCE = 0.15;

    private QueueModel() {
    }

    /** The requests ahead of an unrelated one. */
    public static int ahead(int concurrency, int carriers) {
        return Math.max(concurrency - carriers, 0);
    }

    /** The model's wait in ms at the measured {@code throughputPerSecond}; NaN when nothing was answered. */
    public static double waitMillis(int concurrency, int carriers, double throughputPerSecond) {
        return throughputPerSecond <= 0 ? Double.NaN : ahead(concurrency, carriers) * 1000 / throughputPerSecond;
    }

    /** The same at the throughput the carriers allow: {@code carriers / ms}. */
    public static double idealWaitMillis(int concurrency, int carriers, int ms) {
        return ahead(concurrency, carriers) * (double) ms / Math.max(carriers, 1);
    }

    /**
     * Whether {@code measured} is within {@link #TOLERANCE} of the {@code model}: a probe's wait of the model's wait, or the requests
     * answered while it waited of those ahead of it.
     */
    public static boolean matches(double measured, double model) {
        return Math.abs(measured - model) <= TOLERANCE * model;
    }

    public static String formula() {
        return "(concurrency - carriers) / measured throughput: the requests ahead of it, served at the rate the carriers serve them";
    }
}
