package io.starvationlab.database;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.AgroalDataSource.FlushMode;
import io.quarkus.runtime.Startup;

/**
 * Fills the pool to its minimum once the database answers. Agroal fills it once at start-up (initial-size) and again
 * after a flush, both while the database may be down (a pod that starts before PostgreSQL, a PostgreSQL restart); after
 * that it opens one connection per acquisition below min-size, so a pool emptied by an outage would take one connection
 * per request to refill. Readiness does not ask the database (application.properties), so nothing else would.
 */
@Startup
@ApplicationScoped
public class PoolFiller {

    /** How often the pool's size is looked at: a database back after an outage fills it within this and the fill itself. */
    static final Duration CHECK_EVERY = Duration.ofSeconds(2);
    private static final Logger LOG = Logger.getLogger(PoolFiller.class);

    private final AgroalDataSource dataSource;
    private final int minSize;
    private final ScheduledExecutorService checker = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("lab-db-fill").factory());
    private boolean answering = true;

    public PoolFiller(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
        this.minSize = dataSource.getConfiguration().connectionPoolConfiguration().minSize();
    }

    @PostConstruct
    void start() {
        checker.scheduleWithFixedDelay(this::fillIfShort, CHECK_EVERY.toMillis(), CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Open connections, idle or in use (Agroal's metrics, on in application.properties). */
    int open() {
        return (int) (dataSource.getMetrics().availableCount() + dataSource.getMetrics().activeCount());
    }

    private void fillIfShort() {
        if (open() >= minSize) {
            return;
        }
        try {
            // one new connection first: a database that does not answer costs one attempt, not min-size of them
            if (dataSource.isHealthy(true)) {
                dataSource.flush(FlushMode.FILL);
                if (!answering) {
                    LOG.infof("The database answers again: filling the pool to its minimum of %d connections", minSize);
                }
                answering = true;
            }
        } catch (SQLException | RuntimeException e) {
            if (answering) {
                LOG.warnf("The pool holds %d of its %d connections and the database does not answer: trying again every %d s (%s)",
                        open(), minSize, CHECK_EVERY.toSeconds(), e.toString());
            }
            answering = false;
        }
    }

    @PreDestroy
    void stop() {
        checker.shutdownNow();
    }
}
