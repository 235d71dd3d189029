package io.starvationlab.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.starvationlab.RawHttp;
import io.starvationlab.harness.PrometheusText;
import io.starvationlab.model.Prediction;
import io.starvationlab.service.Mode;

@QuarkusTest
class WorkResourceTest {

    @TestHTTPResource("/")
    URI server;

    @AfterEach
    void nothingIsHeldAfterwards() {
        ResourceAssertions.assertNothingHeld();
    }

    static Stream<Arguments> everyModeAndDownstream() {
        return Mode.labels().stream().flatMap(mode -> Stream.of(Arguments.of(mode, "db"), Arguments.of(mode, "sleep")));
    }

    @ParameterizedTest
    @MethodSource("everyModeAndDownstream")
    void shouldRunEveryModeAndAnswerTheContractFields(String mode, String downstream) {
        if (Prediction.of(Runtime.version().feature(), mode, downstream, List.of(), Map.of()).outcome() == Prediction.Outcome.UNAVAILABLE) {
            given().queryParam("downstream", downstream).get("/work/native").then().statusCode(501)
                    .contentType("application/problem+json").body("type", equalTo("urn:starvation-lab:problem:mode-unavailable"));
            return;
        }
        ValidatableResponse answer = given().queryParam("ms", 30).queryParam("downstream", downstream)
                .get("/work/" + mode)
                .then().statusCode(200).contentType("application/json")
                .body("mode", equalTo(mode))
                .body("downstream", equalTo(mode.equals("cpu") ? "none" : downstream))
                .body("lock", equalTo(mode.equals("pinned") || mode.equals("reentrant") ? "private" : "none"))
                .body("ms", equalTo(30))
                .body("permitWaitMillis", greaterThanOrEqualTo(0f))
                .body("elapsedMillis", greaterThanOrEqualTo(30f))
                .body("thread", notNullValue());
        if (mode.equals("platform")) {
            answer.body("virtual", equalTo(false)).body("carrier", nullValue());
        } else {
            answer.body("virtual", equalTo(true)).body("carrier", startsWith("ForkJoinPool"));
        }
    }

    @Test
    void shouldUseTheDefaultsWhenNoParameterIsGiven() {
        given().get("/work/unpinned").then().statusCode(200)
                .body("ms", equalTo(100)).body("downstream", equalTo("db")).body("lock", equalTo("none"));
    }

