package io.starvationlab.experiment.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code jcmd} of the JDK running the tests against another JVM, and returns what it printed. */
public final class Jcmd {

    private Jcmd() {
    }

    /** {@code jcmd <pid> <command...>}; fails with its output when it does not succeed within a minute. */
    public static String run(long pid, String... command) {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), String.valueOf(pid)));
        line.addAll(List.of(command));
        try {
            // into a file, so that the wait is bounded whatever jcmd prints (a class histogram is long)
            Path output = Files.createTempFile("lab-jcmd-", ".txt");
            try {
                Process process = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(output.toFile()).start();
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException(String.join(" ", line) + " did not finish within a minute: " + printed(output));
                }
                if (process.exitValue() != 0) {
                    throw new IllegalStateException(String.join(" ", line) + " failed: " + printed(output));
                }
                return printed(output);
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What jcmd printed, decoded leniently in the platform charset. */
    private static String printed(Path output) throws IOException {
        return new String(Files.readAllBytes(output));
    }
}
