package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

@QuarkusTest
@TestProfile(QueueFullTest.ThreeMayWait.class)
class QueueFullTest {

    /** Waits long enough that the waiters are still waiting when the test looks. */
    public static class ThreeMayWait implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lab.downstream.permits", "2", "lab.downstream.max-waiting", "3", "lab.downstream.acquire-timeout", "10s");
        }
    }

    @AfterEach
    void nothingIsHeldAfterwards() {
        ResourceAssertions.assertNothingHeld();
    }

    @Test
    void shouldRefuseAtOnceWhenTooManyWaitAlready() {
        List<CompletableFuture<Integer>> admitted = ResourceAssertions.sendInBackground(5, "/work/unpinned?downstream=sleep&ms=1000");
        ResourceAssertions.awaitSleepGauge("lab_downstream_permits_waiting", 3);
        given().get("/work/unpinned?downstream=sleep&ms=10")
                .then().statusCode(503).header("Retry-After", "1").body("reason", equalTo("queue-full"));
        assertThat(ResourceAssertions.slowestWorkAnswerMillis(503)).as("refused without waiting, on the service's clock, ms").isLessThan(1_000);
        assertThat(admitted).allSatisfy(request -> assertThat(request.join()).as("the admitted ones are served in turn").isEqualTo(200));
    }
}
