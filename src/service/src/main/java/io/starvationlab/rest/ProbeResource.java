package io.starvationlab.rest;

import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

import io.quarkus.runtime.Startup;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.common.annotation.RunOnVirtualThread;
import io.starvationlab.admission.Admitted;
import io.starvationlab.admission.EventLoops;
import io.starvationlab.admission.HandOff;
import io.vertx.ext.web.RoutingContext;

/**
 * Endpoints unrelated to the work: each answers at once, naming the thread that served it. Their
 * latency under load shows who starves: only the virtual one shares the carriers with the work.
 */
@Singleton
@Startup
@Path("/probe")
@Produces(MediaType.APPLICATION_JSON)
public class ProbeResource {

    /**
     * What served a probe.
     *
     * @param eventLoop the event loop that serves the request's connection: the queue through which its
     *                  virtual thread, if any, reached the carriers
     */
    public record ProbeAnswer(String probe, String thread, boolean virtual, String eventLoop) {

        static ProbeAnswer of(String probe, String eventLoop) {
            Thread thread = Thread.currentThread();
            return new ProbeAnswer(probe, thread.getName(), thread.isVirtual(), eventLoop);
        }
    }

    @GET
    @Path("/virtual")
    @RunOnVirtualThread
    @HandOff.Probe
    public ProbeAnswer virtual(@Context RoutingContext http) {
        Admitted.running(http);
        return ProbeAnswer.of("virtual", EventLoops.of(http));
    }

    @GET
    @Path("/worker")
    @Blocking
    public ProbeAnswer worker(@Context RoutingContext http) {
        return ProbeAnswer.of("worker", EventLoops.of(http));
    }

    /**
     * Written by hand, not by Jackson: Jackson's serializer cache has a lock that virtual threads take
     * too, and one of them holding it while it waits for a starved carrier stalled the event loop.
     */
    @GET
    @Path("/event-loop")
    @NonBlocking
    public String eventLoop(@Context RoutingContext http) {
        Thread thread = Thread.currentThread();
        return "{\"probe\":\"event-loop\",\"thread\":" + quoted(thread.getName()) + ",\"virtual\":" + thread.isVirtual()
                + ",\"eventLoop\":" + quoted(EventLoops.of(http)) + "}";
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
