package io.starvationlab.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs {@code jcmd} of the JDK running the tests against another JVM, and returns what it printed. */
public final class Jcmd {

    private Jcmd() {
    }

    /** {@code jcmd <pid> <command...>}; fails with its output when it does not succeed within a minute. */
    public static String run(long pid, String... command) {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), String.valueOf(pid)));
        line.addAll(List.of(command));
        ChildProcess.Result result = ChildProcess.of(line).run(Duration.ofSeconds(60));
        if (result.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", line) + " failed with " + result.exitCode() + ": " + result.output());
        }
        return result.output();
    }
}
