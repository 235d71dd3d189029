package io.starvationlab.rest;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.starvationlab.config.LabConfig;
import io.starvationlab.downstream.DownstreamMeters;
import io.starvationlab.downstream.RejectedException;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Bounds the {@code /work} requests in flight, on the event loop, before a thread is spent on them:
 * Quarkus starts a virtual thread per request, and under starvation those threads cannot even run
 * to refuse themselves. Past {@code lab.work.max-in-flight} the answer is 503 with Retry-After.
 */
@ApplicationScoped
public class WorkAdmission {

    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final AtomicInteger inFlight = new AtomicInteger();
    private final int maxInFlight;
    private final DownstreamMeters meters;
    private final ProblemResponses problems;

    public WorkAdmission(LabConfig config, DownstreamMeters meters, ProblemResponses problems, MeterRegistry registry) {
        this.maxInFlight = config.work().maxInFlight();
        this.meters = meters;
        this.problems = problems;
        Gauge.builder("lab.work.in.flight", inFlight, AtomicInteger::get)
                .description("/work requests admitted and not yet answered").register(registry);
    }

    void install(@Observes Router router) {
        router.route("/work/*").order(Integer.MIN_VALUE).handler(this::admit);
    }

    private void admit(RoutingContext context) {
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            meters.rejected(RejectedException.Reason.OVERLOADED, "none");
            Problem problem = Problem.serviceUnavailable(RejectedException.Reason.OVERLOADED.label(),
                    maxInFlight + " work requests are in flight already", context.request().path());
            context.response().setStatusCode(503)
                    .putHeader("Retry-After", String.valueOf(ProblemResponses.retryAfterSeconds(RETRY_AFTER)))
                    .putHeader("Content-Type", Problem.MEDIA_TYPE)
                    .end(problems.toJson(problem));
            return;
        }
        context.addEndHandler(ended -> inFlight.decrementAndGet());
        context.next();
    }
}
