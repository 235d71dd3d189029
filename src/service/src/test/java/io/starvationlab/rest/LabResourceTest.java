package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anything;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.oneOf;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.quarkus.test.junit.QuarkusTest;
import io.starvationlab.model.JdkFacts;
import io.starvationlab.model.Prediction;
import io.starvationlab.service.Mode;

@QuarkusTest
class LabResourceTest {

    @Test
    void shouldDescribeTheJvmAndItsContainerWithEveryContractField() {
        int jdk = Runtime.version().feature();
        JdkFacts facts = JdkFacts.current(List.of());
        given().get("/lab/info").then().statusCode(200)
                .body("javaVersion", equalTo(Runtime.version().toString()))
                .body("availableProcessors", equalTo(Runtime.getRuntime().availableProcessors()))
                .body("carrierParallelism", equalTo(Runtime.getRuntime().availableProcessors()))
                .body("carrierMaxPoolSize", greaterThan(0))
                .body("lockingMode", facts.lockingModeFlag() ? notNullValue() : equalTo(null))
                // measured at start-up, against what Prediction says of this JDK with its default locking
                .body("synchronizedPins", equalTo(Prediction.facts(jdk, List.of(), Map.of()).orElseThrow().synchronizedPins()))
                .body("nativePinAvailable", equalTo(Prediction.facts(jdk, List.of(), Map.of()).orElseThrow().nativePinAvailable()))
                // the test JVM sets no jdk.pollerMode: the JDK's default, virtual-thread pollers from 22
                .body("virtualPollers", equalTo(Prediction.facts(jdk, List.of(), Map.of()).orElseThrow().virtualPollers()))
                .body("downstreamPermits", equalTo(50))
                .body("permits.db", equalTo(50))
                .body("poolMaxSize", equalTo(64))
                .body("embeddedDatabase", equalTo(true))
                // Quarkus' default, as quarkus.vertx.event-loops-pool-size is not set: the processors, at least 2, at most max heap MiB / 10
                .body("eventLoops", equalTo((int) Math.max(2, Math.min(Runtime.getRuntime().maxMemory() / (1024 * 1024) / 10,
                        Runtime.getRuntime().availableProcessors()))))
                .body("modes", equalTo(Mode.labels()))
                // no -XX:ActiveProcessorCount in this JVM: the processors are the CPUs it derives from its container
                .body("effectiveCpuCount", equalTo(Runtime.getRuntime().availableProcessors()))
                .body("cgroupVersion", System.getProperty("os.name").equals("Linux") ? oneOf("v1", "v2") : nullValue())
                .body("garbageCollector", equalTo(collectorFromItsBeans()));
    }

    /** The collector named by its MXBeans, a second reading beside the flags /lab/info reads. */
    private static String collectorFromItsBeans() {
        String beans = ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName)
                .collect(Collectors.joining(","));
        return Map.of("G1 ", "G1", "Copy", "Serial", "PS ", "Parallel", "ZGC", "ZGC").entrySet().stream()
                .filter(prefix -> beans.startsWith(prefix.getKey())).map(Map.Entry::getValue).findFirst().orElse(beans);
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
                // the JFR event carries a pinnedReason where JdkFacts says so (JDK 24+)
                .body("groups[0].reason", JdkFacts.current(List.of()).pinnedEventReason() ? equalTo("Native or VM frame on stack") : anything())
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
