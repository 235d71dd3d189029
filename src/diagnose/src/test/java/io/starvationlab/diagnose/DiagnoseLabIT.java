package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.ServerJdk;
import io.starvationlab.harness.junit.Needs;
import io.starvationlab.harness.junit.Servers;

/**
 * The diagnosis ({@code src/diagnose/target/starvation-diagnose.jar}) against the packaged service on the build JDK,
 * as from a pod: kubernetes/README.md's command through the JMX port kubernetes/components/jmx opens, without thread dumps (the
 * stand-in for that step of the README's walk). Load from this JVM on platform threads. Each cause by pid, on JDK 21 too, and not starved:
 * {@link DiagnoseSecondServiceIT}.
 */
class DiagnoseLabIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    static LabServer server;
    static ServerJdk jdk;
    static int jmxPort;

    @BeforeAll
    static void start() {
        jmxPort = Machine.freePort();
        server = servers.lab(Jdks.current(), PodJmx.flags(jmxPort), Map.of(), "diagnose");
        jdk = new ServerJdk(server.jdk().feature());
    }

    /**
     * What a pod gives: a JMX address (here the flags kubernetes/components/jmx sets, on a local JVM) and no
     * thread dumps, whose files stay in the pod. On JDK 24+ the wait comes from the scheduler MXBean's
     * queue and the start rate; the cause and frame from JFR over the same connection.
     */
    @Test
    void throughTheJmxPortAPodOpensWithoutThreadDumps() {
        assumeTrue(jdk.hasFfm(), "the native mode needs FFM, final from JDK 22; the service runs on " + jdk);
        Diagnosis diagnosis = Diagnosis.underLoad(server.uri("/work/native?ms=100&downstream=sleep"), Jdks.current(),
                Stream.concat(PodJmx.arguments(jmxPort).stream(), Stream.of("--no-thread-dumps")).toArray(String[]::new));

        assertThat(diagnosis.exitCode()).as(diagnosis.text()).isEqualTo(1);
        assertThat(diagnosis.report().path("target").asText()).startsWith("JMX localhost:" + jmxPort);
        assertThat(diagnosis.cause()).as(diagnosis.summary()).isEqualTo("UPCALL");
        assertThat(diagnosis.frame()).isEqualTo("io.starvationlab.service.WorkService.callInsideUpcall");
        assertThat(diagnosis.details()).contains("a native frame is on the stack, below the call from io.starvationlab.jvm.UpcallNativeFrame.callInside");
        if (jdk.namesPinnedReason()) {
            assertThat(diagnosis.details()).contains("the JVM's reason: Native or VM frame on stack");
        }
        assertThat(diagnosis.visibility()).anyMatch(line -> line.startsWith("no thread dumps"));
        if (jdk.hasSchedulerMxBean()) {
            assertThat(diagnosis.report().path("verdict").path("waitBasis").asText()).contains("Little's law");
            assertThat(diagnosis.report().path("verdict").path("inferredWaitMillis").asLong(-1)).isGreaterThanOrEqualTo(500);
        }
    }

    /** The component's flags open JMX on the pod's loopback only, which the port-forward reaches: no other address answers. */
    @Test
    void jmxShouldAnswerOnLoopbackOnly() throws IOException {
        assertThat(answers(InetAddress.getLoopbackAddress())).as("JMX on loopback").isTrue();
        List<InetAddress> others = NetworkInterface.networkInterfaces().flatMap(NetworkInterface::inetAddresses)
                .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress()).toList();
        if (others.isEmpty()) {
            Needs.skip(Needs.missingInCi("this machine has no address but loopback to try JMX on"));
        }
        for (InetAddress address : others) {
            assertThat(answers(address)).as("JMX on %s:%d: anyone in the cluster could connect", address, jmxPort).isFalse();
        }
    }

    private static boolean answers(InetAddress address) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, jmxPort), 2_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
