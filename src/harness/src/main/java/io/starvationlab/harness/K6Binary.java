package io.starvationlab.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The user's own k6, the one lookup of it: {@code K6_BINARY} when set, else {@code k6} on the PATH. No
 * registry these machines reach ships k6, so without it the k6 parts of the tests and of the main job are
 * reported as not run, never as failed.
 */
public final class K6Binary {

    /** What a report and a skipped test say when there is no k6. */
    public static final String NOT_FOUND = "no k6 on the PATH";
    /** How a user gets the k6 the suite is tested with. */
    public static final String HOW_TO_GET = "k6 2.2.0 from https://github.com/grafana/k6/releases or Grafana's package repositories "
            + "(https://grafana.com/docs/k6/latest/set-up/install-k6/), on the PATH or as K6_BINARY";

    private K6Binary() {
    }

    /** The k6 executable: {@code K6_BINARY} when set (it must then be executable), else {@code k6} on the PATH. */
    public static Optional<Path> find() {
        String override = System.getenv("K6_BINARY");
        if (override != null && !override.isBlank()) {
            Path binary = Path.of(override);
            if (!Files.isExecutable(binary)) {
                throw new IllegalStateException("K6_BINARY=" + override + " is not an executable file");
            }
            return Optional.of(binary);
        }
        return Machine.onPath("k6");
    }
}
