package io.starvationlab.config;

import java.time.Duration;
import java.util.List;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Everything the lab lets an operator tune, under the {@code lab.} prefix. The switches under
 * {@code lab.faults.} are not tuning: each turns off one guard of the event loops, to reproduce the
 * stall it prevents; all are off by default ({@link Faults}).
 */
@ConfigMapping(prefix = "lab")
public interface LabConfig {

    Work work();

    Downstream downstream();

    Canary canary();

    Pinning pinning();

    Starvation starvation();

    EmbeddedPostgres embeddedPostgres();

    Faults faults();

    interface Work {
        /** Value of {@code ms} when the request gives none. Default 100. */
        @WithDefault("100")
        int defaultMs();

        /** Largest {@code ms} a request may ask for, so one client cannot hold the service longer. Default 30000. */
        @WithDefault("30000")
        int maxMs();

        /** Most {@code /work} requests in flight at once; past it, 503 before a thread is spent. Default 5000. */
        @WithDefault("5000")
        int maxInFlight();

        /**
         * Time past {@code ms} + acquire timeout after which an unanswered request gets 503 and its work
         * is cancelled; under the contract's bound of ms + acquire timeout + 5 s. Default 4s.
         */
        @WithDefault("4s")
        Duration deadlineGrace();
    }

    interface Downstream {
        /** Permits of the FIFO semaphore in front of each downstream; for {@code db} capped at the pool's max size. Default 50. */
        @WithDefault("50")
        int permits();

        /** Longest wait for a permit before the request gets 503. Default 10s. */
        @WithDefault("10s")
        Duration acquireTimeout();

        /** Most requests waiting for a permit at once; past it, 503 at once. Default 4000. */
        @WithDefault("4000")
        int maxWaiting();

        /** Retry-After sent with a 503 that refuses work for now (permits, in-flight bound, deadline). Default 1s. */
        @WithDefault("1s")
        Duration retryAfter();

        /** How long the database breaker stays open after the database failed, answering 503 at once. Default 5s. */
        @WithDefault("5s")
        Duration breakerDelay();
    }

    interface Canary {
        /** Whether the carrier canary runs. Default true. */
        @WithDefault("true")
        boolean enabled();

        /** How often the canary starts a no-op virtual thread. Default 100ms. */
        @WithDefault("100ms")
        Duration interval();
    }

    interface Pinning {
        /** Whether the JFR stream behind {@code /lab/pinning} runs. Default true. */
        @WithDefault("true")
        boolean enabled();

        /** Shortest pinned episode recorded. Default 5ms. */
        @WithDefault("5ms")
        Duration threshold();

        /** Most frame groups kept; the least seen are dropped first. Default 50. */
        @WithDefault("50")
        int maxGroups();

        /**
         * How often JFR starts a new chunk. A JFR consumer keeps every thread it has seen until the chunk
         * ends, and each request runs on a new virtual thread: without rotation, the pinning stream (and
         * Micrometer's) would grow for as long as pins go on. Default 1m.
         */
        @WithDefault("1m")
        Duration chunkRotation();

        /** Frames kept in each group's trimmed stack. Default 12. */
        @WithDefault("12")
        int stackDepth();

        /** Class-name prefixes that are never "the application frame": the JDK, frameworks, drivers, the lab's own clients and their cancellation. */
        @WithDefault("java.,jdk.,sun.,com.sun.,javax.,jakarta.,io.quarkus.,io.vertx.,io.netty.,io.smallrye.,org.jboss.,io.agroal.,org.postgresql.,io.micrometer.,io.starvationlab.downstream.,io.starvationlab.service.Cancellation")
        List<String> skipPackages();
    }

    interface Starvation {
        /** Wait for a carrier (a request's, or the canary's) past which carriers count as starved. Default 1s. */
        @WithDefault("1s")
        Duration threshold();

        Readiness readiness();

        interface Readiness {
            /** Whether readiness goes DOWN while carriers are starved. Default false. */
            @WithDefault("false")
            boolean enabled();
        }
    }

    /** Faults reproduced on purpose, for the experiment and the tests that measure them; applied by {@link FaultSwitches}. */
    interface Faults {
        /**
         * Leaves the writing of an answer computed on a virtual thread to that thread, as Quarkus REST
         * does, instead of to the request's event loop. The writer holds the connection's monitor, which
         * the event loop needs too: under starvation the event loop waits behind a virtual thread that
         * waits for a carrier (docs/service.md, "Answers written by the event loop"). Default false.
         */
        @WithDefault("false")
        boolean virtualThreadWrites();

        /**
         * Leaves {@code ProblemResponses}, which the event loops and the virtual threads share, to be created
         * on its first use, as ArC creates any application-scoped bean, instead of at start-up like every
         * other bean of the lab; a creation on a request's virtual thread then waits midway for a call
         * another thread answers, as a creation that awaits a remote call would. Under starvation the event
         * loops that need the bean wait on ArC's lock for that creation as long as the virtual thread then
         * waits for a carrier (docs/observability.md). Default false.
         */
        @WithDefault("false")
        boolean lazyProblemResponses();
    }

    interface EmbeddedPostgres {
        /**
         * Whether to start an embedded PostgreSQL when {@code quarkus.datasource.jdbc.url} is not set.
         * Read by {@code src/embedded-postgres} before the datasource exists; the images have none. Default true.
         */
        @WithDefault("true")
        boolean enabled();
    }
}
