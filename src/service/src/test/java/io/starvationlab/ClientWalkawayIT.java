package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.starvationlab.harness.Gauges;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.junit.ServiceConditions;

/**
 * Clients that walk away mid-wait give their permits and connections back at once, not when their
 * 20-second call would have ended: both those holding a permit and those waiting for one.
 */
class ClientWalkawayIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    static final int PERMITS = 20;

    static LabServer server;

    @BeforeAll
    static void start() {
        server = servers.lab("walkaway", Map.of("lab.downstream.permits", String.valueOf(PERMITS)));
    }

    @ParameterizedTest
    @ValueSource(strings = { "db", "sleep" })
    void abandonedRequestsShouldReleasePermitsAndConnectionsAtOnce(String downstream) {
        LabClient lab = new LabClient(server.baseUri());
        CountDownLatch leave = new CountDownLatch(1);
        // closing the clients waits for each to have walked away
        try (ExecutorService clients = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory())) {
            for (int i = 0; i < 3 * PERMITS; i++) {
                clients.execute(() -> RawHttp.abandon(server.baseUri(), "/work/unpinned?ms=20000&downstream=" + downstream, leave));
            }
            try {
                // the calls last 20 s: well before that, every client holds a permit or waits for one
                await("every client holding or waiting for a permit").atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
                            Gauges busy = Gauges.read(lab);
                            assertThat(busy.permitsInUse()).as("all permits taken").isEqualTo(PERMITS);
                            assertThat(busy.permitsWaiting()).as("the rest waits").isEqualTo(2 * PERMITS);
                        });
            } finally {
                leave.countDown();
            }
        }

        long walkedAway = System.nanoTime();
        Gauges after = ServiceConditions.awaitIdle(lab, Duration.ofSeconds(5), "released long before the 20 s calls would end");
        System.out.printf("%s: idle %.2f s after %d clients walked away: %s%n", downstream, (System.nanoTime() - walkedAway) / 1e9,
                3 * PERMITS, after);
        long start = System.nanoTime();
        assertThat(lab.get("/work/unpinned?ms=10&downstream=" + downstream).statusCode()).isEqualTo(200);
        assertThat((System.nanoTime() - start) / 1_000_000).as("no permit wait left").isLessThan(1_000);
    }
}
