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
import java.util.ArrayList;
import java.util.List;


/**
 * The second service ({@code src/second-service}: the JDK's HTTP server and no lab code), its jar started as
 * its own JVM with 4 carriers, on any JDK 21+ (on 21 its native endpoints answer 501).
 */
public final class SecondServiceProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final URI base;
    private final URI management;
    private final Path log;

    private SecondServiceProcess(Process process, URI base, URI management, Path log) {
        this.process = process;
        this.base = base;
        this.management = management;
        this.log = log;
    }

    /** The command that starts it on {@code jdk} with {@code flags} at {@code port}, its management port (a health check of its own) at {@code managementPort}. */
    public static List<String> command(Jdks.Jdk jdk, List<String> flags, int port, int managementPort) {
        List<String> command = new ArrayList<>(List.of(jdk.launcher().toString(), "-XX:ActiveProcessorCount=" + LabServer.CARRIERS,
                "--enable-native-access=ALL-UNNAMED"));
        command.addAll(flags);
        command.addAll(List.of("-jar", Project.secondServiceJar().toString(), String.valueOf(port), String.valueOf(managementPort)));
        return command;
    }

    /** Starts it on {@code jdk} and returns once {@code /health} answers 200. */
    public static SecondServiceProcess start(Jdks.Jdk jdk, Path logDirectory, String name) {
        return start(jdk, List.of(), logDirectory, name);
    }

    /** Starts it on {@code jdk} with JVM {@code flags} and returns once {@code /health} answers 200. */
    public static SecondServiceProcess start(Jdks.Jdk jdk, List<String> flags, Path logDirectory, String name) {
        int port = LabServer.freePort();
        int managementPort = LabServer.freePort();
        while (managementPort == port) {
            managementPort = LabServer.freePort();
        }
        try {
            Files.createDirectories(logDirectory);
            Path log = logDirectory.resolve(name + ".log");
            Process process = new ProcessBuilder(command(jdk, flags, port, managementPort)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            SecondServiceProcess service = new SecondServiceProcess(process, URI.create("http://localhost:" + port),
                    URI.create("http://localhost:" + managementPort), log);
            service.awaitHealthy();
            return service;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitHealthy() {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the second service exited with " + process.exitValue() + ":\n" + logText());
            }
            try {
                HttpResponse<Void> health = client.send(HttpRequest.newBuilder(uri("/health")).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (health.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            LabServer.sleep(Duration.ofMillis(200));
        }
        close();
        throw new IllegalStateException("the second service did not answer /health within " + START_TIMEOUT + ":\n" + logText());
    }

    public URI uri(String pathAndQuery) {
        return base.resolve(pathAndQuery);
    }

    /** On the management port: a server of its own, which no virtual thread touches. */
    public URI managementUri(String path) {
        return management.resolve(path);
    }

    public long pid() {
        return process.pid();
    }

    public String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        ChildProcess.endTree(process.toHandle());
    }
}
