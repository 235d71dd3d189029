package io.starvationlab.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.runtime.Startup;
import io.starvationlab.config.LabConfig;
import io.starvationlab.jvm.NativeFrames;
import io.starvationlab.problem.Problem;
import io.starvationlab.problem.ProblemResponses;
import io.starvationlab.service.InvalidRequestException;
import io.starvationlab.service.Mode;
import io.starvationlab.service.ModeUnavailableException;
import io.starvationlab.service.UnknownModeException;
import io.starvationlab.service.WorkRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;

/**
 * Reads a {@code /work} request on its event loop, routed as JAX-RS would route it, and answers there one
 * it cannot run (400, 404, 405, 501): Quarkus starts a virtual thread per request, and under starvation
 * one could not even run to refuse itself before its deadline.
 */
@Startup
@ApplicationScoped
public class WorkInput {

    private static final String WORK_PREFIX = "/work/";

    private final LabConfig.Work config;
    private final NativeFrames nativeFrames;
    private final ProblemResponses problems;

    public WorkInput(LabConfig config, NativeFrames nativeFrames, ProblemResponses problems) {
        this.config = config.work();
        this.nativeFrames = nativeFrames;
        this.problems = problems;
    }

    /** The request parsed, or null once its refusal is answered. */
    WorkRequest read(RoutingContext context) {
        String instance = context.request().path();
        String path = context.normalizedPath();
        String mode = path.startsWith(WORK_PREFIX) ? path.substring(WORK_PREFIX.length()) : "";
        Problem refusal = unrouted(mode, context.request().method(), instance);
        if (refusal == null) {
            try {
                WorkRequest request = parse(mode, context);
                if (request.mode() != Mode.NATIVE || nativeFrames.frame().isPresent()) {
                    return request;
                }
                refusal = ProblemResponses.modeUnavailable(new ModeUnavailableException(request.mode(), nativeFrames.unavailableReason()), instance);
            } catch (InvalidRequestException e) {
                refusal = ProblemResponses.invalidParameter(e, instance);
            } catch (UnknownModeException e) {
                refusal = ProblemResponses.unknownMode(e, instance);
            } catch (IllegalArgumentException undecodable) { // Vert.x could not decode the query (a bad percent-escape)
                refusal = ProblemResponses.invalidParameter(new InvalidRequestException("query", "is not valid percent-encoding", null), instance);
            }
        }
        problems.end(context, refusal);
        return null;
    }

    /** What JAX-RS would refuse to route: anything but {@code GET /work/{mode}}, where a trailing slash belongs to the mode. */
    private static Problem unrouted(String mode, HttpMethod method, String instance) {
        String segment = mode.endsWith("/") ? mode.substring(0, mode.length() - 1) : mode;
        if (segment.isEmpty() || segment.contains("/")) {
            return ProblemResponses.unrouted(404, instance);
        }
        return method == HttpMethod.GET || method == HttpMethod.HEAD ? null : ProblemResponses.unrouted(405, instance);
    }

    private WorkRequest parse(String mode, RoutingContext context) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        context.queryParams().forEach((name, value) -> query.computeIfAbsent(name, key -> new ArrayList<>()).add(value));
        return WorkRequest.parse(mode, query, config.defaultMs(), config.maxMs());
    }
}
