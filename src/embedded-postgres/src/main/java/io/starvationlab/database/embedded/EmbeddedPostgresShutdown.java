package io.starvationlab.database.embedded;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;

/** Stops the embedded PostgreSQL after everything else of the application has shut down. */
@Startup
@ApplicationScoped
public class EmbeddedPostgresShutdown {

    void stop(@Observes @Priority(Integer.MAX_VALUE) ShutdownEvent event) {
        EmbeddedPostgres.stop();
    }
}
