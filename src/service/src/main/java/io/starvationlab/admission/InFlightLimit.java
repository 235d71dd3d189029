package io.starvationlab.admission;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.starvationlab.config.LabConfig;
import io.starvationlab.problem.ProblemResponses;
import io.vertx.ext.web.RoutingContext;

/** Bounds the {@code /work} requests in flight: past {@code lab.work.max-in-flight}, 503 before a thread is spent. */
@Startup
@ApplicationScoped
public class InFlightLimit {

    private final AtomicInteger inFlight = new AtomicInteger();
    private final int max;
    private final WorkRefusal overloaded;

    public InFlightLimit(LabConfig config, ProblemResponses problems, MeterRegistry registry) {
        this.max = config.work().maxInFlight();
        this.overloaded = WorkRefusal.register("overloaded", registry, problems);
        Gauge.builder("lab.work.in.flight", inFlight, AtomicInteger::get)
                .description("/work requests admitted and not yet answered").register(registry);
    }

    /** Counts the request in flight until it ends; past the limit, gives the 503 to answer it with instead. */
    Response enter(RoutingContext context) {
        if (inFlight.incrementAndGet() > max) {
            inFlight.decrementAndGet();
            return overloaded.response(context, max + " work requests are in flight already");
        }
        context.addEndHandler(ended -> inFlight.decrementAndGet());
        return null;
    }
}
