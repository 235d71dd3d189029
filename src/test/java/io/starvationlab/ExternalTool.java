package io.starvationlab;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;

import io.starvationlab.experiment.server.ChildProcess;

/**
 * A program a test needs from the machine. One that the project's set-up installs ({@code .ci/with-test-tools})
 * fails the test in CI ({@code CI=true}) when missing and skips it elsewhere, with the reason; one that no
 * registry here ships (k6) skips it everywhere, with one line saying what it would have checked. Never a silent pass.
 */
public final class ExternalTool {

    private ExternalTool() {
    }

    /** The tool; without it the whole test fails in CI and is skipped elsewhere. */
    public static Path require(String name, String installHint) {
        return ChildProcess.onPath(name).orElseGet(() -> skip(missing(name, installHint)));
    }

    /** The tool, or empty after a loud SKIPPED line; in CI a missing tool fails the test. */
    public static Optional<Path> find(String name, String installHint) {
        Optional<Path> found = ChildProcess.onPath(name);
        if (found.isEmpty()) {
            System.out.println("SKIPPED: " + missing(name, installHint));
        }
        return found;
    }

    /** What to say of a missing tool; in CI the test fails here. */
    private static String missing(String name, String installHint) {
        String message = name + " is not on the PATH (" + installHint + ")";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(message + ": required in CI");
        }
        return message;
    }

    /** Skips the test (or, from {@code @BeforeAll}, its class) everywhere, CI included, after one SKIPPED line. */
    public static <T> T skip(String why) {
        System.out.println("SKIPPED: " + why);
        Assumptions.abort(why);
        throw new AssertionError("unreachable");
    }
}
