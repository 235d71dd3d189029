package io.starvationlab.downstream;

import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.jboss.logging.Logger;

import io.quarkus.runtime.Startup;
import io.smallrye.faulttolerance.api.Guard;
import io.starvationlab.config.LabConfig;

/**
 * The only way to a downstream: a permit first, then the call, timed. Calls to the database also
 * pass a circuit breaker, so that once the database is found dead the next requests get 503 at once
 * instead of each holding a permit for the pool's acquisition timeout.
 */
@Startup
@ApplicationScoped
public class DownstreamGateway {

    private static final Logger LOG = Logger.getLogger(DownstreamGateway.class);

    private final Map<Downstream, DownstreamClient> clients = new EnumMap<>(Downstream.class);
    private final Map<Downstream, Permits> permits = new EnumMap<>(Downstream.class);
    private final DownstreamMeters meters;
    private final Guard databaseBreaker;
    private final LabConfig config;
    private final int poolMaxSize;

    public DownstreamGateway(Instance<DownstreamClient> clients, DatabaseClient database, DownstreamMeters meters, LabConfig config) {
        this.meters = meters;
        this.config = config;
        this.poolMaxSize = database.poolMaxSize();
        clients.forEach(client -> this.clients.put(client.kind(), client));
        LabConfig.Downstream settings = config.downstream();
        for (Downstream kind : Downstream.values()) {
            int size = settings.permits();
            if (kind == Downstream.DB && size > database.poolMaxSize()) {
                LOG.warnf("lab.downstream.permits=%d exceeds the pool's max size %d: db calls get %d permits",
                        size, database.poolMaxSize(), database.poolMaxSize());
                size = database.poolMaxSize();
            }
            Permits bounded = new Permits(kind, size, settings.maxWaiting(), settings.acquireTimeout(), settings.retryAfter());
            permits.put(kind, bounded);
            meters.bind(bounded);
        }
        this.databaseBreaker = Guard.create()
                .withDescription("database")
                .withCircuitBreaker()
                .requestVolumeThreshold(8)
                .failureRatio(0.5)
                .delay(settings.breakerDelay().toMillis(), ChronoUnit.MILLIS)
                .when(DownstreamGateway::isDatabaseFailure)
                .done()
                .build();
    }

    /**
     * Takes a permit, makes the call and gives the permit back, whatever happens.
     *
     * @param mode the work mode that wraps the call, for the {@code lab.downstream.call} timer
     * @return nanoseconds spent waiting for the permit
     */
    public long callWithPermit(String mode, Downstream kind, int ms, CallGuard guard) {
        try {
            return kind == Downstream.DB
                    ? databaseBreaker.call(() -> holdPermitAndCall(mode, kind, ms, guard), Long.class)
                    : holdPermitAndCall(mode, kind, ms, guard);
        } catch (CircuitBreakerOpenException e) {
            throw rejected(new RejectedException(RejectedException.Reason.BREAKER_OPEN,
                    "the database failed recently; calls resume after " + config.downstream().breakerDelay().toMillis() + " ms",
                    config.downstream().breakerDelay(), e), kind);
        } catch (RejectedException e) {
            throw rejected(e, kind);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("downstream call failed", e);
        }
    }

    private long holdPermitAndCall(String mode, Downstream kind, int ms, CallGuard guard) throws Exception {
        Permits bounded = permits.get(kind);
        long waited = bounded.acquire(guard);
        meters.recordPermitWait(kind, waited);
        try {
            long start = System.nanoTime();
            clients.get(kind).awaitAnswer(ms, guard);
            meters.recordCall(mode, kind, System.nanoTime() - start);
            return waited;
        } finally {
            bounded.release();
        }
    }

    private RejectedException rejected(RejectedException e, Downstream kind) {
        meters.recordRejection(e.reason(), kind);
        return e;
    }

    private static boolean isDatabaseFailure(Throwable e) {
        return e instanceof RejectedException rejected && rejected.reason() == RejectedException.Reason.DATABASE_UNAVAILABLE;
    }

    /** Every downstream's permits: {@code db}'s are capped at the pool's max size. */
    public Map<Downstream, Integer> permitLimits() {
        Map<Downstream, Integer> limits = new EnumMap<>(Downstream.class);
        permits.forEach((kind, bounded) -> limits.put(kind, bounded.size()));
        return Collections.unmodifiableMap(limits);
    }

    /** The database pool's most connections. */
    public int poolMaxSize() {
        return poolMaxSize;
    }
}
