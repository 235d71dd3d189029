package io.starvationlab.experiment.run;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Where the run's time goes, part by part, as the run's own thread spends it: the job's benchmark of itself. What
 * runs beside that thread (a server JVM starting ahead of its turn) is on the clock only as long as the run waited for it.
 */
public final class RunClock {

    /** Waiting for a server JVM to start, or for one starting beside a phase before what comes next. */
    public static final String STARTS = "server JVMs: waiting for their start";
    /** Waiting for Prometheus to be ready, for the alerts to resolve, and reading it back. */
    public static final String PROMETHEUS = "Prometheus: waits";
    /** What comes before the first measured window, apart from the run: the report sets it beside the Maven build. */
    public static final String SET_UP = "set-up: ";
    /** Finding the matrix's JDKs, and fetching those missing: set-up, done before any server JVM starts. */
    public static final String JDKS = SET_UP + "finding and fetching the JDK matrix's JDKs";
    public static final String COLD_STARTS = "cold starts";
    /** Judging the run, its findings, and writing the report and its pictures. */
    public static final String REPORT = "report";

    private final long started = System.nanoTime();
    private final Instant startedAt = Instant.now();
    private final Map<String, Double> parts = new LinkedHashMap<>();

    /** The seconds of the part being timed that a part timed within it already has on the clock. */
    private double inner;

    /**
     * Runs {@code work} on the run's own thread, its time on {@code part}, which keeps its place from its first time; what
     * it times within as another part (waiting for a start, for Prometheus) is that part's alone.
     */
    public <T> T time(String part, Supplier<T> work) {
        long began = System.nanoTime();
        double outer = inner;
        inner = 0;
        try {
            return work.get();
        } finally {
            double seconds = since(began);
            synchronized (this) {
                parts.merge(part, seconds - inner, Double::sum);
            }
            inner = outer + seconds;
        }
    }

    public void time(String part, Runnable work) {
        time(part, () -> {
            work.run();
            return null;
        });
    }

    /** Every part so far, in the order each first took time. */
    public synchronized Map<String, Double> parts() {
        return new LinkedHashMap<>(parts);
    }

    public Instant startedAt() {
        return startedAt;
    }

    public double seconds() {
        return since(started);
    }

    /** Seconds since {@code nanos} of {@link System#nanoTime()}. */
    public static double since(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }
}
