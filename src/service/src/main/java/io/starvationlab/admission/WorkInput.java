package io.starvationlab.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.runtime.Startup;
import io.starvationlab.config.LabConfig;
import io.starvationlab.service.InvalidRequestException;
import io.starvationlab.service.WorkRequest;
import io.starvationlab.service.WorkService;
import io.vertx.ext.web.RoutingContext;

/**
 * Reads a {@code /work} request JAX-RS has routed, on its event loop: Quarkus starts a virtual thread per
 * request, and under starvation one could not even run to refuse itself before its deadline.
 */
@Startup
@ApplicationScoped
public class WorkInput {

    private static final String WORK_PREFIX = "/work/";

    private final LabConfig.Work config;
    private final WorkService work;

    public WorkInput(LabConfig config, WorkService work) {
        this.config = config.work();
        this.work = work;
    }

    /**
     * The request, as this JVM can run it; a request refused for its input (400, 404 for an unknown mode, 501)
     * throws, and its exception mapper answers it on this event loop.
     */
    WorkRequest read(RoutingContext context) {
        String mode = context.normalizedPath().substring(WORK_PREFIX.length()); // a trailing slash stays: no such mode
        Map<String, List<String>> query = new LinkedHashMap<>();
        try {
            context.queryParams().forEach((name, value) -> query.computeIfAbsent(name, key -> new ArrayList<>()).add(value));
        } catch (IllegalArgumentException undecodable) { // Vert.x could not decode the query (a bad percent-escape)
            throw new InvalidRequestException("query", "is not valid percent-encoding", null);
        }
        return work.runnable(WorkRequest.parse(mode, query, config.defaultMs(), config.maxMs()));
    }
}