    /**
     * A request holds the shared lock of {@code mode} until the test closes its connection (which cancels its call). Meanwhile
     * requests with a lock each are answered, and those on the shared lock wait; let go, these are answered one at a time.
     */
    @ParameterizedTest
    @ValueSource(strings = { "pinned", "reentrant" })
    void shouldSerialiseRequestsOnASharedLockOnly(String mode) {
        int ms = 300;
        CountDownLatch release = new CountDownLatch(1);
        List<CompletableFuture<Long>> shared;
        try {
            Thread.ofPlatform().daemon().start(() -> RawHttp.abandon(server, "/work/" + mode + "?downstream=sleep&lock=shared&ms=30000", release));
            ResourceAssertions.awaitSleepGauge("lab_downstream_permits_in_use", 1); // the holder is in its call, inside the lock
            assertThat(answeredAt(3, "/work/" + mode + "?downstream=sleep&lock=private&ms=" + ms))
                    .as("a lock each: answered while the shared lock is held").allSatisfy(answer -> assertThat(answer).succeedsWithin(Duration.ofSeconds(20)));
            shared = answeredAt(3, "/work/" + mode + "?downstream=sleep&lock=shared&ms=" + ms);
            Awaitility.await("the shared ones admitted").atMost(Duration.ofSeconds(20)).until(() -> PrometheusText.parse(given().get("/q/metrics")
                    .then().statusCode(200).extract().asString()).sum("lab_work_in_flight", sample -> true).orElse(0.0) >= 4);
            assertThat(shared).as("behind the holder on the shared lock").noneMatch(CompletableFuture::isDone);
        } finally {
            release.countDown();
        }
        List<Long> answered = shared.stream().map(CompletableFuture::join).sorted().toList();
        // together, the three would be answered within a few ms of each other; one at a time, 2 x ms apart
        assertThat((answered.getLast() - answered.getFirst()) / 1_000_000).as("from the first answer to the last, ms").isGreaterThanOrEqualTo(ms);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "ms=abc | ms |", "ms=-1 | ms |", "ms=30001 | ms |", "ms=1.5 | ms |", "ms= | ms |", "ms=99999999999999999999 | ms |",
            "downstream=redis | downstream | db,sleep", "downstream=DB | downstream | db,sleep", "lock=global | lock | private,shared",
            "ms=10&ms=20 | ms |", "verbose=true | verbose | ms,downstream,lock" })
    void shouldRefuseBadParametersWithAProblem(String query, String parameter, String allowed) {
        given().get("/work/unpinned?" + query)
                .then().statusCode(400).contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("type", equalTo("urn:starvation-lab:problem:invalid-parameter"))
                .body("parameter", equalTo(parameter))
                .body("allowed", allowed == null ? nullValue() : equalTo(List.of(allowed.split(","))))
                .body("instance", equalTo("/work/unpinned"));
    }

    /**
     * Bad input, answered on the event loop, field by field: a path or method JAX-RS does not route (a 405
     * with the methods it allows), and a refusal of the input by its mapper; an unknown mode also lists the modes.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "GET    | /work/unpinned?ms=abc   | 400 | invalid-parameter | Invalid query parameter | 'ms' must be a whole number of milliseconds from 0 to 30000 | /work/unpinned",
            "HEAD   | /work/unpinned?ms=abc   | 400 | | | | ",
            "GET    | /work/platform?lock=x   | 400 | invalid-parameter | Invalid query parameter | 'lock' must be one of private, shared | /work/platform",
            "GET    | /work/green?ms=abc      | 404 | unknown-mode | Unknown work mode | no work mode 'green'; the modes are unpinned, pinned, reentrant, native, cpu, platform | /work/green",
            "GET    | /work/unpinned/         | 404 | unknown-mode | Unknown work mode | no work mode 'unpinned/'; the modes are unpinned, pinned, reentrant, native, cpu, platform | /work/unpinned/",
            "GET    | /work                   | 404 | http-404 | Not Found | nothing is served at /work | /work",
            "GET    | /work/                  | 404 | http-404 | Not Found | nothing is served at /work/ | /work/",
            "GET    | /work/unpinned/extra    | 404 | http-404 | Not Found | nothing is served at /work/unpinned/extra | /work/unpinned/extra",
            "POST   | /work                   | 404 | http-404 | Not Found | nothing is served at /work | /work",
            "POST   | /work/unpinned?ms=abc   | 405 | http-405 | Method Not Allowed | HTTP 405 Method Not Allowed | /work/unpinned",
            "PUT    | /work/platform          | 405 | http-405 | Method Not Allowed | HTTP 405 Method Not Allowed | /work/platform",
            "DELETE | /work/green             | 405 | http-405 | Method Not Allowed | HTTP 405 Method Not Allowed | /work/green",
            "GET    | /nothing/here           | 404 | http-404 | Not Found | nothing is served at /nothing/here | /nothing/here" })
    void shouldAnswerBadInputWithTheProblemItsMapperGave(String method, String path, int status, String slug, String title, String detail,
            String instance) {
        ValidatableResponse answer = given().request(method, path).then().statusCode(status).contentType("application/problem+json");
        if (slug == null) {
            return; // HEAD: no body
        }
        answer.body("type", equalTo("urn:starvation-lab:problem:" + slug)).body("title", equalTo(title)).body("status", equalTo(status))
                .body("detail", equalTo(detail)).body("instance", equalTo(instance))
                .body("modes", slug.equals("unknown-mode") ? equalTo(Mode.labels()) : nullValue());
    }

    /** OPTIONS is JAX-RS's answer, and a 405 lists the same methods (RFC 9110 wants them; Quarkus REST names none). */
    @ParameterizedTest
    @ValueSource(strings = { "/work/unpinned", "/work/platform", "/probe/worker", "/lab/info" })
    void shouldListTheAllowedMethodsInA405AsOptionsDoes(String path) {
        String options = given().options(path).then().statusCode(200).extract().header("Allow");
        assertThat(options).isNotNull();
        String refused = given().delete(path).then().statusCode(405).contentType("application/problem+json").extract().header("Allow");
        assertThat(refused).isNotNull();
        assertThat(Set.of(refused.split(", "))).as("Allow of a 405").isEqualTo(Set.of(options.split(", ")));
    }

    /**
     * Bad input is answered on the event loop: no request is handed to a virtual thread, so none waits for a carrier; and
     * a refused mode is timed under the route's template, so a client cannot grow the metrics with paths of its own.
     */
    @Test
    void badInputShouldNeverReachAVirtualThread() {
        double handedOff = requestsThatReachedACarrier(metrics());
        given().get("/work/unpinned?ms=abc").then().statusCode(400);
        given().get("/work/green").then().statusCode(404);
        given().post("/work/unpinned").then().statusCode(405);
        given().get("/work/unpinned?ms=1&downstream=sleep").then().statusCode(200);
        PrometheusText metrics = metrics();
        assertThat(requestsThatReachedACarrier(metrics)).as("only the request that runs reached a carrier").isEqualTo(handedOff + 1);
        assertThat(metrics.samples("http_server_requests_seconds_count", sample -> "404".equals(sample.label("status"))))
                .extracting(sample -> sample.label("uri")).contains("/work/{mode}").doesNotContain("/work/green");
    }

    private static PrometheusText metrics() {
        return PrometheusText.parse(given().get("/q/metrics").then().statusCode(200).extract().asString());
    }

    private static double requestsThatReachedACarrier(PrometheusText metrics) {
        return metrics.sum("virtual_threads_carrier_wait_seconds_count", sample -> "task".equals(sample.label("source"))).orElseThrow();
    }

    /** Sends {@code count} GETs at once from platform threads over connections of their own: when each was answered 200 ({@link System#nanoTime()}). */
    private List<CompletableFuture<Long>> answeredAt(int count, String path) {
        return Stream.generate(() -> CompletableFuture.supplyAsync(() -> {
            RawHttp.Response response = RawHttp.exchange(server, ("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII),
                    Duration.ofSeconds(60));
            assertThat(response.status()).as(path).isEqualTo(200);
            return System.nanoTime();
        }, request -> Thread.ofPlatform().daemon().start(request))).limit(count).toList();
    }
}
