package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.starvationlab.experiment.PrometheusText;

/** Checks shared by the in-JVM resource tests. */
final class ResourceAssertions {

    private ResourceAssertions() {
    }

    /** No permit is held and no pooled connection is in use: nothing leaked from the test. */
    static void assertNothingHeld() {
        long deadline = System.nanoTime() + 5_000_000_000L;
        PrometheusText metrics;
        do {
            metrics = PrometheusText.parse(given().get("/q/metrics").then().statusCode(200).extract().asString());
            if (metrics.sum("lab_downstream_permits_in_use", s -> true).orElseThrow() == 0
                    && metrics.sum("agroal_active_count", s -> true).orElseThrow() == 0) {
                return;
            }
            sleep(100);
        } while (System.nanoTime() < deadline);
        assertThat(metrics.sum("lab_downstream_permits_in_use", s -> true)).as("permits in use").contains(0.0);
        assertThat(metrics.sum("agroal_active_count", s -> true)).as("connections in use").contains(0.0);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
