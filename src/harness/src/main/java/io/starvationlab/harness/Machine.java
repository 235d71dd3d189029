package io.starvationlab.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * What the harness asks of the machine it runs on: a port, a pause, a program on the PATH, whether a process runs,
 * whether this is CI. The harness's lowest layer: every other class may use it, it uses none of them.
 */
public final class Machine {

    private Machine() {
    }

    /** A port nothing listens on now, for a server about to start. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sleeps for {@code duration}; an interrupt ends the pause with an exception, the thread's flag set again. */
    public static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The command {@code name} in the first directory of the PATH that has it executable; empty entries (the working directory) are skipped. */
    public static Optional<Path> onPath(String name) {
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(directory -> !directory.isEmpty())
                .map(directory -> Path.of(directory, name))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /**
     * Whether the process {@code pid} still runs. One that has exited but that its parent has not collected yet (a zombie:
     * a process reparented to the machine's init may be collected late) holds nothing and runs nothing; where there is no
     * /proc, the JDK's word.
     */
    public static boolean running(long pid) {
        boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        if (!alive || !Files.isDirectory(Path.of("/proc", "self"))) {
            return alive;
        }
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    /** Whether this is a CI run ({@code CI=true}), where what the project's set-up provides must be there. */
    public static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }
}
