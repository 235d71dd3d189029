package io.starvationlab.harness.junit;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.K6Binary;
import io.starvationlab.harness.Machine;

/**
 * What a test needs from the machine (a program, a JDK), the one place that says what happens without it.
 * What the project's set-up provides ({@code .ci/with-test-tools}) fails the test in CI ({@code CI=true})
 * when missing and skips it elsewhere, with the reason; what no registry here ships (k6) skips it
 * everywhere, with one line saying what it would have checked. Never a silent pass.
 */
public final class Needs {

    private Needs() {
    }

    /** JDK {@code feature} as {@link Jdks} finds it; without it the test fails in CI and is skipped elsewhere. */
    public static Jdks.Jdk jdk(int feature) {
        return Jdks.discover().byFeature(feature).orElseGet(() -> skip(missingInCi("no JDK " + feature + " found (LAB_JDKS or -Dlab.jdks, "
                + "JAVA_HOME, /usr/lib/jvm, SDKMAN, or .ci/fetch-jdks " + feature + " on Linux x86-64)")));
    }

    /** The tool; without it the whole test fails in CI and is skipped elsewhere. */
    public static Path tool(String name, String installHint) {
        return Machine.onPath(name).orElseGet(() -> skip(missingInCi(name + " is not on the PATH (" + installHint + ")")));
    }

    /** The tool, or empty after a loud SKIPPED line; in CI a missing tool fails the test. */
    public static Optional<Path> optionalTool(String name, String installHint) {
        Optional<Path> found = Machine.onPath(name);
        if (found.isEmpty()) {
            System.out.println("SKIPPED: " + missingInCi(name + " is not on the PATH (" + installHint + ")"));
        }
        return found;
    }

    /** The user's k6, or the calling test skipped, in CI too, with one line that says what it {@code wouldCheck} and how to get k6. */
    public static Path k6(String wouldCheck) {
        return K6Binary.find().orElseGet(() -> skip("would check " + wouldCheck + " on a real k6; " + K6Binary.NOT_FOUND + " (get "
                + K6Binary.HOW_TO_GET + ")"));
    }

    /** {@code message} back, or in CI a failure that says it was required. */
    public static String missingInCi(String message) {
        if (Machine.inCi()) {
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
