package example.quarkus;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import io.smallrye.common.annotation.RunOnVirtualThread;

/**
 * A service written as users write one, with no code of the lab: every endpoint on a virtual thread, the
 * starvation meter bound by its dependency alone, {@code /q/metrics} on the same port, run by the worker pool
 * (platform threads). Request-scoped, so each request has an instance of its own to lock.
 *
 * <pre>
 * GET /hello          answers at once: the endpoint starvation slows
 * GET /sleep?ms=100   a plain blocking call: its virtual thread unmounts
 * GET /sync?ms=100    the same call inside synchronized on the request's own object: pins its carrier on JDK 21-23
 * GET /cpu?ms=100     ms of computation: holds its carrier on every JDK
 * GET /q/metrics
 * </pre>
 */
@Path("/")
@RequestScoped
@RunOnVirtualThread
public class ExampleResource {

    static volatile long sink;

    @GET
    @Path("hello")
    public String hello() {
        return "hello from " + Thread.currentThread();
    }

    @GET
    @Path("sleep")
    public String sleep(@QueryParam("ms") @DefaultValue("100") int ms) throws InterruptedException {
        Thread.sleep(checked(ms));
        return "slept " + ms + " ms";
    }

    @GET
    @Path("sync")
    public String sync(@QueryParam("ms") @DefaultValue("100") int ms) throws InterruptedException {
        synchronized (this) {
            Thread.sleep(checked(ms));
        }
        return "slept " + ms + " ms in synchronized";
    }

    @GET
    @Path("cpu")
    public String cpu(@QueryParam("ms") @DefaultValue("100") int ms) {
        long deadline = System.nanoTime() + checked(ms) * 1_000_000L;
        long x = 17;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 1_000; i++) {
                x = x * 31 + i;
            }
        }
        sink = x;
        return "computed for " + ms + " ms";
    }

    private static int checked(int ms) {
        if (ms < 0 || ms > 30_000) {
            throw new BadRequestException("ms must be 0-30000");
        }
        return ms;
    }
}
