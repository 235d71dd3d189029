package io.starvationlab.admission;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.NameBinding;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.quarkus.runtime.Startup;
import io.smallrye.common.annotation.RunOnVirtualThread;
import io.starvationlab.meter.CarrierWaitMeter;
import io.starvationlab.service.Cancellation;
import io.starvationlab.service.WorkRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * Hands each request that runs on a thread from its event loop, where starvation cannot reach, to that
 * thread as one {@link Admitted}. JAX-RS routes first (a path or method it does not serve gets its 404 or
 * 405 there); these filters then run on the event loop, before Quarkus starts the method's thread: a
 * {@code /work} request is read ({@link WorkInput}), counted in flight ({@link InFlightLimit}) and given a
 * deadline ({@link Deadlines}); {@code /probe/virtual}, the other endpoint on the carriers, the deadline of
 * work of 0 ms. Until its virtual thread runs, a request waits for a carrier ({@link CarrierWaitMeter},
 * source {@code task}).
 */
@Startup
@ApplicationScoped
public class HandOff {

    /** On a resource method that runs {@code /work}: it finds its request admitted ({@link Admitted#running}). */
    @NameBinding
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Work {
    }

    /** On a probe that runs on the carriers: admitted as work of 0 ms. */
    @NameBinding
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Probe {
    }

    private final WorkInput input;
    private final InFlightLimit inFlight;
    private final Deadlines deadlines;
    private final CarrierWaitMeter carrierWaits;

    public HandOff(WorkInput input, InFlightLimit inFlight, Deadlines deadlines, CarrierWaitMeter carrierWaits) {
        this.input = input;
        this.inFlight = inFlight;
        this.deadlines = deadlines;
        this.carrierWaits = carrierWaits;
    }

    /** Admits a {@code /work} request, or answers with the 503 that refuses it; a refusal of its input is thrown to its mapper. */
    @Work
    @ServerRequestFilter(nonBlocking = true)
    public Response work(RoutingContext context, ResourceInfo resource) {
        WorkRequest request = input.read(context);
        Response overloaded = inFlight.enter(context);
        if (overloaded == null) {
            boolean virtual = resource.getResourceMethod().isAnnotationPresent(RunOnVirtualThread.class);
            handOver(context, request, deadlines.start(context, request.ms()), virtual);
        }
        return overloaded;
    }

    @Probe
    @ServerRequestFilter(nonBlocking = true)
    public void probe(RoutingContext context) {
        handOver(context, null, deadlines.start(context, 0), true);
    }

    private void handOver(RoutingContext context, WorkRequest request, Cancellation cancellation, boolean toVirtualThread) {
        CarrierWaitMeter.Wait carrierWait = toVirtualThread ? carrierWaits.handedOff() : null;
        if (toVirtualThread) {
            context.addEndHandler(ended -> carrierWait.abandoned()); // answered (deadline, client gone) before its thread ran
        }
        new Admitted(request, cancellation, carrierWait).handOver(context);
    }
}
