package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.starvationlab.experiment.PrometheusText;

@QuarkusTest
@TestProfile(PermitsExhaustedTest.TwoPermits.class)
class PermitsExhaustedTest {

    public static class TwoPermits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lab.downstream.permits", "2", "lab.downstream.acquire-timeout", "300ms", "lab.downstream.max-waiting", "3");
        }
    }

    @AfterEach
    void nothingIsHeldAfterwards() {
        ResourceAssertions.assertNothingHeld();
    }

    @Test
    void shouldAnswer503WithRetryAfterWhenNoPermitComesInTime() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 2; i++) {
                CompletableFuture.runAsync(() -> given().get("/work/unpinned?downstream=sleep&ms=2000").then().statusCode(200), clients);
            }
            awaitGauge("lab_downstream_permits_in_use", 2);
            long start = System.nanoTime();
            ExtractableResponse<Response> refused = given().get("/work/unpinned?downstream=sleep&ms=10").then().extract();
            long waited = (System.nanoTime() - start) / 1_000_000;

            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.contentType()).isEqualTo("application/problem+json");
            assertThat(refused.header("Retry-After")).isEqualTo("1");
            assertThat(refused.jsonPath().getString("reason")).isEqualTo("permit-timeout");
            assertThat(waited).as("waits the acquire timeout, not the calls").isBetween(250L, 1_500L);
        } finally {
            clients.shutdown();
            clients.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldRefuseAtOnceWhenTooManyWaitAlready() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(5);
        try {
            for (int i = 0; i < 5; i++) {
                CompletableFuture.runAsync(() -> given().get("/work/unpinned?downstream=sleep&ms=1500").then().extract(), clients);
            }
            awaitGauge("lab_downstream_permits_waiting", 3);
            given().get("/work/unpinned?downstream=sleep&ms=10")
                    .then().statusCode(503).header("Retry-After", "1").body("reason", equalTo("queue-full"));
        } finally {
            clients.shutdown();
            clients.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** Waits until the sleep downstream's gauge reads {@code value}: the requests sent so far hold or wait, as planned. */
    private static void awaitGauge(String name, double value) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            PrometheusText metrics = PrometheusText.parse(given().get("/q/metrics").then().statusCode(200).extract().asString());
            if (metrics.sum(name, sample -> "sleep".equals(sample.label("downstream"))).orElse(0.0) >= value) {
                return;
            }
            ResourceAssertions.sleep(50);
        }
        throw new AssertionError(name + " never reached " + value);
    }
}
