package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;

/**
 * A downstream's permits run out: two permits, one request may wait, for at most 2 s. The refusal at once runs first:
 * both read the slowest 503 on the service's clock, which the wait for a permit then raises.
 */
@QuarkusTest
@TestProfile(PermitsExhaustedTest.TwoPermits.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PermitsExhaustedTest {

    public static class TwoPermits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lab.downstream.permits", "2", "lab.downstream.max-waiting", "1", "lab.downstream.acquire-timeout", "2s");
        }
    }

    @AfterEach
    void nothingIsHeldAfterwards() {
        ResourceAssertions.assertNothingHeld();
    }

    @Test
    @Order(1)
    void shouldRefuseAtOnceWhenTooManyWaitAlready() {
        List<CompletableFuture<Integer>> admitted = ResourceAssertions.sendInBackground(3, "/work/unpinned?downstream=sleep&ms=1000");
        ResourceAssertions.awaitSleepGauge("lab_downstream_permits_waiting", 1);
        given().get("/work/unpinned?downstream=sleep&ms=10")
                .then().statusCode(503).header("Retry-After", "1").body("reason", equalTo("queue-full"));
        assertThat(ResourceAssertions.slowestWorkAnswerMillis(503)).as("refused without waiting, on the service's clock, ms").isLessThan(1_000);
        assertThat(admitted).allSatisfy(request -> assertThat(request.join()).as("the admitted ones are served in turn").isEqualTo(200));
    }

    @Test
    @Order(2)
    void shouldAnswer503WithRetryAfterWhenNoPermitComesInTime() {
        List<CompletableFuture<Integer>> holders = ResourceAssertions.sendInBackground(2, "/work/unpinned?downstream=sleep&ms=4000");
        ResourceAssertions.awaitSleepGauge("lab_downstream_permits_in_use", 2);
        ExtractableResponse<Response> refused = given().get("/work/unpinned?downstream=sleep&ms=10").then().extract();
        double waited = ResourceAssertions.slowestWorkAnswerMillis(503);

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.contentType()).isEqualTo("application/problem+json");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(refused.jsonPath().getString("reason")).isEqualTo("permit-timeout");
        assertThat(waited).as("waits the acquire timeout, not the calls, on the service's clock, ms").isBetween(1_750.0, 3_500.0);
        assertThat(holders).allSatisfy(holder -> assertThat(holder.join()).as("the permit holders finish").isEqualTo(200));
    }
}
