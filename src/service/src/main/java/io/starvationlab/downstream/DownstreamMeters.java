package io.starvationlab.downstream;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import io.starvationlab.observe.LatencyBuckets;

/**
 * The one place the {@code lab.downstream.*} meters are named.
 */
@Startup
@ApplicationScoped
public class DownstreamMeters {

    private final MeterRegistry registry;
    private final Map<String, Timer> callTimers = new ConcurrentHashMap<>();
    private final Map<String, Timer> waitTimers = new ConcurrentHashMap<>();
    private final Map<String, Counter> rejections = new ConcurrentHashMap<>();

    public DownstreamMeters(MeterRegistry registry) {
        this.registry = registry;
        // every series an alert may read exists from the start, at zero
        for (RejectedException.Reason reason : RejectedException.Reason.values()) {
            for (String downstream : reason.downstreams()) {
                rejectionCounter(reason, downstream);
            }
        }
    }

    void bind(Permits permits) {
        String downstream = permits.downstream().label();
        Gauge.builder("lab.downstream.permits.in.use", permits, Permits::inUse)
                .description("Permits held by calls in progress").tag("downstream", downstream).register(registry);
        Gauge.builder("lab.downstream.permits.waiting", permits, Permits::waiting)
                .description("Requests waiting for a permit").tag("downstream", downstream).register(registry);
        Gauge.builder("lab.downstream.permits.limit", permits, Permits::size)
                .description("Permits in the semaphore").tag("downstream", downstream).register(registry);
    }

    void recordPermitWait(Downstream downstream, long nanos) {
        waitTimers.computeIfAbsent(downstream.label(), label -> Timer.builder("lab.downstream.permit.wait")
                .description("Time spent waiting for a downstream permit")
                .tag("downstream", label)
                .serviceLevelObjectives(LatencyBuckets.bounds())
                .register(registry)).record(Duration.ofNanos(nanos));
    }

    void recordCall(String mode, Downstream downstream, long nanos) {
        callTimers.computeIfAbsent(mode + '/' + downstream.label(), key -> Timer.builder("lab.downstream.call")
                .description("Downstream calls that completed, by the mode that wrapped them")
                .tags("mode", mode, "downstream", downstream.label())
                .serviceLevelObjectives(LatencyBuckets.bounds())
                .register(registry)).record(Duration.ofNanos(nanos));
    }

    /** Counts a call a downstream refused (answered 503). */
    void recordRejection(RejectedException.Reason reason, Downstream downstream) {
        rejectionCounter(reason, downstream.label()).increment();
    }

    private Counter rejectionCounter(RejectedException.Reason reason, String downstream) {
        return rejections.computeIfAbsent(reason.label() + '/' + downstream, key -> Counter.builder("lab.downstream.rejected")
                .description("Calls refused by a downstream with 503, by reason")
                .tags("reason", reason.label(), "downstream", downstream)
                .register(registry));
    }
}
