package io.starvationlab.harness;

import java.nio.file.Path;

/**
 * Where the repository's parts are, for every test and for the experiment: the root is {@code starvationlab.root}
 * (the build sets it to the repository's root), else the working directory.
 */
public final class Project {

    private Project() {
    }

    public static Path root() {
        return Path.of(System.getProperty("starvationlab.root", ".")).toAbsolutePath().normalize();
    }

    /** A path under the root, e.g. {@code resolve("k6/plan.json")}. */
    public static Path resolve(String relative) {
        return root().resolve(relative);
    }

    /** The k6 suite (its plan and cases: {@code Plan.file()}, {@code Plan.caseFile}). */
    public static Path k6() {
        return resolve("k6");
    }

    /** Where a test run's server logs go: {@code target/it-logs} of the module running it. */
    public static Path testLogs() {
        return Path.of("target", "it-logs").toAbsolutePath();
    }
}
