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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

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
 * however slowly the machine runs. The refusal at once runs first: both read the slowest 503 on the service's clock, which
 * the wait for a permit then raises.
 */
@QuarkusTest
@TestProfile(PermitsExhaustedTest.TwoPermits.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
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
    @Order(1)
    void shouldRefuseAtOnceWhenTooManyWaitAlready() {
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<RawHttp.Response> waiter;
        try {
            holdBothPermitsUntil(release);
            waiter = CompletableFuture.supplyAsync(() -> RawHttp.exchange(server,
                    "GET /work/unpinned?downstream=sleep&ms=10 HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                    Duration.ofSeconds(30)), request -> Thread.ofPlatform().daemon().start(request));
            ResourceAssertions.awaitSleepGauge("lab_downstream_permits_waiting", 1);
            // the waiter waits at most the acquire timeout, 2 s: this refusal comes some 50 ms after the gauge saw it waiting
            given().get("/work/unpinned?downstream=sleep&ms=10")
                    .then().statusCode(503).header("Retry-After", "1").body("reason", equalTo("queue-full"));
        } finally {
            release.countDown();
        }

        assertThat(ResourceAssertions.slowestWorkAnswerMillis(503)).as("refused without waiting, on the service's clock, ms").isLessThan(1_000);
        assertThat(waiter.join().status()).as("the waiter, served once the holders let go (a 503 here: it gave up its wait first)").isEqualTo(200);
    }

    @Test
    @Order(2)
    void shouldAnswer503WithRetryAfterWhenNoPermitComesInTime() {
        CountDownLatch release = new CountDownLatch(1);
        ExtractableResponse<Response> refused;
        try {
            holdBothPermitsUntil(release);
            refused = given().get("/work/unpinned?downstream=sleep&ms=10").then().extract();
        } finally {
            release.countDown();
        }
        double waited = ResourceAssertions.slowestWorkAnswerMillis(503);

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.contentType()).isEqualTo("application/problem+json");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(refused.jsonPath().getString("reason")).isEqualTo("permit-timeout");
        assertThat(waited).as("waits the acquire timeout, not the calls, on the service's clock, ms").isBetween(1_750.0, 3_500.0);
    }

    /** Two requests of 30 s take both permits and keep them until {@code release} opens and their connections close. */
    private void holdBothPermitsUntil(CountDownLatch release) {
        for (int holder = 0; holder < 2; holder++) {
            Thread.ofPlatform().daemon().start(() -> RawHttp.abandon(server, HOLD, release));
        }
        ResourceAssertions.awaitSleepGauge("lab_downstream_permits_in_use", 2);
    }
}
