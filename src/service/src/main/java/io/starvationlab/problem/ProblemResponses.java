package io.starvationlab.problem;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

import io.quarkus.arc.ClientProxy;
import io.quarkus.runtime.StartupEvent;
import io.starvationlab.config.FaultSwitches;
import io.starvationlab.config.LabConfig;
import io.starvationlab.downstream.RejectedException;
import io.starvationlab.service.CancelledException;
import io.starvationlab.service.InvalidRequestException;
import io.starvationlab.service.Mode;
import io.starvationlab.service.ModeUnavailableException;
import io.starvationlab.service.UnknownModeException;
import io.vertx.core.Context;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * Turns every failure into an {@code application/problem+json} answer.
 */
@ApplicationScoped
public class ProblemResponses {

    private static final Logger LOG = Logger.getLogger(ProblemResponses.class);
    /** What every resource of the lab allows: its input is the path and query, so GET (and what JAX-RS adds). */
    private static final String ALLOW = "HEAD, GET, OPTIONS";

    /** For answers written on the request's thread, virtual ones included. */
    private final ObjectWriter json;
    /** For answers written on an event loop: admission's, JAX-RS's routing (404, 405), refusals of the input. */
    private final ObjectWriter eventLoopJson;
    private final Duration retryAfter;

    /**
     * Answers written on the event loop get a mapper of their own, which no virtual thread touches.
     * Both are warmed here, so that no serializer is added later: Jackson locks its serializer cache
     * while it adds one, and a virtual thread that holds that lock, or queues for it ahead of the event
     * loop, and then waits for a starved carrier would stop the event loop with it.
     */
    public ProblemResponses(ObjectMapper json, LabConfig config, FaultSwitches faults) {
        this.json = json.writerFor(Problem.class);
        this.eventLoopJson = json.copy().writerFor(Problem.class);
        this.retryAfter = config.downstream().retryAfter();
        Problem everyField = Problem.serviceUnavailable("warm-up", "warm-up", "/").withParameter("ms", List.of("0")).withModes(Mode.labels());
        faults.duringProblemResponsesCreation(() -> toJson(eventLoopJson, everyField));
        toJson(this.json, everyField);
    }

    /** Created at start-up, before any event loop needs it, unless a fault switch leaves it to its first use. */
    static void createAtStartUp(@Observes StartupEvent event, ProblemResponses problems, FaultSwitches faults) {
        if (faults.problemResponsesAtStartUp()) {
            ClientProxy.unwrap(problems);
        }
    }

    @ServerExceptionMapper
    public Response invalid(InvalidRequestException e, UriInfo uri) {
        return response(Problem.of("invalid-parameter", "Invalid query parameter", 400, e.getMessage(), path(uri))
                .withParameter(e.parameter(), e.allowed()));
    }

    @ServerExceptionMapper
    public Response unknownMode(UnknownModeException e, UriInfo uri) {
        return response(Problem.of("unknown-mode", "Unknown work mode", 404, e.getMessage(), path(uri)).withModes(Mode.labels()));
    }

    @ServerExceptionMapper
    public Response unavailable(ModeUnavailableException e, UriInfo uri) {
        return response(Problem.of("mode-unavailable", "Mode not available on this JVM", 501, e.getMessage(), path(uri)));
    }

    @ServerExceptionMapper
    public Response rejected(RejectedException e, UriInfo uri) {
        return serviceUnavailable(e.reason().label(), e.getMessage(), e.retryAfter(), path(uri));
    }

    @ServerExceptionMapper
    public Response cancelled(CancelledException e, UriInfo uri) {
        return response(Problem.of("cancelled", "Client went away", 503, e.getMessage(), path(uri)));
    }

    @ServerExceptionMapper
    public Response http(WebApplicationException e, UriInfo uri) {
        Response.StatusType status = e.getResponse().getStatusInfo();
        String detail = status.getStatusCode() == 404 ? "nothing is served at " + path(uri) : e.getMessage();
        Response.ResponseBuilder answer = Response.fromResponse(e.getResponse()).entity(null);
        if (status.getStatusCode() == 405 && e.getResponse().getHeaderString("Allow") == null) {
            answer.header("Allow", ALLOW); // a 405 names what is allowed (RFC 9110); Quarkus REST's names nothing
        }
        return problemEntity(answer, Problem.of("http-" + status.getStatusCode(), status.getReasonPhrase(),
                status.getStatusCode(), detail, path(uri)));
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e, UriInfo uri) {
        if (clientWentAway(e)) {
            LOG.debugf("Could not answer %s, the client went away: %s", path(uri), e);
        } else if (answeredAlready(e)) {
            LOG.debugf("%s finished after its deadline had answered it", path(uri));
        } else {
            LOG.errorf(e, "Unexpected failure serving %s", path(uri));
        }
        return response(Problem.of("internal-error", "Internal error", 500, "the service failed; its log has the details", path(uri)));
    }

    private Response serviceUnavailable(String reason, String detail, Duration retryAfter, String instance) {
        return problemEntity(Response.status(503).header("Retry-After", retryAfterSeconds(retryAfter)),
                Problem.serviceUnavailable(reason, detail, instance));
    }

    /** The answer to {@code problem} through JAX-RS; a 503 also says when to retry ({@code lab.downstream.retry-after}). */
    public Response response(Problem problem) {
        Response.ResponseBuilder answer = Response.status(problem.status());
        if (problem.status() == 503) {
            answer.header("Retry-After", retryAfterSeconds(retryAfter));
        }
        return problemEntity(answer, problem);
    }

    /** Answers with {@code problem} straight on the routing context, outside JAX-RS, as {@link #response} would. */
    public void end(RoutingContext context, Problem problem) {
        HttpServerResponse response = context.response().setStatusCode(problem.status())
                .putHeader("Content-Type", Problem.MEDIA_TYPE);
        if (problem.status() == 503) {
            response.putHeader("Retry-After", String.valueOf(retryAfterSeconds(retryAfter)));
        }
        response.end(toJson(problem));
    }

    private String toJson(Problem problem) {
        return toJson(Context.isOnEventLoopThread() ? eventLoopJson : json, problem);
    }

    private static String toJson(ObjectWriter writer, Problem problem) {
        try {
            return writer.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writing the answer failed on the connection: nobody is left to read it. */
    private static boolean clientWentAway(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Vert.x refuses a second answer: the deadline answered the request from the event loop, and its
     * work, finishing later, found the response written. Nothing is wrong that anyone could act on.
     */
    private static boolean answeredAlready(Throwable e) {
        return e instanceof IllegalStateException && "Response has already been written".equals(e.getMessage());
    }

    static long retryAfterSeconds(Duration retryAfter) {
        return Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    }

    private Response problemEntity(Response.ResponseBuilder builder, Problem problem) {
        return builder.type(Problem.MEDIA_TYPE).entity(toJson(problem)).build();
    }

    private static String path(UriInfo uri) {
        return uri == null ? null : uri.getRequestUri().getRawPath();
    }
}
