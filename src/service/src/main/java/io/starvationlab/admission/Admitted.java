package io.starvationlab.admission;

import java.util.Objects;

import io.starvationlab.meter.CarrierWaitMeter;
import io.starvationlab.service.Cancellation;
import io.starvationlab.service.WorkRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * What {@link HandOff} gives the thread that runs a request: made on the event loop, only read by the
 * thread, which never touches the response (it would take the connection's monitor, which the event
 * loop needs too).
 *
 * @param request      the parsed {@code /work} request; null for {@code /probe/virtual}, which has no input
 * @param cancellation fired by the event loop at the deadline or when the client leaves
 * @param carrierWait  the request's wait for a carrier; null on the worker pool
 */
public record Admitted(WorkRequest request, Cancellation cancellation, CarrierWaitMeter.Wait carrierWait) {

    private static final String KEY = Admitted.class.getName();

    /** First thing on the request's thread: takes what the event loop handed over; the wait for a carrier is over. */
    public static Admitted running(RoutingContext context) {
        Admitted admitted = Objects.requireNonNull(context.get(KEY), "not admitted");
        if (admitted.carrierWait != null) {
            admitted.carrierWait.started();
        }
        return admitted;
    }

    /** On the event loop: the request goes to its thread with this. */
    void handOver(RoutingContext context) {
        context.put(KEY, this);
    }

    /** Whether the request was handed over to a thread. */
    static boolean handedOver(RoutingContext context) {
        return context.get(KEY) != null;
    }
}
