package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Needs;
import io.starvationlab.harness.PrometheusText;
import io.starvationlab.harness.SecondServiceProcess;
import io.starvationlab.harness.ServerProcess;
import io.starvationlab.harness.ServerJdk;
import io.starvationlab.harness.Servers;
import io.starvationlab.harness.load.ClosedLoad;

/**
 * The diagnosis against a service that is not the lab ({@code src/second-service}: the JDK's HTTP server, an
 * endpoint on virtual threads per way a carrier is still held, /health on platform threads), attached by pid
 * with no option that knows the service: load on each endpoint starves the service, and the diagnosis names the
 * cause and the frame, on the JDKs where that way holds the carrier; elsewhere, and under a plain wait, it is
 * not starved. One service JVM per JDK and flags, shared by the tests.
 */
class DiagnoseSecondServiceIT {

    @RegisterExtension
    static final Servers servers = new Servers();
    private static final Map<String, SecondServiceProcess> SERVICES = new HashMap<>();

    /** The second service on {@code jdk} with {@code flags}, started once. */
    private static SecondServiceProcess service(Jdks.Jdk jdk, List<String> flags) {
        return SERVICES.computeIfAbsent(jdk.feature() + " " + flags, key -> servers.keepForClass(servers.secondService(jdk, flags,
                "second-service-" + jdk.feature() + String.join("", flags).replaceAll("[^A-Za-z0-9=]", ""))));
    }

    @Test
    void nativeWaitIsStarvationPinnedByTheUpcallWhileHealthStaysFast() {
        ServerJdk jdk = new ServerJdk(Jdks.current().feature());
        assumeTrue(jdk.hasFfm(), "FFM is final from JDK 22; the service runs on " + jdk);
        SecondServiceProcess service = service(Jdks.current(), List.of());
        try (ClosedLoad load = ClosedLoad.start(service.uri("/native?ms=100"), Diagnosis.CONCURRENCY, Duration.ofSeconds(30))) {
            LabServer.sleep(Diagnosis.RAMP);
            long[] hello = millis(service, "/hello");
            long[] health = millis(service, "/health");
            Diagnosis diagnosis = Diagnosis.run(Jdks.current(), Diagnosis.WATCH, "--pid", String.valueOf(service.pid()));
            load.stop(Duration.ofSeconds(1));

            assertThat(diagnosis.exitCode()).as(diagnosis.text()).isEqualTo(1);
            assertThat(diagnosis.cause()).as(diagnosis.summary()).isEqualTo("UPCALL");
            assertThat(diagnosis.frame()).isEqualTo("example.second.NativeWait.compare");
            assertThat(diagnosis.details()).contains("a native frame is on the stack, below the call from example.second.NativeWait.call");
            // the service behaves as described: its virtual endpoint waits for a carrier, its health check does not. The
            // wait is a draw, not a turn in one line: the service's four request threads submit into queues chosen by thread,
            // which the scheduler serves in no set order (docs/event-loops.md); measured over 5 CI runs, 3 samples each:
            // fastest 79-741 ms, slowest 1,402-2,858 ms (the median of 3 was 88 ms once)
            assertThat(hello[hello.length - 1]).as("/hello, slowest of %d, ms", hello.length).isGreaterThanOrEqualTo(100);
            assertThat(health[health.length / 2]).as("/health on platform threads, median of %d, ms", health.length).isLessThan(100);
        }
    }

