package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.junit.ServiceConditions;
import io.starvationlab.harness.load.ClosedLoad;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A real PostgreSQL this test owns, stopped and started under load and with a backend killed
 * mid-query: 503s come fast, readiness and the {@code sleep} downstream stay up while the database is down, the pool
 * fills again once it answers, and nothing leaks or hangs.
 */
class DatabaseFaultsIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    static final Duration ACQUISITION_TIMEOUT = Duration.ofSeconds(2);
    static final int LOAD_CLIENTS = 32;
    static Path dataDirectory;
    static int port;
    static EmbeddedPostgres database;
    static LabServer server;
    static LabClient lab;

    @BeforeAll
    static void start() throws IOException {
        dataDirectory = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "faults-pg-");
        port = Machine.freePort();
        database = startDatabase();
        server = servers.lab("database-faults", Map.of(
                "quarkus.datasource.jdbc.url", "jdbc:postgresql://localhost:" + port + "/postgres",
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "trust-auth-ignores-it"));
        lab = new LabClient(server.baseUri());
    }

    /** The database the tests stopped and started again: the last one. */
    @AfterAll
    static void stopTheDatabase() throws IOException {
        if (database != null) {
            database.close();
        }
    }

    static EmbeddedPostgres startDatabase() throws IOException {
        return EmbeddedPostgres.builder().setPort(port).setDataDirectory(dataDirectory).setCleanDataDirectory(false)
                .setServerConfig("max_connections", "200").start();
    }

    @Test
    void stoppingTheDatabaseMidLoadShouldGiveFast503sAndRecoverWithoutARestart() throws IOException {
        ClosedLoad.Result result;
        try (ClosedLoad load = ClosedLoad.startKeepingEach(server.uri("/work/unpinned?ms=100"), LOAD_CLIENTS, Duration.ofSeconds(60))) {
            ServiceConditions.awaitGauges(lab, Duration.ofSeconds(30), "the load's queries running on the database",
                    gauges -> gauges.connectionsInUse() > 0);
            database.close();
            database = null;
            long start = System.nanoTime();
            HttpResponse<String> refused = lab.get("/work/unpinned?ms=10");
            long refusedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(refused.body()).contains("\"reason\":\"");
            assertThat(refusedMillis).as("a dead database answers within the acquisition timeout").isLessThan(ACQUISITION_TIMEOUT.toMillis() + 1_000);
            // an outage the load meets, not a blip: as many refusals as it has clients
            await("the load refused while the database is down").atMost(Duration.ofSeconds(30))
                    .until(() -> load.result().latencies().statuses().getOrDefault(503, 0L) >= LOAD_CLIENTS);
            assertThat(lab.get("/q/health/ready").statusCode()).as("readiness leaves the database out").isEqualTo(200);
            assertThat(lab.get("/work/unpinned?ms=10&downstream=sleep").statusCode()).as("the sleep downstream needs no database").isEqualTo(200);

            database = startDatabase();
            long restarted = System.nanoTime();
            awaitStatus("/work/unpinned?ms=10", 200, Duration.ofSeconds(30));
            System.out.printf("serving again %.1f s after the database came back%n", (System.nanoTime() - restarted) / 1e9);
            long servedBefore = load.result().latencies().ok();
            await("the load served again").atMost(Duration.ofSeconds(30))
                    .until(() -> load.result().latencies().ok() >= servedBefore + LOAD_CLIENTS);
            result = load.stop(Duration.ofSeconds(30));
        }
        System.out.println("database stopped and started under load: " + result.latencies().statuses());
        assertThat(result.latencies().statuses().keySet()).containsOnly(200, 503);
        assertThat(result.outcomes()).as("nothing hangs: ms + acquisition timeout + 5 s")
                .allSatisfy(outcome -> assertThat(outcome.millis()).isLessThan(100 + ACQUISITION_TIMEOUT.toMillis() + 5_000));
        ServiceConditions.awaitIdle(lab, Duration.ofSeconds(5), "no permit or connection left behind");
    }

    /**
     * With no request after the outage, the pool holds min-size connections again once the database is back: counted by
     * PostgreSQL itself. Agroal alone would open one per acquisition, and readiness, which asked the database every 5 s
     * in a pod, no longer does.
     */
    @Test
    void aDatabaseBackAfterAnOutageShouldGetThePoolsMinimumOfConnectionsUnasked() throws IOException {
        awaitStatus("/work/unpinned?ms=10", 200, Duration.ofSeconds(30));
        database.close();
        database = null;
        // a call meets the dead connections: each fails validation and leaves the pool, whose refill fails
        assertThat(lab.get("/work/unpinned?ms=10").statusCode()).isEqualTo(503);
        assertThat(lab.get("/q/health/ready").statusCode()).as("readiness leaves the database out").isEqualTo(200);

        database = startDatabase();
        long restarted = System.nanoTime();
        int minSize = Integer.parseInt(applicationProperties().getProperty("quarkus.datasource.jdbc.min-size"));
        int open = await("PostgreSQL counts the pool's minimum of connections").atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(200)).until(DatabaseFaultsIT::labConnections, count -> count >= minSize);
        System.out.printf("%d connections %.1f s after the database came back, no request asking%n", open, (System.nanoTime() - restarted) / 1e9);
    }

    private static Properties applicationProperties() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = DatabaseFaultsIT.class.getResourceAsStream("/application.properties")) {
            properties.load(in);
        }
        return properties;
    }

    /** The lab's connections, as PostgreSQL counts them (ApplicationName in application.properties). */
    private static int labConnections() throws Exception {
        try (Connection admin = DriverManager.getConnection("jdbc:postgresql://localhost:" + port + "/postgres", "postgres", "");
                Statement statement = admin.createStatement();
                ResultSet result = statement.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'starvation-lab'")) {
            result.next();
            return result.getInt(1);
        }
    }

    @Test
    void aBackendKilledMidQueryShouldAnswer503AtOnceAndLeakNothing() throws Exception {
        awaitStatus("/work/unpinned?ms=10", 200, Duration.ofSeconds(30));
        CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(() -> lab.get("/work/unpinned?ms=8000"));
        long killed;
        try (Connection admin = DriverManager.getConnection("jdbc:postgresql://localhost:" + port + "/postgres", "postgres", "");
                Statement statement = admin.createStatement()) {
            // the slow request's query, once it runs: terminated as soon as it is seen
            int terminated = await("a backend running pg_sleep").atMost(Duration.ofSeconds(6)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(50)).until(() -> {
                        try (ResultSet result = statement.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                + "WHERE state = 'active' AND query LIKE 'SELECT pg_sleep%' AND pid <> pg_backend_pid()")) {
                            result.next();
                            return result.getInt(1);
                        }
                    }, count -> count > 0);
            assertThat(terminated).as("the one backend running pg_sleep, killed").isEqualTo(1);
            killed = System.nanoTime();
        }
        HttpResponse<String> answer = slow.get();
        long afterKill = (System.nanoTime() - killed) / 1_000_000;
        assertThat(answer.statusCode()).isEqualTo(503);
        assertThat(answer.body()).contains("\"reason\":\"database-unavailable\"");
        assertThat(afterKill).as("answered when the backend died, not when pg_sleep would have ended").isLessThan(3_000);
        ServiceConditions.awaitIdle(lab, Duration.ofSeconds(5), "idle after the killed backend");
        assertThat(lab.get("/work/unpinned?ms=10").statusCode()).as("the pool replaced the dead connection").isEqualTo(200);
    }

    private static void awaitStatus(String path, int status, Duration within) {
        await(path + " answering " + status).atMost(within).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> lab.get(path, Duration.ofSeconds(10)).statusCode(), equalTo(status));
    }
}
