package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.junit.ServiceConditions;
import io.starvationlab.harness.load.ClosedLoad;

/**
 * SIGTERM under load, as Kubernetes sends it: requests in flight finish or are refused within the
 * shutdown timeout, the JVM exits, and the embedded PostgreSQL goes with it. The timeout is set to 3 s
 * here (the service's is 10 s): the drain is the same, and the JVM waits it out while the load's
 * clients keep arriving.
 */
class GracefulShutdownIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(3);
    static final int LOAD_CLIENTS = 32;

    @Test
    void sigtermUnderLoadShouldDrainAndLeaveNoPostgresBehind() {
        Set<Long> postgresBefore = postgresProcesses();
        LabServer server = servers.lab("graceful-shutdown", Map.of("quarkus.shutdown.timeout", SHUTDOWN_TIMEOUT.toSeconds() + "s"));
        Set<Long> ours = postgresProcesses().stream().filter(pid -> !postgresBefore.contains(pid)).collect(Collectors.toSet());
        assertThat(ours).as("the service started its embedded PostgreSQL").isNotEmpty();

        List<ClosedLoad.Outcome> outcomes;
        int exit;
        long terminated;
        try (ClosedLoad load = ClosedLoad.startKeepingEach(server.uri("/work/unpinned?ms=500"), LOAD_CLIENTS, Duration.ofSeconds(60))) {
            // a load in its stride: every client served once, and requests in flight
            await("a round of the load served").atMost(Duration.ofSeconds(30)).until(() -> load.result().latencies().ok() >= LOAD_CLIENTS);
            ServiceConditions.awaitGauges(new LabClient(server.baseUri()), Duration.ofSeconds(30), "half the load's requests in flight",
                    gauges -> gauges.workInFlight() >= LOAD_CLIENTS / 2);
            terminated = System.nanoTime();
            exit = server.stop(SHUTDOWN_TIMEOUT.plusSeconds(15));
            System.out.printf("exited with %d %.1f s after SIGTERM%n", exit, (System.nanoTime() - terminated) / 1e9);
            outcomes = load.stop(Duration.ofSeconds(10)).outcomes();
        }
        assertThat(exit).as("exited by itself after SIGTERM (not killed)").isNotEqualTo(-1);
        assertThat((System.nanoTime() - terminated) / 1e9).isLessThan(SHUTDOWN_TIMEOUT.toSeconds() + 15);

        List<ClosedLoad.Outcome> inFlight = outcomes.stream().filter(outcome -> outcome.startedAtNanos() < terminated).toList();
        Map<Integer, Long> statuses = inFlight.stream().collect(Collectors.groupingBy(ClosedLoad.Outcome::status, Collectors.counting()));
        System.out.println("requests started before SIGTERM: " + statuses);
        assertThat(inFlight).as("requests were in flight at SIGTERM").isNotEmpty();
        assertThat(statuses.keySet()).as("finished (200) or refused (503), not cut off").isSubsetOf(200, 503);
        // at least half the clients' requests were admitted and running when SIGTERM came: they finish
        // (a 503 here is a request cut off, e.g. by a database stopped under it)
        long finishedAfterSigterm = inFlight.stream()
                .filter(outcome -> outcome.startedAtNanos() + outcome.millis() * 1_000_000 > terminated && outcome.status() == 200).count();
        assertThat(finishedAfterSigterm).as("requests running at SIGTERM that finished with 200").isGreaterThanOrEqualTo(LOAD_CLIENTS / 2);
        assertThat(inFlight).as("within the shutdown timeout")
                .allSatisfy(outcome -> assertThat(outcome.millis()).isLessThan(500 + SHUTDOWN_TIMEOUT.toMillis()));

        await("the embedded PostgreSQL gone").atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(ours).as("no orphaned postgres process").noneMatch(Machine::running));
        assertThat(server.logText()).contains("Embedded PostgreSQL stopped");
    }

    /** The postgres server processes on this machine: the postmaster and its children. */
    static Set<Long> postgresProcesses() {
        return ProcessHandle.allProcesses()
                .filter(process -> process.info().command().map(command -> command.endsWith("/postgres")).orElse(false))
                .map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }
}
