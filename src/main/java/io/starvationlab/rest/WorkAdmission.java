package io.starvationlab.rest;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.starvationlab.config.LabConfig;
import io.starvationlab.downstream.Cancellation;
import io.starvationlab.downstream.DownstreamMeters;
import io.starvationlab.downstream.RejectedException;
import io.starvationlab.service.WorkRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Keeps every request that runs on the carriers bounded from the event loop, where starvation cannot
 * reach. For {@code /work}:
 * <ul>
 * <li>past {@code lab.work.max-in-flight} requests, 503 before a thread is spent (Quarkus starts a
 * virtual thread per request, and under starvation those cannot even run to refuse themselves);</li>
 * <li>a deadline of {@code ms} + acquire timeout + {@code lab.work.deadline-grace}: a request not
 * answered by then gets 503 and its work is cancelled, so starved carriers cannot hold a client longer;</li>
 * <li>a client that disconnects cancels its work.</li>
 * </ul>
 * {@code /probe/virtual}, the other endpoint on the carriers, gets the same deadline with {@code ms} = 0:
 * under starvation a virtual thread may wait for a carrier without end, and the probe's client must
 * not.
 */
@ApplicationScoped
public class WorkAdmission {

    /** Where the resource finds the request's {@link Cancellation}. */
    static final String CANCELLATION = "lab.cancellation";
    private static final Logger LOG = Logger.getLogger(WorkAdmission.class);

    private final AtomicInteger inFlight = new AtomicInteger();
    private final LabConfig config;
    private final DownstreamMeters meters;
    private final ProblemResponses problems;

    public WorkAdmission(LabConfig config, DownstreamMeters meters, ProblemResponses problems, MeterRegistry registry) {
        this.config = config;
        this.meters = meters;
        this.problems = problems;
        Gauge.builder("lab.work.in.flight", inFlight, AtomicInteger::get)
                .description("/work requests admitted and not yet answered").register(registry);
    }

    /**
     * The request's cancellation, created at admission and cancelled from the event loop when the client
     * disconnects or the deadline passes. The resource only reads it: a virtual thread that touched the
     * response would take the connection's monitor, which the event loop needs too.
     */
    static Cancellation cancellationOf(RoutingContext context) {
        Cancellation admitted = context.get(CANCELLATION);
        return admitted == null ? Cancellation.create() : admitted;
    }

    void install(@Observes Router router) {
        router.route("/work/*").order(Integer.MIN_VALUE).handler(this::admit).failureHandler(this::afterAnswer);
        router.route("/probe/virtual").order(Integer.MIN_VALUE).handler(this::boundProbe).failureHandler(this::afterAnswer);
    }

    /** The virtual probe's deadline: that of work of 0 ms. */
    private void boundProbe(RoutingContext context) {
        Duration deadline = deadlineFor(0);
        long timer = context.vertx().setTimer(deadline.toMillis(), fired -> expire(context, Cancellation.create(), deadline));
        context.addEndHandler(ended -> context.vertx().cancelTimer(timer));
        context.next();
    }

    /**
     * A request answered at its deadline still runs on its starved thread, and fails when it tries to
     * answer a second time: nothing is wrong that anyone could act on, so it is not an error.
     */
    private void afterAnswer(RoutingContext context) {
        if (context.response().ended()) {
            LOG.debugf("%s finished after it was answered: %s", context.request().path(), context.failure());
            return;
        }
        context.next();
    }

    private void admit(RoutingContext context) {
        int maxInFlight = config.work().maxInFlight();
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            refuse(context, RejectedException.Reason.OVERLOADED, maxInFlight + " work requests are in flight already");
            return;
        }
        long[] timer = { -1 };
        Cancellation cancellation = Cancellation.create();
        context.put(CANCELLATION, cancellation);
        context.addEndHandler(ended -> {
            context.vertx().cancelTimer(timer[0]);
            inFlight.decrementAndGet();
            if (ended.failed()) {
                cancellation.cancel(); // the connection closed before the answer: nobody is listening
            }
        });
        Duration deadline = deadlineOf(context);
        timer[0] = context.vertx().setTimer(deadline.toMillis(), fired -> expire(context, cancellation, deadline));
        context.next();
    }

    private void expire(RoutingContext context, Cancellation cancellation, Duration deadline) {
        cancellation.cancel();
        if (context.response().headWritten() || context.response().ended()) {
            return;
        }
        try {
            refuse(context, RejectedException.Reason.DEADLINE, "not answered within its deadline of " + deadline.toMillis()
                    + " ms (ms + acquire timeout + grace): the carriers are starved or the downstream is stuck; any work was cancelled");
        } catch (IllegalStateException answeredMeanwhile) {
            LOG.debugf("%s was answered as its deadline passed", context.request().path());
        }
    }

    private void refuse(RoutingContext context, RejectedException.Reason reason, String detail) {
        problems.end(context, Problem.serviceUnavailable(reason.label(), detail, context.request().path()), config.downstream().retryAfter());
        meters.rejected(reason, "none");
    }

    /** ms (as asked, or the default where the query cannot be read) + acquire timeout + grace. */
    private Duration deadlineOf(RoutingContext context) {
        String asked;
        try {
            asked = context.queryParams().get(WorkRequest.MS);
        } catch (RuntimeException undecodable) {
            asked = null; // the resource refuses the query with a problem; the deadline needs only a number
        }
        return deadlineFor(WorkRequest.msOrDefault(asked, config.work().defaultMs(), config.work().maxMs()));
    }

    private Duration deadlineFor(int ms) {
        return Duration.ofMillis(ms).plus(config.downstream().acquireTimeout()).plus(config.work().deadlineGrace());
    }
}
