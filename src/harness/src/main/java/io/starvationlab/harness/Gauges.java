package io.starvationlab.harness;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * The service's resource gauges, read from {@code /q/metrics}: what must fall back to idle after
 * load, faults and cancellations, requests still counted as waiting for a carrier included.
 */
public record Gauges(double permitsInUse, double permitsWaiting, double connectionsInUse, double workInFlight,
        double stalledSeconds, double requestsQueued) {

    public static Gauges read(LabClient lab) {
        PrometheusText metrics = lab.metrics();
        return new Gauges(
                metrics.sum("lab_downstream_permits_in_use", s -> true).orElseThrow(),
                metrics.sum("lab_downstream_permits_waiting", s -> true).orElseThrow(),
                metrics.sum("agroal_active_count", s -> true).orElseThrow(),
                metrics.sum("lab_work_in_flight", s -> true).orElseThrow(),
                metrics.sum("virtual_threads_carrier_stalled_seconds", s -> "canary".equals(s.label("source"))).orElse(0.0),
                metrics.sum("virtual_threads_carrier_queued", s -> true).orElseThrow());
    }

    public boolean idle() {
        return permitsInUse == 0 && permitsWaiting == 0 && connectionsInUse == 0 && workInFlight == 0 && stalledSeconds == 0
                && requestsQueued == 0;
    }

    /** Polls until everything is idle or {@code within} passes; returns the last reading either way. */
    public static Gauges awaitIdle(LabClient lab, Duration within) {
        return awaitUntil(lab, within, Gauges::idle);
    }

    /** Polls every 50 ms until the gauges satisfy {@code condition} or {@code within} passes; returns the last reading either way. */
    public static Gauges awaitUntil(LabClient lab, Duration within, Predicate<Gauges> condition) {
        long deadline = System.nanoTime() + within.toNanos();
        Gauges last = read(lab);
        while (!condition.test(last) && System.nanoTime() - deadline < 0) {
            Machine.pause(Duration.ofMillis(50));
            last = read(lab);
        }
        return last;
    }
}
