package io.starvationlab.meter.quarkus;

import jakarta.ws.rs.container.ContainerRequestContext;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.starvationlab.meter.CarrierWaitMeter;
import io.vertx.ext.web.RoutingContext;

/**
 * Each Quarkus REST request that runs on a virtual thread ({@code @RunOnVirtualThread}), timed from its event loop,
 * before Quarkus hands it over, until its virtual thread runs the last request filter ({@code source="task"}). A
 * {@code nonBlocking} filter runs on the event loop even for an endpoint on another thread, the others on the
 * endpoint's thread ({@link ServerRequestFilter#nonBlocking()}); a request answered or dropped before its thread ran
 * leaves the queue when it ends. Requests to endpoints on the event loop or the worker pool are not counted.
 */
public class RequestHandOff {

    private static final String WAIT = CarrierWaitMeter.Wait.class.getName();

    private final CarrierWaitMeter meter;

    public RequestHandOff(CarrierWaitMeter meter) {
        this.meter = meter;
    }

    @ServerRequestFilter(nonBlocking = true, priority = Integer.MIN_VALUE)
    void handedOff(ContainerRequestContext request, RoutingContext routing) {
        CarrierWaitMeter.Wait wait = meter.handedOff();
        routing.addEndHandler(ended -> wait.abandoned());
        request.setProperty(WAIT, wait);
    }

    /** Last, so that every nonBlocking filter, the application's included, runs before it on the event loop. */
    @ServerRequestFilter(priority = Integer.MAX_VALUE)
    void running(ContainerRequestContext request) {
        if (request.getProperty(WAIT) instanceof CarrierWaitMeter.Wait wait) {
            if (Thread.currentThread().isVirtual()) {
                wait.started();
            } else {
                wait.abandoned();
            }
        }
    }
}
