package io.starvationlab.rest;

import java.util.List;
import java.util.Map;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.RunOnVirtualThread;
import io.starvationlab.config.LabConfig;
import io.starvationlab.downstream.CancelledException;
import io.starvationlab.downstream.Cancellation;
import io.starvationlab.service.InvalidRequestException;
import io.starvationlab.service.Mode;
import io.starvationlab.service.WorkRequest;
import io.starvationlab.service.WorkResult;
import io.starvationlab.service.WorkService;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /work/{mode}}: one unit of work, on a virtual thread for every mode but {@code platform},
 * which runs on the worker pool as the pre-virtual-thread baseline.
 */
@Path("/work")
@Produces(MediaType.APPLICATION_JSON)
public class WorkResource {

    private final WorkService work;
    private final LabConfig.Work settings;

    public WorkResource(WorkService work, LabConfig config) {
        this.work = work;
        this.settings = config.work();
    }

    @GET
    @Path("/{mode}")
    @RunOnVirtualThread
    public WorkResult onVirtualThread(@PathParam("mode") String mode, @Context UriInfo uri, @Context RoutingContext http) {
        return run(mode, uri, http);
    }

    @GET
    @Path("/platform")
    @Blocking
    public WorkResult onWorkerPool(@Context UriInfo uri, @Context RoutingContext http) {
        return run(Mode.PLATFORM.label(), uri, http);
    }

    private WorkResult run(String mode, UriInfo uri, RoutingContext http) {
        WorkRequest request = WorkRequest.parse(mode, queryOf(uri), settings.defaultMs(), settings.maxMs());
        Cancellation cancellation = WorkAdmission.cancellationOf(http);
        if (cancellation.isCancelled()) {
            throw new CancelledException(); // answered already (deadline) or nobody is listening
        }
        return work.run(request, cancellation);
    }

    private static Map<String, List<String>> queryOf(UriInfo uri) {
        try {
            return uri.getQueryParameters();
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("query", "is not valid percent-encoding", null);
        }
    }
}
