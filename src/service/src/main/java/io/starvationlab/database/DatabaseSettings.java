package io.starvationlab.database;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.Optional;

import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;
import io.starvationlab.config.LabConfig;

/**
 * Refuses to start without a database, or against an external one without credentials (there are no
 * defaults to fall back on).
 */
@Startup
@ApplicationScoped
public class DatabaseSettings {

    private final EmbeddedDatabase embedded;
    private final boolean embeddedEnabled;
    private final Optional<String> url;
    private final Optional<String> username;
    private final Optional<String> password;

    public DatabaseSettings(EmbeddedDatabase embedded, LabConfig config, @ConfigProperty(name = "quarkus.datasource.jdbc.url") Optional<String> url,
            @ConfigProperty(name = "quarkus.datasource.username") Optional<String> username,
            @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        this.embedded = embedded;
        this.embeddedEnabled = config.embeddedPostgres().enabled();
        this.url = url;
        this.username = username;
        this.password = password;
    }

    void check(@Observes @Priority(1) StartupEvent event) {
        if (embedded.running()) {
            return;
        }
        if (url.isEmpty()) {
            // enabled and none running: this build has none to start
            throw new IllegalStateException("No database configured: set QUARKUS_DATASOURCE_JDBC_URL, "
                    + "QUARKUS_DATASOURCE_USERNAME and QUARKUS_DATASOURCE_PASSWORD, " + (embeddedEnabled
                            ? "as this build has no embedded PostgreSQL"
                            : "or leave lab.embedded-postgres.enabled=true to start an embedded PostgreSQL (not in the images)"));
        }
        if (username.isEmpty() || password.isEmpty()) {
            throw new IllegalStateException("The database at " + url.get() + " needs credentials: set QUARKUS_DATASOURCE_USERNAME "
                    + "and QUARKUS_DATASOURCE_PASSWORD (there are no default credentials)");
        }
    }
}
