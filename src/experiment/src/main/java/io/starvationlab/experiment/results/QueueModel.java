package io.starvationlab.experiment.results;

/**
 * How long an unrelated request waits for a carrier while a closed-loop load holds them, if every
 * virtual thread waits its turn in one FIFO queue.
 * <p>
 * With {@code concurrency} clients and {@code carriers} carriers all held, {@code carriers} requests
 * run and the other {@code concurrency - carriers} wait; each client sends again only after its answer,
 * so all of them are ahead of a request that arrives now, and the ones sent after it are behind it.
 * (Those parked on a permit count as ahead too: at 50 permits the experiment matches the model as
 * closely as at 2000.) The queue
 * drains at the load's throughput, so the wait is {@code (concurrency - carriers) / throughput}. The
 * measured throughput, not the ideal {@code carriers / ms}, so that the model carries the machine's
 * overhead per request and only the queue's order is on trial; the ideal is reported beside it.
 * <p>
 * Per probe the same model says: while it waits, exactly the requests ahead of it are answered. That
 * form is what each probe is judged by, as it holds however the throughput varies during the phase
 * (on a shared machine it does), and it is what FIFO means.
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

    /** Whether {@code waitMillis} is within {@link #TOLERANCE} of {@code modelMillis}. */
    public static boolean matches(double waitMillis, double modelMillis) {
        return Math.abs(waitMillis - modelMillis) <= TOLERANCE * modelMillis;
    }

    /** Whether {@code served} requests answered while a probe waited is within {@link #TOLERANCE} of {@code ahead}. */
    public static boolean servedInTurn(int served, int ahead) {
        return Math.abs(served - ahead) <= TOLERANCE * ahead;
    }

    public static String formula() {
        return "(concurrency - carriers) / measured throughput: the requests ahead of it, served at the rate the carriers serve them";
    }
}
