package io.starvationlab.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.common.annotation.RunOnVirtualThread;

/**
 * Endpoints unrelated to the work: each answers at once, naming the thread that served it. Their
 * latency under load shows who starves: only the virtual one shares the carriers with the work.
 */
@Path("/probe")
@Produces(MediaType.APPLICATION_JSON)
public class ProbeResource {

    /** What served a probe. */
    public record ProbeAnswer(String probe, String thread, boolean virtual) {

        static ProbeAnswer of(String probe) {
            Thread thread = Thread.currentThread();
            return new ProbeAnswer(probe, thread.getName(), thread.isVirtual());
        }
    }

    @GET
    @Path("/virtual")
    @RunOnVirtualThread
    public ProbeAnswer virtual() {
        return ProbeAnswer.of("virtual");
    }

    @GET
    @Path("/worker")
    @Blocking
    public ProbeAnswer worker() {
        return ProbeAnswer.of("worker");
    }

    /**
     * Written by hand, not by Jackson: Jackson's serializer cache has a lock that virtual threads take
     * too, and one of them holding it while it waits for a starved carrier stalled the event loop.
     */
    @GET
    @Path("/event-loop")
    @NonBlocking
    public String eventLoop() {
        Thread thread = Thread.currentThread();
        return "{\"probe\":\"event-loop\",\"thread\":\"" + thread.getName().replace("\\", "\\\\").replace("\"", "\\\"")
                + "\",\"virtual\":" + thread.isVirtual() + "}";
    }
}
