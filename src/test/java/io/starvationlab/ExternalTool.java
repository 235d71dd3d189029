package io.starvationlab;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;

import io.starvationlab.experiment.server.ChildProcess;

/**
 * A program a test needs from the machine. Missing in CI ({@code CI=true}) it fails the test; missing
 * elsewhere it aborts the test as skipped, with the reason in the report: never a silent pass.
 */
public final class ExternalTool {

    private ExternalTool() {
    }

    /** The tool; without it the whole test fails in CI and is skipped elsewhere. */
    public static Path require(String name, String installHint) {
        Optional<Path> found = find(name, installHint);
        if (found.isEmpty()) {
            Assumptions.abort(name + " is not on the PATH (" + installHint + ")");
        }
        return found.get();
    }

    /** The tool from the PATH, else {@code elsewhere}; without either the whole test fails in CI and is skipped elsewhere. */
    public static Path require(String name, String installHint, Path elsewhere) {
        Optional<Path> found = ChildProcess.onPath(name).or(() -> Optional.of(elsewhere).filter(Files::isExecutable));
        if (found.isEmpty()) {
            String message = name + " is neither on the PATH nor at " + elsewhere.toAbsolutePath().normalize() + " (" + installHint + ")";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(message + ": required in CI");
            }
            Assumptions.abort(message);
        }
        return found.get();
    }

    /** The tool, or empty after a loud SKIPPED line; in CI a missing tool fails the test. */
    public static Optional<Path> find(String name, String installHint) {
        Optional<Path> found = ChildProcess.onPath(name);
        if (found.isEmpty()) {
            String message = name + " is not on the PATH (" + installHint + ")";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(message + ": required in CI");
            }
            System.err.println("SKIPPED: " + message);
        }
        return found;
    }

}
