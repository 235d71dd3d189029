package io.starvationlab.database;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.DefaultBean;
import io.quarkus.runtime.Startup;

/**
 * A build without the embedded PostgreSQL (the images): the database is always an external one.
 */
@DefaultBean
@Startup
@ApplicationScoped
public class NoEmbeddedDatabase implements EmbeddedDatabase {

    @Override
    public boolean available() {
        return false;
    }

    @Override
    public boolean running() {
        return false;
    }
}
