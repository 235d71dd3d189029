package io.starvationlab.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server the lab starts as its own process and waits for: the service ({@link LabServer}) and the second service
 * ({@link SecondServiceProcess}) are this with what each says of itself. The one way to start and stop one: its
 * output goes to a log file, never to a pipe this JVM must drain; it counts as started once a URL of its answers 200
 * (a process that exits meanwhile fails at once, with its log); it is stopped with SIGTERM, as Kubernetes does, and
 * it and everything it started are ended after a grace; what it started and left behind is ended with it.
 */
public class ServerProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final Path log;
    private final URI base;

    private ServerProcess(Process process, Path log, URI base) {
        this.process = process;
        this.log = log;
        this.base = base;
    }

    /** The server {@code started}, as a kind of server that says more of itself. */
    protected ServerProcess(ServerProcess started) {
        this(started.process, started.log, started.base);
    }

    /**
     * Starts {@code command}, its output in {@code log}, and returns once {@code readyPath} under {@code base} answers
     * 200 within {@code within}; otherwise the process is ended and the start fails with its log.
     */
    public static ServerProcess start(String name, List<String> command, Path log, URI base, String readyPath, Duration within) {
        Process process;
        try {
            Files.createDirectories(log.getParent());
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + ": " + String.join(" ", command), e);
        }
        ServerProcess server = new ServerProcess(process, log, base);
        URI ready = base.resolve(readyPath);
        long deadline = System.nanoTime() + within.toNanos();
        do {
            Machine.pause(Duration.ofMillis(200));
            if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                String why = process.isAlive() ? " did not answer " + ready + " within " + within : " exited with " + process.exitValue();
                server.close();
                throw new IllegalStateException(name + why + ": " + String.join(" ", command) + "\n" + server.logText());
            }
        } while (status(ready, Duration.ofSeconds(5)) != 200);
        return server;
    }

    /** The status {@code uri} answers a GET with within {@code timeout}, or 0 when nothing listens there or no answer comes. */
    public static int status(URI uri, Duration timeout) {
        try {
            return HTTP.send(HttpRequest.newBuilder(uri).timeout(timeout).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public URI baseUri() {
        return base;
    }

    public URI uri(String pathAndQuery) {
        return base.resolve(pathAndQuery);
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    public String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /**
     * SIGTERM, as Kubernetes does; returns the exit code, or -1 when it and what it started had to be ended after
     * {@code grace}. What it started and left running when it exited goes too.
     */
    public int stop(Duration grace) {
        if (!process.isAlive()) {
            return process.exitValue();
        }
        List<ProcessHandle> started = process.descendants().toList();
        process.destroy();
        try {
            if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                ChildProcess.end(started.stream().filter(ProcessHandle::isAlive).toList());
                return process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // what it started (the embedded PostgreSQL) would outlive a server killed before its shutdown hooks ran
        ChildProcess.endTree(process.toHandle());
        return -1;
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(30));
    }
}
