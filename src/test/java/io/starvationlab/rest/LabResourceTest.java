package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.notNullValue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class LabResourceTest {

    @Test
    void shouldDescribeTheJvmWithEveryContractField() {
        int jdk = Runtime.version().feature();
        given().get("/lab/info").then().statusCode(200)
                .body("javaVersion", equalTo(Runtime.version().toString()))
                .body("availableProcessors", equalTo(Runtime.getRuntime().availableProcessors()))
                .body("carrierParallelism", equalTo(Runtime.getRuntime().availableProcessors()))
                .body("carrierMaxPoolSize", greaterThan(0))
                .body("lockingMode", jdk <= 25 ? notNullValue() : equalTo(null))
                // measured at start-up: JDK 21-23 pin in synchronized, JDK 24+ do not (JEP 491) with default locking
                .body("synchronizedPins", equalTo(jdk < 24))
                .body("nativePinAvailable", equalTo(jdk >= 22))
                .body("downstreamPermits", equalTo(50))
                .body("permits.db", equalTo(50))
                .body("poolMaxSize", equalTo(64))
                .body("embeddedDatabase", equalTo(true))
                // Quarkus' default, as quarkus.vertx.event-loops-pool-size is not set: the processors, at least 2, at most max heap MiB / 10
                .body("eventLoops", equalTo((int) Math.max(2, Math.min(Runtime.getRuntime().maxMemory() / (1024 * 1024) / 10,
                        Runtime.getRuntime().availableProcessors()))))
                .body("modes", hasItems("unpinned", "pinned", "reentrant", "native", "cpu", "platform"));
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_22, disabledReason = "the native mode needs FFM, final from JDK 22")
    void shouldGroupPinnedEventsByTheFrameThatPinned() {
        given().get("/lab/pinning?reset=true").then().statusCode(200).body("available", equalTo(true));
        given().get("/work/native?downstream=sleep&ms=60").then().statusCode(200);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            String frame = given().get("/lab/pinning").then().statusCode(200).extract().jsonPath().getString("groups[0].frame");
            if (frame != null) {
                break;
            }
            ResourceAssertions.sleep(200);
        }
        given().get("/lab/pinning").then().statusCode(200)
                .body("groups[0].frame", equalTo("io.starvationlab.service.WorkService.callInsideUpcall"))
                .body("groups[0].reason", equalTo("Native or VM frame on stack"))
                .body("groups[0].count", equalTo(1))
                .body("groups[0].maxMillis", greaterThan(50f))
                .body("groups[0].stack[0]", notNullValue());
        given().get("/lab/pinning?reset=true").then().statusCode(200);
        given().get("/lab/pinning").then().statusCode(200).body("eventsSinceReset", equalTo(0)).body("groups.size()", equalTo(0));
    }

    @Test
    void shouldRefuseAResetThatIsNotABoolean() {
        given().get("/lab/pinning?reset=maybe").then().statusCode(400).contentType("application/problem+json")
                .body("parameter", equalTo("reset"));
    }
}
