package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class ProbeResourceTest {

    @Test
    void shouldServeEachProbeOnItsOwnKindOfThread() {
        given().get("/probe/virtual").then().statusCode(200).body("probe", equalTo("virtual")).body("virtual", equalTo(true));
        given().get("/probe/worker").then().statusCode(200).body("virtual", equalTo(false)).body("thread", startsWith("executor-thread"));
        given().get("/probe/event-loop").then().statusCode(200).body("virtual", equalTo(false)).body("thread", startsWith("vert.x-eventloop-thread"));
    }

    @Test
    void shouldBeLiveReadyAndStarted() {
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
    }
}
