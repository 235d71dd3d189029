package io.starvationlab.harness;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The second service ({@code src/second-service}: the JDK's HTTP server and, of the project, only the starvation
 * meter), its jar started as its own JVM with 4 carriers, on any JDK 21+ (on 21 its native endpoints answer 501).
 */
public final class SecondServiceProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final ServerProcess process;
    private final URI base;
    private final URI management;

    private SecondServiceProcess(ServerProcess process, URI base, URI management) {
        this.process = process;
        this.base = base;
        this.management = management;
    }

    /**
     * The command that starts it on {@code jdk} with {@code flags} at {@code port}, its management port (health and
     * metrics of its own) at {@code managementPort}.
     */
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

    /** Starts it on {@code jdk} with these JVM flags ({@code -Dsecond.meter=off}: without the meter). */
    public static SecondServiceProcess start(Jdks.Jdk jdk, List<String> flags, Path logDirectory, String name) {
        int port = ServerProcess.freePort();
        int managementPort = ServerProcess.freePort();
        while (managementPort == port) {
            managementPort = ServerProcess.freePort();
        }
        URI base = URI.create("http://localhost:" + port);
        ServerProcess process = ServerProcess.start(name, command(jdk, flags, port, managementPort), Map.of(), logDirectory.resolve(name + ".log"),
                base.resolve("/health"), START_TIMEOUT);
        return new SecondServiceProcess(process, base, URI.create("http://localhost:" + managementPort));
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
        return process.logText();
    }

    @Override
    public void close() {
        process.close();
    }
}
