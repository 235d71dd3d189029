package io.starvationlab.database;

/**
 * The embedded PostgreSQL of a laptop run or a test. Only the default build has one
 * ({@code src/service/src/main/embedded-postgres}); the images are built without it ({@code -Pcontainer}).
 */
public interface EmbeddedDatabase {

    /** Whether this build can start an embedded PostgreSQL. */
    boolean available();

    /** Whether this JVM started one, and the datasource points at it. */
    boolean running();
}
