package io.starvationlab.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * {@code virtualPollers} in {@code /lab/info}, as {@code JdkFacts} states the rule (judged on the shared case file), agrees
 * with the poller threads this JVM really starts.
 */
class JvmFactsPollersTest {

    @Test
    void shouldAgreeWithThePollerThreadsOfThisJvm() throws Exception {
        // a virtual thread blocking on a socket read registers with the pollers, which starts them
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread reader = Thread.ofVirtual().start(() -> {
                try (Socket socket = new Socket(server.getInetAddress(), server.getLocalPort()); InputStream in = socket.getInputStream()) {
                    in.read();
                } catch (Exception e) {
                    // the server closing the connection ends the read
                }
            });
            try (Socket accepted = server.accept()) {
                Thread.sleep(200);
            }
            reader.join();
        }
        Set<String> platformThreads = Thread.getAllStackTraces().keySet().stream().map(Thread::getName).collect(Collectors.toSet());

        // the JDK's names: one platform MasterPoller with virtual sub-pollers, or platform Read-Poller threads
        if (new JvmFacts().virtualPollers()) {
            assertThat(platformThreads).contains("MasterPoller").doesNotContain("Read-Poller");
        } else {
            assertThat(platformThreads).contains("Read-Poller").doesNotContain("MasterPoller");
        }
    }
}
