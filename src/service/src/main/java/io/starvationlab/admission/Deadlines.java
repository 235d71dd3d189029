package io.starvationlab.admission;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.starvationlab.config.LabConfig;
import io.starvationlab.problem.ProblemResponses;
import io.starvationlab.service.Cancellation;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Bounds how long a request handed to a thread can hold its client: {@code ms} + acquire timeout +
 * {@code lab.work.deadline-grace}. Not answered by then, it gets 503 from its event loop, which needs no
 * carrier, and its work is cancelled, as it is when the client disconnects first.
 */
@Startup
@ApplicationScoped
public class Deadlines {

    private static final Logger LOG = Logger.getLogger(Deadlines.class);

    private final Duration beyondWork;
    private final WorkRefusal missed;

    public Deadlines(LabConfig config, ProblemResponses problems, MeterRegistry registry) {
        this.beyondWork = config.downstream().acquireTimeout().plus(config.work().deadlineGrace());
        this.missed = WorkRefusal.register("deadline", registry, problems);
    }

    /** Sets the deadline of work of {@code ms}: the cancellation returned fires at it, or when the client leaves. */
    Cancellation start(RoutingContext context, int ms) {
        Cancellation cancellation = Cancellation.create();
        Duration deadline = beyondWork.plusMillis(ms);
        long timer = context.vertx().setTimer(deadline.toMillis(), fired -> expire(context, cancellation, deadline));
        context.addEndHandler(ended -> {
            context.vertx().cancelTimer(timer);
            if (ended.failed()) {
                cancellation.cancel(); // the connection closed before the answer: nobody is listening
            }
        });
        return cancellation;
    }

    void install(@Observes Router router) {
        router.route().failureHandler(Deadlines::afterAnswer);
    }

    /**
     * A request answered at its deadline still runs on its starved thread, and fails when it tries to
     * answer a second time: nothing is wrong that anyone could act on, so it is not an error.
     */
    private static void afterAnswer(RoutingContext context) {
        if (Admitted.handedOver(context) && context.response().ended()) {
            LOG.debugf("%s finished after it was answered: %s", context.request().path(), context.failure());
            return;
        }
        context.next();
    }

    private void expire(RoutingContext context, Cancellation cancellation, Duration deadline) {
        cancellation.cancel();
        if (context.response().headWritten() || context.response().ended()) {
            return;
        }
        try {
            missed.answer(context, "not answered within its deadline of " + deadline.toMillis()
                    + " ms (ms + acquire timeout + grace): the carriers are starved or the downstream is stuck; any work was cancelled");
        } catch (IllegalStateException answeredMeanwhile) {
            LOG.debugf("%s was answered as its deadline passed", context.request().path());
        }
    }
}
