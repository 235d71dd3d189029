package io.starvationlab.rest;

import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

import io.quarkus.runtime.Startup;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.RunOnVirtualThread;
import io.starvationlab.admission.Admitted;
import io.starvationlab.admission.HandOff;
import io.starvationlab.service.CancelledException;
import io.starvationlab.service.WorkResult;
import io.starvationlab.service.WorkService;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /work/{mode}}: one unit of work, on a virtual thread for every mode but {@code platform},
 * which runs on the worker pool as the pre-virtual-thread baseline. The request comes parsed and
 * bounded from its event loop ({@link HandOff.Work}); the resource runs it.
 */
@Singleton
@Startup
@Path("/work")
@Produces(MediaType.APPLICATION_JSON)
public class WorkResource {

    private final WorkService work;

    public WorkResource(WorkService work) {
        this.work = work;
    }

    @GET
    @Path("/{mode}")
    @RunOnVirtualThread
    @HandOff.Work
    public WorkResult onVirtualThread(@Context RoutingContext http) {
        return run(Admitted.running(http));
    }

    @GET
    @Path("/platform")
    @Blocking
    @HandOff.Work
    public WorkResult onWorkerPool(@Context RoutingContext http) {
        return run(Admitted.running(http));
    }

    private WorkResult run(Admitted admitted) {
        if (admitted.cancellation().isCancelled()) {
            throw new CancelledException(); // answered already (deadline) or nobody is listening
        }
        return work.run(admitted.request(), admitted.cancellation());
    }
}
