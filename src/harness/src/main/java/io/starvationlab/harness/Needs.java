package io.starvationlab.harness;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;


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
        return ChildProcess.onPath(name).orElseGet(() -> skip(missingInCi(name + " is not on the PATH (" + installHint + ")")));
    }

    /** The tool, or empty after a loud SKIPPED line; in CI a missing tool fails the test. */
    public static Optional<Path> optionalTool(String name, String installHint) {
        Optional<Path> found = ChildProcess.onPath(name);
        if (found.isEmpty()) {
            System.out.println("SKIPPED: " + missingInCi(name + " is not on the PATH (" + installHint + ")"));
        }
        return found;
    }

    /** Whether this is a CI run ({@code CI=true}), where what the set-up provides must be there. */
    public static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** {@code message} back, or in CI a failure that says it was required. */
    public static String missingInCi(String message) {
        if (inCi()) {
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
