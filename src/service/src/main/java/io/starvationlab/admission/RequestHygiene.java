package io.starvationlab.admission;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.runtime.Startup;
import io.starvationlab.problem.Problem;
import io.starvationlab.problem.ProblemResponses;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Refuses, before anything reads the request: an HTTP version the server does not speak (505), and a
 * GET or HEAD that carries a body (400): every endpoint of the lab takes its input from the path and
 * query, so a body means a confused or hostile client, and HTTP gives a GET body no meaning.
 */
@Startup
@ApplicationScoped
public class RequestHygiene {

    private final ProblemResponses problems;

    public RequestHygiene(ProblemResponses problems) {
        this.problems = problems;
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::check); // the first route of every request
    }

    private void check(RoutingContext context) {
        HttpServerRequest request = context.request();
        if (request.version() == null) {
            // Vert.x knows HTTP/1.0, HTTP/1.1 and HTTP/2; for any other version line (HTTP/9.9) it has none
            Problem problem = Problem.of("http-version-not-supported", "HTTP version not supported", 505,
                    "this server speaks HTTP/1.0, HTTP/1.1 and HTTP/2", request.path());
            context.response().putHeader(HttpHeaders.CONNECTION, "close"); // how the client frames its messages is unknown
            problems.end(context, problem);
            return;
        }
        boolean readOnly = request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD;
        if (readOnly && carriesBody(request)) {
            Problem problem = Problem.of("body-not-allowed", "Body not allowed", 400,
                    "a " + request.method() + " request carries no body here; send parameters in the query", request.path());
            context.response().putHeader(HttpHeaders.CONNECTION, "close"); // the unread body cannot be skipped safely
            problems.end(context, problem);
            return;
        }
        context.next();
    }

    private static boolean carriesBody(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        return request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null || (length != null && !length.trim().equals("0"));
    }
}
