package io.starvationlab.admission;

import jakarta.ws.rs.core.Response;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.starvationlab.problem.Problem;
import io.starvationlab.problem.ProblemResponses;
import io.vertx.ext.web.RoutingContext;

/** A 503 its event loop answers before any work began, counted in {@code lab.work.rejected} under {@code reason}. */
record WorkRefusal(String reason, Counter refused, ProblemResponses problems) {

    /** Registered by the bean that refuses, at start-up: every series an alert may read exists from the start, at zero. */
    static WorkRefusal register(String reason, MeterRegistry registry, ProblemResponses problems) {
        return new WorkRefusal(reason, Counter.builder("lab.work.rejected")
                .description("Work requests refused with 503 before any downstream was called, by reason")
                .tag("reason", reason).register(registry), problems);
    }

    /** Answers at once on the event loop, outside JAX-RS (a deadline's timer). */
    void answer(RoutingContext context, String detail) {
        problems.end(context, Problem.serviceUnavailable(reason, detail, context.request().path()));
        refused.increment();
    }

    /** What a JAX-RS filter answers with instead. */
    Response response(RoutingContext context, String detail) {
        refused.increment();
        return problems.response(Problem.serviceUnavailable(reason, detail, context.request().path()));
    }
}
