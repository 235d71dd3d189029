package io.starvationlab.rest;

import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.ext.RuntimeDelegate;

import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.jboss.resteasy.reactive.server.core.CurrentRequestManager;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.runtime.StartupEvent;
import io.starvationlab.config.FaultSwitches;
import io.starvationlab.service.WorkResult;

/**
 * Hands the writing of every answer computed on a virtual thread to the request's event loop, so that
 * no virtual thread ever holds a lock the event loop needs.
 * <p>
 * Vert.x guards each connection with a monitor: the thread that writes a response takes it, and so
 * does the event loop for every event of the connection. Quarkus REST writes from the request's
 * thread. On JDK 24+ a virtual thread that blocks on a monitor gives up its carrier, and under
 * starvation it then waits seconds for one; the event loop queues for the monitor behind it, and with
 * the event loop every connection it serves stops: deadlines, {@code /probe/event-loop} and
 * {@code /q/health} included (the experiment's {@code native-http2} phases measure it).
 * <p>
 * The filter runs last on the virtual thread: the answer is built there, exception mappers included;
 * suspending the request and resuming it on the event loop's executor makes Quarkus REST run the rest
 * of the chain, serialisation and writing, on the event loop. The types it serialises there are
 * warmed at start-up, so the event loop never waits for Jackson's serializer-cache lock either.
 */
public class EventLoopWrites {

    private final boolean enabled;

    public EventLoopWrites(FaultSwitches faults) {
        this.enabled = faults.writeOnEventLoop();
    }

    /** Runs after every other response filter (they run in descending priority). */
    @ServerResponseFilter(priority = Integer.MIN_VALUE)
    public void writeOnEventLoop() {
        if (!enabled || !Thread.currentThread().isVirtual()) {
            return;
        }
        ResteasyReactiveRequestContext context = CurrentRequestManager.get();
        context.suspend();
        context.resume(context.getContextExecutor());
    }

    /**
     * Also creates JAX-RS's {@link RuntimeDelegate}, which every {@code Response.status} needs and which
     * it creates on first use under a lock: begun by a virtual thread that then waited for a starved
     * carrier, it held the event loops' exception mappers for 3-6 s (seen in {@code ColdStartIT}).
     */
    void warm(@Observes StartupEvent event, ObjectMapper json) throws JsonProcessingException {
        RuntimeDelegate.getInstance();
        json.writeValueAsBytes(new WorkResult("unpinned", "sleep", "none", 0, 0, 0, "warm-up", true, "warm-up"));
        json.writeValueAsBytes(ProbeResource.ProbeAnswer.of("warm-up", "warm-up"));
    }
}
