package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anything;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.notNullValue;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.quarkus.test.junit.QuarkusTest;
import io.starvationlab.service.Mode;

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
                // the test JVM sets no jdk.pollerMode: the JDK's default, virtual-thread pollers from 22
                .body("virtualPollers", equalTo(jdk >= 22))
                .body("downstreamPermits", equalTo(50))
                .body("permits.db", equalTo(50))
                .body("poolMaxSize", equalTo(64))
                .body("embeddedDatabase", equalTo(true))
                // Quarkus' default, as quarkus.vertx.event-loops-pool-size is not set: the processors, at least 2, at most max heap MiB / 10
                .body("eventLoops", equalTo((int) Math.max(2, Math.min(Runtime.getRuntime().maxMemory() / (1024 * 1024) / 10,
                        Runtime.getRuntime().availableProcessors()))))
                .body("modes", equalTo(Mode.labels()));
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_22, disabledReason = "the native mode needs FFM, final from JDK 22")
    void shouldGroupPinnedEventsByTheFrameThatPinned() {
        given().get("/lab/pinning?reset=true").then().statusCode(200).body("available", equalTo(true));
        given().get("/work/native?downstream=sleep&ms=60").then().statusCode(200);
        // the JFR stream delivers events about a second after they happen
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> given().get("/lab/pinning").then().statusCode(200).extract().jsonPath().getString("groups[0].frame"), notNullValue());
        given().get("/lab/pinning").then().statusCode(200)
                .body("groups[0].frame", equalTo("io.starvationlab.service.WorkService.callInsideUpcall"))
                // the JFR event has carried a pinnedReason since JDK 24
                .body("groups[0].reason", Runtime.version().feature() >= 24 ? equalTo("Native or VM frame on stack") : anything())
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
