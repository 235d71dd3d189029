package io.starvationlab.downstream;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.Startup;
import io.starvationlab.config.LabConfig;

/**
 * {@code SELECT pg_sleep(?)} through the Agroal pool. Every failure to get or use a connection is
 * a {@link RejectedException} (503): the pool's acquisition timeout bounds how long a dead database
 * can hold a request, and a network timeout bounds a call to a database that stopped answering.
 */
@Startup
@ApplicationScoped
public class DatabaseClient implements DownstreamClient {

    /** Slack on top of {@code ms} before a silent connection is given up. */
    private static final int NETWORK_SLACK_MS = 5_000;
    private static final long CANCEL_RETRY_MILLIS = 50;
    /** At most one warning per this many nanoseconds: a dead database fails every call. */
    private static final long WARN_EVERY_NANOS = Duration.ofSeconds(10).toNanos();
    private static final Logger LOG = Logger.getLogger(DatabaseClient.class);

    private final AgroalDataSource dataSource;
    private final Duration retryAfter;
    /** Sends cancel requests to PostgreSQL, which opens a socket: never on the event loop. */
    private final AtomicLong lastWarnedAt = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);
    private final ExecutorService canceller = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("lab-db-cancel-", 0).factory());

    public DatabaseClient(AgroalDataSource dataSource, LabConfig config) {
        this.dataSource = dataSource;
        this.retryAfter = config.downstream().breakerDelay();
    }

    @Override
    public Downstream kind() {
        return Downstream.DB;
    }

    public int poolMaxSize() {
        return dataSource.getConfiguration().connectionPoolConfiguration().maxSize();
    }

    @Override
    public void awaitAnswer(int ms, CallGuard guard) throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            connection.setNetworkTimeout(Runnable::run, ms + NETWORK_SLACK_MS);
            try (PreparedStatement statement = connection.prepareStatement("SELECT pg_sleep(?)")) {
                statement.setDouble(1, ms / 1000.0);
                AtomicBoolean finished = new AtomicBoolean();
                try {
                    guard.guard(() -> cancelUntilFinished(statement, finished), () -> {
                        try (ResultSet result = statement.executeQuery()) {
                            return result.next();
                        }
                    });
                } finally {
                    finished.set(true);
                }
            }
        } catch (SQLException e) {
            if (guard.isCancelled()) {
                throw guard.abandoned(); // whatever the driver says, the call ended because it was abandoned
            }
            warn(e);
            throw new RejectedException(RejectedException.Reason.DATABASE_UNAVAILABLE,
                    "the database call failed: " + e.getMessage(), retryAfter, e);
        }
    }

    /** The server's log says why calls were answered 503 database-unavailable, at most once per 10 s. */
    private void warn(SQLException e) {
        long last = lastWarnedAt.get();
        long now = System.nanoTime();
        if (now - last >= WARN_EVERY_NANOS && lastWarnedAt.compareAndSet(last, now)) {
            LOG.warnf("A database call failed (answered 503 database-unavailable; further failures within 10 s not logged): %s", e.toString());
        }
    }

    /**
     * Sends PostgreSQL cancel requests until the statement has ended: a cancel that arrives before the
     * query runs on the server cancels nothing, and the call would hold its permit for all of {@code ms}.
     */
    private void cancelUntilFinished(PreparedStatement statement, AtomicBoolean finished) {
        try {
            canceller.execute(() -> {
                while (!finished.get()) {
                    try {
                        statement.cancel();
                    } catch (SQLException ignored) {
                        // its connection is gone: the statement ends on its own
                    }
                    try {
                        Thread.sleep(CANCEL_RETRY_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        } catch (RejectedExecutionException shuttingDown) {
            // the service stops: its connections close with it
        }
    }

    @PreDestroy
    void stop() {
        canceller.shutdownNow();
    }
}
