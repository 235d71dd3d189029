package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.starvationlab.RawHttp;

@QuarkusTest
class ProbeResourceTest {

    private static final String EVENT_LOOP = "vert.x-eventloop-thread-";

    @TestHTTPResource("/")
    URI server;

    /** Each probe on its own kind of thread, naming the event loop of its connection. */
    @Test
    void shouldServeEachProbeOnItsOwnKindOfThread() {
        given().get("/probe/virtual").then().statusCode(200).body("probe", equalTo("virtual")).body("virtual", equalTo(true))
                .body("eventLoop", startsWith(EVENT_LOOP));
        given().get("/probe/worker").then().statusCode(200).body("virtual", equalTo(false)).body("thread", startsWith("executor-thread"))
                .body("eventLoop", startsWith(EVENT_LOOP));
        // the event-loop probe runs on the event loop it names
        var answer = given().get("/probe/event-loop").then().statusCode(200).body("virtual", equalTo(false))
                .body("eventLoop", startsWith(EVENT_LOOP)).extract().jsonPath();
        assertThat(answer.getString("eventLoop")).isEqualTo(answer.getString("thread"));
    }

    /** Vert.x hands new connections to its event loops in turn: as many connections in a row reach every one. */
    @Test
    void shouldReachEveryEventLoopWithAsManyNewConnections() throws Exception {
        int eventLoops = given().get("/lab/info").jsonPath().getInt("eventLoops");
        Set<String> reached = new TreeSet<>();
        ObjectMapper json = new ObjectMapper();
        for (int i = 0; i < eventLoops; i++) {
            byte[] request = "GET /probe/virtual HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            RawHttp.Response response = RawHttp.exchange(server, request, Duration.ofSeconds(10));
            assertThat(response.status()).isEqualTo(200);
            reached.add(json.readTree(response.body()).path("eventLoop").asText());
        }
        assertThat(reached).hasSize(eventLoops).allMatch(name -> name.startsWith(EVENT_LOOP));
    }

    @Test
    void shouldBeLiveReadyAndStarted() {
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
    }
}
