package io.starvationlab.admission;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.netty.util.concurrent.EventExecutor;
import io.quarkus.runtime.Startup;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Which event loop serves a request's connection, and how many there are. Each event loop hands the
 * virtual threads it starts to the carriers through a queue of its own, so the event loop says which
 * queue an unrelated request waited in.
 * <p>
 * The name is taken on the event loop when the request arrives and only read later: a virtual thread
 * that asked the connection itself would take the connection's monitor (see {@link EventLoopWrites}).
 */
@Startup
@ApplicationScoped
public class EventLoops {

    /** Where the resource finds the name of the request's event loop. */
    static final String EVENT_LOOP = "lab.eventLoop";

    private final int count;

    public EventLoops(Vertx vertx) {
        int loops = 0;
        for (EventExecutor ignored : ((VertxInternal) vertx).getEventLoopGroup()) {
            loops++;
        }
        this.count = loops;
    }

    /** The event loops Vert.x runs: {@code quarkus.vertx.event-loops-pool-size}; Quarkus' default is the processors, at least 2. */
    public int count() {
        return count;
    }

    /** The event loop that accepted the request, or "unknown" for a request that did not pass {@link #install}. */
    public static String of(RoutingContext context) {
        String name = context.get(EVENT_LOOP);
        return name == null ? "unknown" : name;
    }

    void install(@Observes Router router) {
        router.route("/probe/*").order(Integer.MIN_VALUE).handler(this::capture);
    }

    private void capture(RoutingContext context) {
        // route handlers run on the connection's event loop; the check keeps a future change of that honest
        context.put(EVENT_LOOP, Context.isOnEventLoopThread() ? Thread.currentThread().getName() : "unknown");
        context.next();
    }
}
