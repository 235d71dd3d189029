package io.starvationlab.admission;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.runtime.Startup;
import io.starvationlab.meter.CarrierWaitMeter;
import io.starvationlab.service.Cancellation;
import io.starvationlab.service.Mode;
import io.starvationlab.service.WorkRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Hands each request that runs on a thread from its event loop, where starvation cannot reach, to that
 * thread as one {@link Admitted}: a {@code /work} request read ({@link WorkInput}), counted in flight
 * ({@link InFlightLimit}) and given a deadline ({@link Deadlines}); {@code /probe/virtual}, the other
 * endpoint on the carriers, the deadline of work of 0 ms. Until its virtual thread runs, a request
 * waits for a carrier ({@link CarrierWaitMeter}, source {@code task}).
 */
@Startup
@ApplicationScoped
public class HandOff {

    /** Right after {@link RequestHygiene}: a request with a body is refused before it is admitted. */
    private static final int ROUTE_ORDER = RequestHygiene.ROUTE_ORDER + 1;
    private static final String PLATFORM = "/work/" + Mode.PLATFORM.label();

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

    void install(@Observes Router router) {
        router.route("/work/*").order(ROUTE_ORDER).handler(this::work).failureHandler(Deadlines::afterAnswer);
        router.route("/probe/virtual").order(ROUTE_ORDER).handler(this::probe).failureHandler(Deadlines::afterAnswer);
    }

    private void work(RoutingContext context) {
        if (context.request().method() == HttpMethod.OPTIONS) {
            context.next(); // JAX-RS lists the methods /work allows; nothing runs
            return;
        }
        WorkRequest request = input.read(context);
        if (request == null || !inFlight.enter(context)) {
            return; // refused, and answered
        }
        boolean virtual = !PLATFORM.equals(context.normalizedPath()); // the one /work endpoint on the worker pool
        handOver(context, request, deadlines.start(context, request.ms()), virtual);
    }

    private void probe(RoutingContext context) {
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
