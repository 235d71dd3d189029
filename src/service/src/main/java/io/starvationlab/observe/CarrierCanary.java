package io.starvationlab.observe;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;
import io.starvationlab.config.LabConfig;

/**
 * A starvation signal that needs no traffic: a platform thread starts a no-op virtual thread every
 * interval and times how long it waits for a carrier. It keeps one probe in flight at most; while a
 * probe waits, {@code lab.carrier.scheduling.stalled} (seconds) shows how long so far, so a full stall is
 * visible before it ends. Its probes enter the scheduler through one submission queue, so under load its
 * wait is a draw: read it beside the requests' own waits ({@link CarrierWaits}). It runs on a platform
 * thread because a virtual one would starve with what it measures.
 */
@Startup
@ApplicationScoped
public class CarrierCanary {

    private static final long NOT_WAITING = Long.MIN_VALUE;

    private final LabConfig.Canary settings;
    private final MeterRegistry registry;
    private final AtomicLong probeStartedAt = new AtomicLong(NOT_WAITING);
    private volatile long lastDelayNanos;
    private volatile boolean running;
    private volatile Thread loop;

    public CarrierCanary(LabConfig config, MeterRegistry registry) {
        this.settings = config.canary();
        this.registry = registry;
    }

    void start(@Observes StartupEvent event) {
        if (!settings.enabled()) {
            return;
        }
        Timer delay = Timer.builder("lab.carrier.scheduling.delay")
                .description("How long a new virtual thread waited for a carrier")
                .serviceLevelObjectives(LatencyBuckets.bounds())
                .register(registry);
        // in seconds, Prometheus's base unit, like the delay histogram beside it
        Gauge.builder("lab.carrier.scheduling.stalled", this, canary -> canary.stalledMillis() / 1000)
                .description("How long the canary's current virtual thread has waited for a carrier so far; 0 when none waits")
                .baseUnit("seconds")
                .register(registry);
        running = true;
        loop = Thread.ofPlatform().daemon().name("lab-carrier-canary").start(() -> run(delay));
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        Thread probing = loop;
        if (probing != null) {
            probing.interrupt();
        }
    }

    public boolean enabled() {
        return settings.enabled();
    }

    /** Milliseconds the probe in flight has waited for a carrier, 0 if none waits. */
    public double stalledMillis() {
        long started = probeStartedAt.get();
        return started == NOT_WAITING ? 0 : (System.nanoTime() - started) / 1e6;
    }

    /**
     * Whether a new virtual thread waits, or last waited, longer than {@code threshold} for a carrier:
     * the probe in flight, or the last one to finish, so a long stall does not read as healthy in the
     * pause between two probes.
     */
    public boolean starvedLongerThan(Duration threshold) {
        return stalledMillis() > threshold.toMillis() || lastDelayNanos > threshold.toNanos();
    }

    private void run(Timer delay) {
        long interval = settings.interval().toNanos();
        while (running) {
            try {
                lastDelayNanos = probeOnce();
                delay.record(Duration.ofNanos(lastDelayNanos));
                Thread.sleep(Duration.ofNanos(interval));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private long probeOnce() throws InterruptedException {
        AtomicLong ranAt = new AtomicLong();
        long started = System.nanoTime();
        probeStartedAt.set(started);
        try {
            Thread.ofVirtual().name("lab-carrier-canary-probe").start(() -> {
                ranAt.set(System.nanoTime());
                probeStartedAt.set(NOT_WAITING);
            }).join();
        } finally {
            probeStartedAt.set(NOT_WAITING);
        }
        return ranAt.get() - started;
    }
}
