package io.starvationlab.database.embedded;

import java.io.IOException;
import java.time.Duration;

import org.jboss.logging.Logger;

/**
 * The embedded PostgreSQL of a laptop run or a test: one real server per JVM, started on demand
 * and stopped at shutdown, so nothing outlives the service.
 */
final class EmbeddedPostgres {

    private static final Logger LOG = Logger.getLogger(EmbeddedPostgres.class);
    /** Longer than quarkus.shutdown.timeout, so in-flight requests keep their database while they drain. */
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(15);
    private static io.zonky.test.db.postgres.embedded.EmbeddedPostgres running;
    private static Thread shutdownHook;

    private EmbeddedPostgres() {
    }

    /** Starts the server unless it runs already, and returns its JDBC URL. */
    static synchronized String startOnce() {
        if (running == null) {
            long start = System.nanoTime();
            try {
                running = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                        .setServerConfig("max_connections", "300")
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .setServerConfig("full_page_writes", "off")
                        // its own hook would stop the server the moment SIGTERM arrives, cutting the
                        // connections of requests still draining; ours below waits for the application
                        .setRegisterShutdownHook(false)
                        .start();
            } catch (IOException e) {
                throw new IllegalStateException("Could not start the embedded PostgreSQL: " + e.getMessage(), e);
            }
            shutdownHook = new Thread(EmbeddedPostgres::stopAfterGracePeriod, "lab-embedded-postgres-stop");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
            LOG.infof("Embedded PostgreSQL started on port %d in %d ms (set quarkus.datasource.jdbc.url to use another database)",
                    running.getPort(), (System.nanoTime() - start) / 1_000_000);
        }
        return "jdbc:postgresql://localhost:" + running.getPort() + "/postgres";
    }

    static synchronized boolean isRunning() {
        return running != null;
    }

    /** Stops the server if this JVM started one; safe to call more than once. */
    static synchronized void stop() {
        if (running == null) {
            return;
        }
        try {
            running.close();
            LOG.info("Embedded PostgreSQL stopped");
        } catch (IOException e) {
            LOG.warnf("Embedded PostgreSQL did not stop cleanly: %s", e.getMessage());
        } finally {
            running = null;
            removeShutdownHook();
        }
    }

    /**
     * The JVM's last resort, for when the application never shut down properly. On SIGTERM the JVM
     * runs every shutdown hook at once; this one gives the application's own shutdown (which drains
     * requests, then stops the database) its grace period before stopping the database itself.
     */
    private static void stopAfterGracePeriod() {
        long deadline = System.nanoTime() + SHUTDOWN_GRACE.toNanos();
        while (isRunning() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                break;
            }
        }
        stop();
    }

    private static void removeShutdownHook() {
        if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook runs now or ran already
            }
        }
        shutdownHook = null;
    }
}
