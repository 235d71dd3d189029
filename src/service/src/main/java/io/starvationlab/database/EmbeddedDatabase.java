package io.starvationlab.database;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.Config;

import io.quarkus.runtime.Startup;

/**
 * The embedded PostgreSQL of a laptop run or a test, as the service sees it. {@code src/embedded-postgres}, a
 * dependency of every build but the images' ({@code -Pcontainer}), starts one when no URL is configured and points
 * the datasource at it through a configuration source of its own, named {@link #SOURCE}.
 */
@Startup
@ApplicationScoped
public class EmbeddedDatabase {

    static final String SOURCE = "lab-embedded-postgres";

    private final Config config;

    public EmbeddedDatabase(Config config) {
        this.config = config;
    }

    /** Whether this JVM started one, and the datasource points at it. */
    public boolean running() {
        return SOURCE.equals(config.getConfigValue("quarkus.datasource.jdbc.url").getSourceName());
    }
}
