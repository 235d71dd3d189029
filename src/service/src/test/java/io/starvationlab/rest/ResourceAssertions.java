package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.awaitility.Awaitility;

import io.starvationlab.harness.PrometheusText;

/** Checks shared by the in-JVM resource tests. */
final class ResourceAssertions {

    private ResourceAssertions() {
    }

    /** No permit is held and no pooled connection is in use: nothing leaked from the test. */
    static void assertNothingHeld() {
        Awaitility.await("no permit and no connection held").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> {
                    PrometheusText metrics = PrometheusText.parse(given().get("/q/metrics").then().statusCode(200).extract().asString());
                    assertThat(metrics.sum("lab_downstream_permits_in_use", s -> true)).as("permits in use").contains(0.0);
                    assertThat(metrics.sum("agroal_active_count", s -> true)).as("connections in use").contains(0.0);
                });
    }

    /** Waits until the sleep downstream's gauge reads at least {@code value}: the requests sent hold or wait, as planned. */
    static void awaitSleepGauge(String name, double value) {
        Awaitility.await(name + " reaches " + value).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> PrometheusText.parse(given().get("/q/metrics").then().statusCode(200).extract().asString())
                        .sum(name, sample -> "sleep".equals(sample.label("downstream"))).orElse(0.0), reading -> reading >= value);
    }
}
