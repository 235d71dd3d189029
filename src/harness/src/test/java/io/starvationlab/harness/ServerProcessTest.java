package io.starvationlab.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

@DisabledOnOs(value = OS.WINDOWS, disabledReason = "the server is started by a POSIX shell")
class ServerProcessTest {

    /** The broken fixture: a server (the JDK's jwebserver) that has started a child and exits on SIGTERM, leaving it: both end. */
    @Test
    void stoppingShouldEndTheServerAndWhatItStartedAndLeft(@TempDir Path folder) throws Exception {
        Path childPid = folder.resolve("child.pid");
        Path jwebserver = Path.of(System.getProperty("java.home"), "bin", "jwebserver");
        int port = Machine.freePort();
        List<String> command = List.of("sh", "-c", "sleep 300 & echo $! > " + childPid + "; exec " + jwebserver + " -b 127.0.0.1 -p " + port
                + " -d " + folder);
        ProcessHandle server;
        ProcessHandle child;
        try (ServerProcess started = ServerProcess.start("jwebserver", command, folder.resolve("logs/jwebserver.log"),
                URI.create("http://127.0.0.1:" + port), "/", Duration.ofSeconds(30))) {
            server = ProcessHandle.of(started.pid()).orElseThrow();
            child = ProcessHandle.of(Long.parseLong(Files.readString(childPid).strip())).orElseThrow();
            assertThat(child.parent().map(ProcessHandle::pid)).as("the child's parent, the server").contains(server.pid());
        }
        assertThat(server.isAlive()).isFalse();
        assertThat(child.onExit().get(10, TimeUnit.SECONDS).isAlive()).as("its child, ended with it").isFalse();
    }
}