    /**
     * Each row: the JDK ({@code build}, the one running the tests, or a feature version from {@link Needs#jdk}) and JVM flags
     * of the service, the endpoint loaded, the JDKs on which it holds the carrier (outside them: not starved), the cause
     * and the frame. The diagnosis runs on the service's JDK. Work that holds a carrier takes 200 ms, so that where it holds
     * one the 60 requests queued behind the 4 carriers wait some 3 s, six times the diagnosis's threshold of 500 ms, and
     * longer than thread dumps come apart on a busy machine. The next row starts once nothing waits for a carrier.
     */
    @ParameterizedTest(name = "JDK {0} {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            build |                   | /cpu?ms=200         | 21 | 99 | CPU_BOUND       | example.second.SecondService$Checksum.compute
            build |                   | /downcall?ms=200    | 22 | 99 | NATIVE_CALL     | example.second.NativeWait.sleepInNative
            build |                   | /clinit?ms=200      | 21 | 99 | CLASS_INIT      | example.second.ClassInit$Slow.<clinit>
            build |                   | /clinit-wait?ms=200 | 21 | 25 | CLASS_INIT_WAIT | example.second.ClassInit$Trigger.run
            build |                   | /classload?ms=200   | 21 | 99 | CLASS_LOADING   | example.second.ClassInit$Isolated.loadClass
            build |                   | /sync?ms=200        | 21 | 23 | SYNCHRONIZED    | example.second.SecondService$LegacyClient.fetch
            build | -XX:LockingMode=1 | /sync?ms=200        | 21 | 25 | SYNCHRONIZED    | example.second.SecondService$LegacyClient.fetch
            21    |                   | /sync?ms=200        | 21 | 23 | SYNCHRONIZED    | example.second.SecondService$LegacyClient.fetch
            21    |                   | /clinit-wait?ms=200 | 21 | 25 | CLASS_INIT_WAIT | example.second.ClassInit$Trigger.run
            21    |                   | /sleep?ms=100       |  0 |  0 | NONE            |
            """)
    void eachWayOfHoldingACarrierIsNamedWithItsFrameWhereItHolds(String jdkName, String flags, String path, int from, int to, String cause,
            String frame) {
        Jdks.Jdk jdk = jdkName.equals("build") ? Jdks.current() : Needs.jdk(Integer.parseInt(jdkName));
        List<String> jvmFlags = flags == null ? List.of() : List.of(flags.split(" "));
        assumeTrue(jvmFlags.isEmpty() || jdk.feature() < 27, "JDK 27 refuses -XX:LockingMode");
        SecondServiceProcess service = service(jdk, jvmFlags);
        Diagnosis diagnosis = Diagnosis.underLoad(service.uri(path), jdk, "--pid", String.valueOf(service.pid()));
        LabClient management = new LabClient(service.managementUri("/"));
        Awaitility.await("the requests left behind by the load run").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> PrometheusText.parse(management.get("/metrics").body()).sum("virtual_threads_carrier_queued", sample -> true).orElse(1.0),
                        queued -> queued == 0);

        if (jdk.feature() < from || jdk.feature() > to) {
            assertThat(diagnosis.exitCode()).as(diagnosis.text()).isZero();
            assertThat(diagnosis.cause()).isEqualTo("NONE");
            return;
        }
        assertThat(diagnosis.exitCode()).as(diagnosis.text()).isEqualTo(1);
        assertThat(diagnosis.cause()).as(diagnosis.summary()).isEqualTo(cause);
        assertThat(diagnosis.frame()).as(diagnosis.summary()).isEqualTo(frame);
        if (cause.equals("NATIVE_CALL") || cause.equals("CPU_BOUND")) {
            assertThat(diagnosis.details()).anyMatch(detail -> detail.contains("the JDK records no event for it"));
        }
        if (jdk.feature() == 21) {
            assertThat(diagnosis.visibility()).as("what JDK 21 does not show")
                    .anyMatch(line -> line.startsWith("no the scheduler's queue"))
                    .anyMatch(line -> line.startsWith("no thread states"))
                    .anyMatch(line -> line.startsWith("no why a thread pinned"));
        }
    }

    /** Five requests to {@code path}, one after another: their times, sorted. */
    private static long[] millis(SecondServiceProcess service, String path) {
        long[] millis = new long[5];
        for (int i = 0; i < millis.length; i++) {
            long start = System.nanoTime();
            assertThat(ServerProcess.status(service.uri(path), Duration.ofSeconds(30))).as(path).isEqualTo(200);
            millis[i] = (System.nanoTime() - start) / 1_000_000;
        }
        Arrays.sort(millis);
        System.out.printf("%s under load: %s ms%n", path, Arrays.toString(millis));
        return millis;
    }
}
