package io.starvationlab.harness;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The second service ({@code src/second-service}: the JDK's HTTP server and, of the project, only the starvation
 * meter), its jar started as its own JVM with 4 carriers, on any JDK 21+ (on 21 its native endpoints answer 501).
 */
public final class SecondServiceProcess extends ServerProcess {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final URI management;

    private SecondServiceProcess(ServerProcess process, URI management) {
        super(process);
        this.management = management;
    }

    /**
     * Starts it on {@code jdk} with these JVM flags ({@code -Dsecond.meter=off}: without the meter); returns once
     * {@code /health} answers 200.
     */
    public static SecondServiceProcess start(Jdks.Jdk jdk, List<String> flags, Path logDirectory, String name) {
        int port = Machine.freePort();
        int managementPort = Machine.freePort();
        while (managementPort == port) {
            managementPort = Machine.freePort();
        }
        List<String> command = new ArrayList<>(List.of(jdk.launcher().toString(), "-XX:ActiveProcessorCount=" + LabServer.CARRIERS,
                "--enable-native-access=ALL-UNNAMED"));
        command.addAll(flags);
        // its management port (health and metrics of its own) after its port
        command.addAll(List.of("-jar", Program.SECOND_SERVICE.jar().toString(), String.valueOf(port), String.valueOf(managementPort)));
        ServerProcess process = ServerProcess.start(name, command, logDirectory.resolve(name + ".log"), URI.create("http://localhost:" + port),
                "/health", START_TIMEOUT);
        return new SecondServiceProcess(process, URI.create("http://localhost:" + managementPort));
    }

    /** On the management port: a server of its own, which no virtual thread touches. */
    public URI managementUri(String path) {
        return management.resolve(path);
    }
}
