package io.starvationlab.database.embedded;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.common.MapBackedConfigSource;

/**
 * The embedded default: when no {@code quarkus.datasource.jdbc.url} is configured (a laptop, the tests),
 * starts an embedded PostgreSQL and points the datasource at it. Runs while the runtime configuration
 * is built, before the datasource is created. With a URL configured, or with
 * {@code lab.embedded-postgres.enabled=false} (Kubernetes), it does nothing.
 */
public class EmbeddedPostgresConfigSourceFactory implements ConfigSourceFactory {

    /** The source's name, by which the service tells that its datasource points here (its EmbeddedDatabase). */
    static final String SOURCE = "lab-embedded-postgres";
    static final String URL = "quarkus.datasource.jdbc.url";
    static final String ENABLED = "lab.embedded-postgres.enabled";
    private static final String RUNTIME_CONFIG = "io.quarkus.runtime.generated.Config";
    /** Below application.properties (250), so anything configured there or in the environment wins. */
    private static final int ORDINAL = 150;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        if (!buildingApplicationRuntimeConfig() || isSet(context.getValue(URL))
                || "false".equalsIgnoreCase(valueOf(context.getValue(ENABLED)))) {
            return List.of();
        }
        String url = EmbeddedPostgres.startOnce();
        // named SOURCE exactly (a PropertiesConfigSource would wrap the name)
        return List.of(new MapBackedConfigSource(SOURCE, Map.of(URL, url, "quarkus.datasource.username", "postgres"), ORDINAL) {
        });
    }

    /**
     * Quarkus also asks config source factories while it builds the application (a database started
     * then would die with the build, and its URL would be recorded as a default) and while a test
     * launcher reads its settings. Only the application's own runtime configuration, built by the
     * generated {@code io.quarkus.runtime.generated.Config}, gets a database.
     */
    private static boolean buildingApplicationRuntimeConfig() {
        return StackWalker.getInstance().walk(frames -> frames.anyMatch(frame -> frame.getClassName().equals(RUNTIME_CONFIG)));
    }

    private static boolean isSet(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank();
    }

    private static String valueOf(ConfigValue value) {
        return value == null ? null : value.getValue();
    }
}
