package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Servers;
import io.starvationlab.harness.ServiceConditions;
import io.starvationlab.service.Mode;

/**
 * Generated malformed requests, sent over raw sockets: every one is answered, quickly, with a 4xx
 * problem+json, or with the HTTP server's own bodiless 400/413/414/431 for requests it refuses
 * before routing. Never a 5xx, never a hang. Failures shrink to the smallest offending request.
 */
class HostileInputIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    static final int EXAMPLES = 300;
    static final Set<Integer> SERVER_OWN = Set.of(400, 413, 414, 431);
    static final List<String> MODES = Mode.labels();

    static LabServer server;

    /** A request and why it is malformed. */
    record Hostile(String why, String requestLine, String headers, String body) {
        byte[] bytes() {
            String head = requestLine + "\r\nHost: localhost\r\nConnection: close\r\n" + headers
                    + (body.isEmpty() ? "" : "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n") + "\r\n";
            return (head + body).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            String line = requestLine.length() > 100 ? requestLine.substring(0, 100) + "...(" + requestLine.length() + ")" : requestLine;
            return why + ": " + line + (headers.isEmpty() ? "" : " +headers(" + headers.length() + ")") + (body.isEmpty() ? "" : " +body(" + body.length() + ")");
        }
    }

    @BeforeAll
    static void start() {
        server = servers.lab("hostile-input", Map.of("lab.downstream.acquire-timeout", "2s"));
    }

    @Test
    void everyMalformedRequestShouldGetA4xxProblemQuickly() {
        AtomicInteger sent = new AtomicInteger();
        qt().withExamples(EXAMPLES).withShrinkCycles(50).forAll(hostileRequests()).checkAssert(request -> {
            sent.incrementAndGet();
            RawHttp.Response response = RawHttp.exchange(server.baseUri(), request.bytes(), Duration.ofSeconds(15));
            assertThat(response.status()).as("%s -> %s", request, response).isBetween(400, 499);
            assertThat(response.took()).as("%s answered in time", request).isLessThan(Duration.ofSeconds(5));
            if (SERVER_OWN.contains(response.status()) && response.body().isEmpty()) {
                return; // refused by the HTTP server before any route: it has no body to give
            }
            assertThat(response.header("Content-Type")).as("%s -> %s", request, response).startsWith("application/problem+json");
            JsonNode problem = readJson(response.body());
            assertThat(problem.path("status").asInt()).as("%s", request).isEqualTo(response.status());
            assertThat(problem.path("type").asText()).startsWith("urn:starvation-lab:problem:");
            assertThat(problem.path("detail").asText()).isNotBlank();
        });
        assertThat(sent.get()).isGreaterThanOrEqualTo(200);
        LabClient lab = new LabClient(server.baseUri());
        assertThat(lab.get("/q/health/live").statusCode()).as("still alive afterwards").isEqualTo(200);
        ServiceConditions.awaitIdle(lab, Duration.ofSeconds(5), "no request slot, permit or connection kept by a refused request");
    }

    static Gen<Hostile> hostileRequests() {
        return Generate.oneOf(badMs(), badChoice(), repeatedParameter(), unknownParameter(), unknownPath(), wrongMethod(),
                oversizedQuery(), oversizedHeader(), bodyOnGet(), brokenEncoding());
    }

    static Gen<String> modes() {
        return Generate.pick(MODES);
    }

    static Gen<Hostile> badMs() {
        Gen<String> values = Generate.oneOf(
                integers().between(Integer.MIN_VALUE, -1).map(value -> String.valueOf(value)),
                integers().between(30_001, Integer.MAX_VALUE).map(value -> String.valueOf(value)),
                longs().between(Integer.MAX_VALUE + 1L, Long.MAX_VALUE).map(value -> value + "0"),
                integers().between(0, 30_000).map(value -> value + ".5"),
                integers().between(1, 999).map(value -> value + "e3"),
                Generate.pick(List.of("%D9%A1%D9%A0%D9%A0", "%EF%BC%91%EF%BC%90", "+100", "%20100", "0x10", "NaN", "Infinity", "",
                        "100abc", "1_000", "%E2%80%8B1", "-0", "999999999999999999999999999999")),
                strings().basicLatinAlphabet().ofLengthBetween(1, 12).assuming(text -> !text.chars().allMatch(Character::isDigit))
                        .map(HostileInputIT::encode));
        return modes().zip(values, (mode, ms) -> new Hostile("bad ms", "GET /work/" + mode + "?ms=" + ms + " HTTP/1.1", "", ""));
    }

    static Gen<Hostile> badChoice() {
        Gen<String> words = strings().basicLatinAlphabet().ofLengthBetween(0, 20).map(HostileInputIT::encode)
                .assuming(word -> !Set.of("db", "sleep", "private", "shared").contains(word));
        return modes().zip(Generate.pick(List.of("downstream", "lock")), words,
                (mode, name, value) -> new Hostile("bad " + name, "GET /work/" + mode + "?" + name + "=" + value + " HTTP/1.1", "", ""));
    }

    static Gen<Hostile> repeatedParameter() {
        return modes().zip(Generate.pick(List.of("ms=10&ms=20", "downstream=db&downstream=sleep", "lock=private&lock=shared", "ms=5&ms=5")),
                (mode, query) -> new Hostile("repeated parameter", "GET /work/" + mode + "?" + query + " HTTP/1.1", "", ""));
    }

    static Gen<Hostile> unknownParameter() {
        Gen<String> names = strings().basicLatinAlphabet().ofLengthBetween(1, 16).map(HostileInputIT::encode)
                .assuming(name -> !Set.of("ms", "downstream", "lock").contains(name));
        return modes().zip(names, (mode, name) -> new Hostile("unknown parameter", "GET /work/" + mode + "?" + name + "=1 HTTP/1.1", "", ""));
    }

    static Gen<Hostile> unknownPath() {
        Gen<String> segments = strings().basicLatinAlphabet().ofLengthBetween(1, 24).map(HostileInputIT::encode)
                .assuming(segment -> !MODES.contains(segment) && !segment.isEmpty());
        return segments.zip(Generate.pick(List.of("/work/", "/", "/probe/", "/lab/", "/q/")),
                (segment, prefix) -> new Hostile("unknown path", "GET " + prefix + segment + "/" + segment + " HTTP/1.1", "", ""));
    }

    static Gen<Hostile> wrongMethod() {
        return Generate.pick(List.of("POST", "PUT", "DELETE", "PATCH")).zip(
                Generate.pick(List.of("/work/unpinned", "/work/platform", "/probe/virtual", "/probe/worker", "/lab/info", "/lab/pinning")),
                (method, path) -> new Hostile("method not allowed", method + " " + path + " HTTP/1.1", "", ""));
    }

    static Gen<Hostile> oversizedQuery() {
        return integers().between(9_000, 40_000).zip(modes(),
                (length, mode) -> new Hostile("oversized query", "GET /work/" + mode + "?ms=" + "1".repeat(length) + " HTTP/1.1", "", ""));
    }

    static Gen<Hostile> oversizedHeader() {
        return integers().between(17_000, 60_000).map(length ->
                new Hostile("oversized header", "GET /probe/worker HTTP/1.1", "X-Padding: " + "a".repeat(length) + "\r\n", ""));
    }

    static Gen<Hostile> bodyOnGet() {
        return integers().between(1, 200_000).zip(Generate.pick(List.of("/work/unpinned?ms=1", "/probe/virtual", "/lab/info", "/q/health/live")),
                (length, path) -> new Hostile("body on GET", "GET " + path + " HTTP/1.1", "Content-Type: application/json\r\n", "x".repeat(length)));
    }

    static Gen<Hostile> brokenEncoding() {
        return Generate.pick(List.of("%", "%zz", "%e2%82", "%%", "%G0", "%ff%fe")).zip(modes(),
                (broken, mode) -> new Hostile("broken percent-encoding", "GET /work/" + mode + "?ms=" + broken + " HTTP/1.1", "", ""));
    }

    /** Percent-encodes what a request line cannot carry raw, so the generator tests the service, not the socket. */
    static String encode(String text) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~') {
                encoded.append(c);
            } else {
                encoded.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return encoded.toString();
    }

    private static JsonNode readJson(String body) {
        try {
            return LabClient.json().readTree(body);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }
}
