package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.starvationlab.RawHttp;

/**
 * A downstream's permits run out: two permits, one request may wait, for at most 2 s. Both permits are held by requests of
 * 30 s that the test lets go of (it closes their connections, which cancels their calls), so what must overlap does,
 * however slowly the machine runs.
 */
@QuarkusTest
@TestProfile(PermitsExhaustedTest.TwoPermits.class)
class PermitsExhaustedTest {

    private static final String HOLD = "/work/unpinned?downstream=sleep&ms=30000";

    public static class TwoPermits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lab.downstream.permits", "2", "lab.downstream.max-waiting", "1", "lab.downstream.acquire-timeout", "2s");
        }
    }

    @TestHTTPResource("/")
    URI server;

    @AfterEach
    void nothingIsHeldAfterwards() {
        ResourceAssertions.assertNothingHeld();
    }

    @Test
    void shouldRefuseAtOnceWhenTooManyWaitAlready() {
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<RawHttp.Response> waiter;
        long refusedIn;
        try {
            holdBothPermitsUntil(release);
            waiter = CompletableFuture.supplyAsync(() -> RawHttp.exchange(server,
                    "GET /work/unpinned?downstream=sleep&ms=10 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                    Duration.ofSeconds(30)), request -> Thread.ofPlatform().daemon().start(request));
            ResourceAssertions.awaitSleepGauge("lab_downstream_permits_waiting", 1);
            // the waiter waits at most the acquire timeout, 2 s: this refusal comes some 50 ms after the gauge saw it waiting
            refusedIn = given().get("/work/unpinned?downstream=sleep&ms=10")
                    .then().statusCode(503).header("Retry-After", "1").body("reason", equalTo("queue-full")).extract().time();
        } finally {
            release.countDown();
        }

        // this thread's client is warm (it read the gauges): its time is the service's, give or take a few ms; a wait would be 2 s
        assertThat(refusedIn).as("refused without waiting for the acquire timeout, ms").isLessThan(1_000);
        assertThat(waiter.join().status()).as("the waiter, served once the holders let go (a 503 here: it gave up its wait first)").isEqualTo(200);
    }

    @Test
    void shouldAnswer503WithRetryAfterWhenNoPermitComesInTime() {
        CountDownLatch release = new CountDownLatch(1);
        ExtractableResponse<Response> refused;
        try {
            holdBothPermitsUntil(release);
            refused = given().get("/work/unpinned?downstream=sleep&ms=10").then().extract();
        } finally {
            release.countDown();
        }
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.contentType()).isEqualTo("application/problem+json");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(refused.jsonPath().getString("reason")).isEqualTo("permit-timeout");
        // the holders keep their permits until this answer came: had it waited for them, it would have taken their 30 s
        assertThat(refused.time()).as("waits the acquire timeout (2 s), not the calls, ms").isBetween(1_750L, 10_000L);
    }

    /** Two requests of 30 s take both permits and keep them until {@code release} opens and their connections close. */
    private void holdBothPermitsUntil(CountDownLatch release) {
        for (int holder = 0; holder < 2; holder++) {
            Thread.ofPlatform().daemon().start(() -> RawHttp.abandon(server, HOLD, release));
        }
        ResourceAssertions.awaitSleepGauge("lab_downstream_permits_in_use", 2);
    }
}
