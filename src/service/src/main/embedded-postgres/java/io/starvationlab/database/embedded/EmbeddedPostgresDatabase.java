package io.starvationlab.database.embedded;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.starvationlab.database.EmbeddedDatabase;

/**
 * The default build's embedded PostgreSQL, as the rest of the service sees it; stops the server after
 * everything else has shut down.
 */
@Startup
@ApplicationScoped
public class EmbeddedPostgresDatabase implements EmbeddedDatabase {

    @Override
    public boolean available() {
        return true;
    }

    @Override
    public boolean running() {
        return EmbeddedPostgres.isRunning();
    }

    void stop(@Observes @Priority(Integer.MAX_VALUE) ShutdownEvent event) {
        EmbeddedPostgres.stop();
    }
}
