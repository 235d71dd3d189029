package io.starvationlab.harness;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import org.awaitility.core.ConditionTimeoutException;

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
        AtomicReference<Gauges> last = new AtomicReference<>(read(lab));
        try {
            await("the gauges").atMost(within).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                    .until(() -> condition.test(last.updateAndGet(previous -> read(lab))));
        } catch (ConditionTimeoutException e) {
            // the caller judges the last reading
        }
        return last.get();
    }
}
