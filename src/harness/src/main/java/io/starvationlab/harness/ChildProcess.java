package io.starvationlab.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A command run to its end within a bound, the one way the lab runs a program it waits for. The
 * output goes to a file, never to a pipe this JVM must drain, so the wait is bounded whatever the
 * program prints; past the bound the program and every process it started are ended.
 *
 * @param directory       the working directory; null: this JVM's
 * @param environment     variables added to the inherited environment
 * @param input           the file standard input is read from; null: none, its end at once
 * @param errorsToConsole standard error to this JVM's, so that the output is standard output alone
 */
public record ChildProcess(List<String> command, Path directory, Map<String, String> environment, Path input, boolean errorsToConsole) {

    /** How long processes get to end after SIGTERM before they are killed. */
    static final Duration TERMINATION_GRACE = Duration.ofSeconds(5);

    public ChildProcess {
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
    }

    /** The command, run in the working directory, with this JVM's environment and no input. */
    public static ChildProcess of(List<String> command) {
        return new ChildProcess(command, null, Map.of(), null, false);
    }

    public static ChildProcess of(String... command) {
        return of(List.of(command));
    }

    public ChildProcess in(Path workingDirectory) {
        return new ChildProcess(command, workingDirectory, environment, input, errorsToConsole);
    }

    public ChildProcess withEnvironment(Map<String, String> variables) {
        return new ChildProcess(command, directory, variables, input, errorsToConsole);
    }

    public ChildProcess withInput(Path file) {
        return new ChildProcess(command, directory, environment, file, errorsToConsole);
    }

    public ChildProcess withErrorsToConsole() {
        return new ChildProcess(command, directory, environment, input, true);
    }

    /** How the command ended: its exit code and what it printed (standard output and error, unless sent to the console). */
    public record Result(int exitCode, String output) {
    }

    /** The command did not end within its bound; it and its descendants were ended. */
    public static final class TimedOut extends IllegalStateException {

        private final String output;

        TimedOut(String message, String output) {
            super(message);
            this.output = output;
        }

        /** What the command had printed when it was ended. */
        public String output() {
            return output;
        }
    }

    /**
     * Runs the command and waits at most {@code bound} for it to exit.
     *
     * @throws TimedOut when it does not, after ending it and every process it started
     */
    public Result run(Duration bound) {
        Path output = null;
        try {
            output = Files.createTempFile("lab-child-", ".out");
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(output.toFile());
            if (input != null) {
                builder.redirectInput(input.toFile());
            }
            if (errorsToConsole) {
                builder.redirectError(ProcessBuilder.Redirect.INHERIT);
            } else {
                builder.redirectErrorStream(true);
            }
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            builder.environment().putAll(environment);
            Process process = builder.start();
            if (input == null) {
                process.getOutputStream().close(); // end of input at once: a program that reads it does not wait for us
            }
            try {
                if (!process.waitFor(bound.toNanos(), TimeUnit.NANOSECONDS)) {
                    endTree(process.toHandle());
                    String printed = read(output);
                    String tail = printed.length() <= 4_000 ? printed : "..." + printed.substring(printed.length() - 4_000);
                    throw new TimedOut(String.join(" ", command) + " did not finish within " + bound + "; it was ended. Its output:\n" + tail, printed);
                }
            } catch (InterruptedException e) {
                endTree(process.toHandle());
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + String.join(" ", command), e);
            }
            return new Result(process.exitValue(), read(output));
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + String.join(" ", command), e);
        } finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException e) {
                    // a temporary file left behind is not worth failing the run for
                }
            }
        }
    }

    /**
     * SIGTERM to the process and all its descendants, then SIGKILL to those still alive after the
     * grace. The descendants are listed first: once their parent is gone they are no longer its.
     */
    public static void endTree(ProcessHandle root) {
        List<ProcessHandle> tree = new ArrayList<>(root.descendants().toList());
        tree.add(0, root);
        end(tree);
    }

    /** SIGTERM to each process, then SIGKILL to those still alive after the grace. */
    static void end(List<ProcessHandle> processes) {
        processes.forEach(ProcessHandle::destroy);
        try {
            CompletableFuture.allOf(processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new))
                    .get(TERMINATION_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // some ignored SIGTERM: killed below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        processes.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static String read(Path output) throws IOException {
        return new String(Files.readAllBytes(output), StandardCharsets.UTF_8);
    }
}
