package io.starvationlab.observe;

import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;

/**
 * The requests themselves as a starvation signal: each request the event loop hands to a virtual
 * thread waits here until its thread runs on a carrier. The oldest one still waiting is
 * {@code lab.carrier.request.stalled}, the time each one waited {@code lab.carrier.request.wait}, and
 * how many wait {@code lab.carrier.request.queued}, on every JDK.
 * <p>
 * The {@link CarrierCanary} alone is not enough: its virtual threads reach the carriers through one
 * submission queue of the scheduler, so its wait is a draw (docs/event-loops.md, "The canary draws a
 * queue too"); the requests wait in the queues of their event loops, which are the ones that matter.
 */
@Startup
@ApplicationScoped
public class CarrierWaits {

    /** A request handed to a virtual thread and not yet on a carrier; ordered by arrival. */
    public final class Waiting implements Comparable<Waiting> {

        private final long since = clock.monotonicTime();
        private final long order = sequence.incrementAndGet();

        /** Its thread runs on a carrier: the wait is over, and recorded (even if the request was answered meanwhile). */
        public void started() {
            waiting.remove(this);
            waited.record(clock.monotonicTime() - since, TimeUnit.NANOSECONDS);
        }

        /** Answered without its thread ever running (its deadline passed, the client left): no longer waiting. */
        public void ended() {
            waiting.remove(this);
        }

        @Override
        public int compareTo(Waiting other) {
            int bySince = Long.compare(since - other.since, 0); // nanoTime: compare differences, not values
            return bySince != 0 ? bySince : Long.compare(order, other.order);
        }
    }

    private final ConcurrentSkipListSet<Waiting> waiting = new ConcurrentSkipListSet<>();
    private final AtomicLong sequence = new AtomicLong();
    private final Timer waited;
    /** The registry's clock: {@code System.nanoTime()} in the service, one a test moves by hand. */
    private final Clock clock;

    public CarrierWaits(MeterRegistry registry) {
        clock = registry.config().clock();
        waited = Timer.builder("lab.carrier.request.wait")
                .description("How long a request handed to a virtual thread waited for a carrier")
                .serviceLevelObjectives(LatencyBuckets.bounds())
                .register(registry);
        Gauge.builder("lab.carrier.request.stalled", this, waits -> waits.stalledMillis() / 1000)
                .description("How long the oldest request still waiting for a carrier has waited so far; 0 when none waits")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("lab.carrier.request.queued", waiting, ConcurrentSkipListSet::size)
                .description("Requests handed to a virtual thread that has not run on a carrier yet")
                .register(registry);
    }

    /** On the event loop, as it hands the request to a virtual thread. */
    public Waiting handedOff() {
        Waiting request = new Waiting();
        waiting.add(request);
        return request;
    }

    /** Milliseconds the oldest request still waiting for a carrier has waited, 0 if none waits. */
    public double stalledMillis() {
        Waiting oldest = oldest();
        return oldest == null ? 0 : (clock.monotonicTime() - oldest.since) / 1e6;
    }

    private Waiting oldest() {
        try {
            return waiting.first();
        } catch (NoSuchElementException none) {
            return null;
        }
    }
}
