package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.management.UnixOperatingSystemMXBean;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.junit.ServiceConditions;
import io.starvationlab.harness.load.Latencies;
import io.starvationlab.harness.load.Probes;
import io.starvationlab.service.Mode;

/**
 * Clients no server should trust, on one server. Generated malformed requests, sent over raw sockets: every one is
 * answered, quickly, with a 4xx problem+json, or with the HTTP server's own bodiless 400/413/414/431 for requests it
 * refuses before routing; never a 5xx, never a hang; failures shrink to the smallest offending request. A request in
 * an HTTP version the server does not speak gets 505. Thousands of requests that never finish and keep-alive
 * connections left idle are closed once {@code quarkus.http.idle-timeout} passes (short here, so the test is quick),
 * while liveness and the event-loop probe keep answering.
 */
class HostileClientsIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    static final int EXAMPLES = 300;
    static final Set<Integer> SERVER_OWN = Set.of(400, 413, 414, 431);
    static final List<String> MODES = Mode.labels();
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(5);
    /** Twice the idle timeout: the server starts counting once it accepted a connection, later on a busy machine. */
    static final Duration SHED_WITHIN = IDLE_TIMEOUT.multipliedBy(2);
    static final int WANTED = 3000;
    static final int IDLE_KEEP_ALIVE = 20;
    /** The slowest a probe may answer while the connections are held: one slower fails at its timeout. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    /** Request line and one header, never the empty line that ends the head. */
    static final byte[] UNFINISHED = "GET /probe/event-loop HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.US_ASCII);
    static final byte[] FINISHED = "GET /q/health/live HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

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

    /** One client connection, what it sent, and when the server closed it. */
    static final class Held {
        final SocketChannel channel;
        final boolean finished;
        final long opened = System.nanoTime();
        long closed;
        int bytesReceived;

        Held(SocketChannel channel, boolean finished) {
            this.channel = channel;
            this.finished = finished;
        }

        Duration heldFor() {
            return Duration.ofNanos(closed - opened);
        }
    }

    @BeforeAll
    static void start() {
        server = servers.lab("hostile-clients", Map.of("lab.downstream.acquire-timeout", "2s", "quarkus.http.idle-timeout", IDLE_TIMEOUT.toSeconds() + "s"));
    }

    @Test
    void everyMalformedRequestShouldGetA4xxProblemQuickly() {
        AtomicInteger sent = new AtomicInteger();
        qt().withExamples(EXAMPLES).withShrinkCycles(50).forAll(hostileRequests()).checkAssert(request -> {
            sent.incrementAndGet();
            RawHttp.Response response = RawHttp.exchange(server.baseUri(), request.bytes(), Duration.ofSeconds(15));
            assertThat(response.status()).as("%s -> %s", request, response).isBetween(400, 499);
            assertThat(response.took()).as("%s answered in time", request).isLessThan(Duration.ofSeconds(5));
            if (!SERVER_OWN.contains(response.status()) || !response.body().isEmpty()) {
                // what the HTTP server refuses before any route has no body to give
                assertProblem(request, response);
            }
        });
        assertThat(sent.get()).isGreaterThanOrEqualTo(200);
        LabClient lab = new LabClient(server.baseUri());
        assertThat(lab.get("/q/health/live").statusCode()).as("still alive afterwards").isEqualTo(200);
        ServiceConditions.awaitIdle(lab, Duration.ofSeconds(5), "no request slot, permit or connection kept by a refused request");
    }

    @Test
    void anUnknownHttpVersionShouldGet505() {
        for (String version : List.of("HTTP/9.9", "HTTP/3.0", "HTTP/1.0", "HTTP/1.1")) {
            Hostile request = new Hostile("HTTP version", "GET /probe/event-loop " + version, "", "");
            RawHttp.Response response = RawHttp.exchange(server.baseUri(), request.bytes(), Duration.ofSeconds(10));
            if (version.startsWith("HTTP/1.")) {
                assertThat(response.status()).as(version).isEqualTo(200);
                continue;
            }
            assertThat(response.status()).as("%s -> %s", version, response).isEqualTo(505);
            JsonNode problem = assertProblem(request, response);
            assertThat(problem.path("type").asText()).isEqualTo("urn:starvation-lab:problem:http-version-not-supported");
            assertThat(problem.path("detail").asText()).contains("HTTP/1.1");
        }
    }

    /** A problem+json whose status is the response's, of the lab's kind, with a detail. */
    private static JsonNode assertProblem(Hostile request, RawHttp.Response response) {
        assertThat(response.header("Content-Type")).as("%s -> %s", request, response).startsWith("application/problem+json");
        JsonNode problem;
        try {
            problem = LabClient.json().readTree(response.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + response.body(), e);
        }
        assertThat(problem.path("status").asInt()).as("%s", request).isEqualTo(response.status());
        assertThat(problem.path("type").asText()).startsWith("urn:starvation-lab:problem:");
        assertThat(problem.path("detail").asText()).isNotBlank();
        return problem;
    }

    @Test
    void unfinishedAndIdleConnectionsShouldBeShedWithinTheIdleTimeoutWhileTheProbesAnswer() throws Exception {
        int unfinished = affordableConnections();
        OptionalLong descriptorsBefore = openDescriptors(server.pid());
        List<Held> held = new ArrayList<>();
        InetSocketAddress address = new InetSocketAddress(server.baseUri().getHost(), server.baseUri().getPort());
        long openStart = System.nanoTime();
        // each probe on a connection of its own: the server keeps accepting while it holds the others
        try (Selector selector = Selector.open();
                Probes probes = Probes.start(server.baseUri(), Map.of("live", "/q/health/live", "event-loop", "/probe/event-loop"),
                        Map.of("live", 10.0, "event-loop", 10.0), PROBE_TIMEOUT)) {
            for (int i = 0; i < unfinished + IDLE_KEEP_ALIVE; i++) {
                boolean finished = i >= unfinished;
                SocketChannel channel = SocketChannel.open(address);
                channel.write(ByteBuffer.wrap(finished ? FINISHED : UNFINISHED));
                channel.configureBlocking(false);
                Held connection = new Held(channel, finished);
                channel.register(selector, SelectionKey.OP_READ, connection);
                held.add(connection);
            }
            double openSeconds = (System.nanoTime() - openStart) / 1e9;
            OptionalLong descriptorsHeld = awaitDescriptors(server.pid(), descriptorsBefore, unfinished);
            awaitClosed(selector, held, System.nanoTime() + SHED_WITHIN.plusSeconds(5).toNanos());
            Machine.pause(Duration.ofSeconds(1));
            Probes.Window window = probes.nextWindow();
            // the window's probes still in flight land in it: each answers, or fails at its timeout
            Machine.pause(PROBE_TIMEOUT.plusMillis(500));
            OptionalLong descriptorsAfter = openDescriptors(server.pid());

            List<Held> open = held.stream().filter(connection -> connection.closed == 0).toList();
            Duration longest = held.stream().filter(connection -> connection.closed != 0).map(Held::heldFor).max(Duration::compareTo).orElse(Duration.ZERO);
            Duration shortest = held.stream().filter(connection -> connection.closed != 0).map(Held::heldFor).min(Duration::compareTo).orElse(Duration.ZERO);
            System.out.printf("%d unfinished + %d idle keep-alive connections opened in %.2f s; server descriptors %s before, %s held, %s after;"
                    + " closed after %d-%d ms; still open %d; probes live %s, event-loop %s, slowest %.0f and %.0f ms%n",
                    unfinished, IDLE_KEEP_ALIVE, openSeconds, descriptorsBefore, descriptorsHeld, descriptorsAfter,
                    shortest.toMillis(), longest.toMillis(), open.size(), window.latencies().get("live").statuses(),
                    window.latencies().get("event-loop").statuses(), window.latencies().get("live").maxMillis(),
                    window.latencies().get("event-loop").maxMillis());

            assertThat(open.size()).as("connections the server still held %s after they were opened", SHED_WITHIN.plusSeconds(5)).isZero();
            assertThat(longest).as("the longest a connection was held").isLessThan(SHED_WITHIN);
            assertThat(shortest).as("held until the idle timeout, not refused or reset at once").isGreaterThan(IDLE_TIMEOUT.minusMillis(500));
            assertThat(held).filteredOn(connection -> !connection.finished).as("an unfinished request gets no answer, only a close")
                    .allSatisfy(connection -> assertThat(connection.bytesReceived).isZero());
            assertThat(held).filteredOn(connection -> connection.finished).as("an idle keep-alive connection got its answer first")
                    .allSatisfy(connection -> assertThat(connection.bytesReceived).isPositive());
            for (Latencies probe : window.latencies().values()) {
                assertThat(probe.failed()).as("liveness and the event-loop probe answered throughout").isZero();
                assertThat(probe.count()).as("probes sent while the connections were held").isGreaterThan(20);
                assertThat(probe.maxMillis()).as("the slowest probe, ms").isLessThan(PROBE_TIMEOUT.toMillis());
            }
            if (descriptorsBefore.isPresent() && descriptorsHeld.isPresent() && descriptorsAfter.isPresent()) {
                assertThat(descriptorsHeld.getAsLong()).as("the server held them (descriptors)").isGreaterThan(descriptorsBefore.getAsLong() + unfinished * 9L / 10);
                assertThat(descriptorsAfter.getAsLong()).as("and let every one go (descriptors)").isLessThan(descriptorsBefore.getAsLong() + 50);
            }
        } finally {
            for (Held connection : held) {
                connection.channel.close();
            }
        }
    }

    /** Until {@code deadline}, records when the server closes each connection and what it sent first. */
    private static void awaitClosed(Selector selector, List<Held> held, long deadline) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        long open = held.size();
        while (open > 0 && System.nanoTime() < deadline) {
            selector.select(200);
            for (SelectionKey key : selector.selectedKeys()) {
                Held connection = (Held) key.attachment();
                int read;
                try {
                    buffer.clear();
                    read = connection.channel.read(buffer);
                } catch (IOException reset) {
                    read = -1;
                }
                if (read > 0) {
                    connection.bytesReceived += read;
                } else if (read < 0) {
                    connection.closed = System.nanoTime();
                    key.cancel();
                    open--;
                }
            }
            selector.selectedKeys().clear();
        }
    }

    /** As many as both JVMs' descriptor limits allow (the server's is this JVM's, inherited), up to {@link #WANTED}. */
    private static int affordableConnections() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
            long spare = unix.getMaxFileDescriptorCount() - unix.getOpenFileDescriptorCount() - 500;
            int affordable = (int) Math.min(WANTED, spare);
            assertThat(affordable).as("connections this machine's descriptor limit allows (ulimit -n %d): raise it to at least 2000",
                    unix.getMaxFileDescriptorCount()).isGreaterThanOrEqualTo(1000);
            return affordable;
        }
        return WANTED;
    }

    /** The server's open descriptors once it accepted {@code expected} more than {@code before}, or after 3 s. */
    private static OptionalLong awaitDescriptors(long pid, OptionalLong before, int expected) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        OptionalLong now = openDescriptors(pid);
        while (before.isPresent() && now.isPresent() && now.getAsLong() < before.getAsLong() + expected && System.nanoTime() < deadline) {
            Machine.pause(Duration.ofMillis(100));
            now = openDescriptors(pid);
        }
        return now;
    }

    /** The server's open descriptors, where /proc tells. */
    private static OptionalLong openDescriptors(long pid) throws IOException {
        Path fds = Path.of("/proc", String.valueOf(pid), "fd");
        if (!Files.isDirectory(fds)) {
            return OptionalLong.empty();
        }
        try (Stream<Path> open = Files.list(fds)) {
            return OptionalLong.of(open.count());
        }
    }

    static Gen<Hostile> hostileRequests() {
        return Generate.oneOf(badMs(), badChoice(), repeatedParameter(), unknownParameter(), unknownPath(), wrongMethod(),
                oversizedQuery(), oversizedHeader(), bodyOnGet(), brokenEncoding());
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
                        .map(HostileClientsIT::encode));
        return Generate.pick(MODES).zip(values, (mode, ms) -> new Hostile("bad ms", "GET /work/" + mode + "?ms=" + ms + " HTTP/1.1", "", ""));
    }

    static Gen<Hostile> badChoice() {
        Gen<String> words = strings().basicLatinAlphabet().ofLengthBetween(0, 20).map(HostileClientsIT::encode)
                .assuming(word -> !Set.of("db", "sleep", "private", "shared").contains(word));
        return Generate.pick(MODES).zip(Generate.pick(List.of("downstream", "lock")), words,
                (mode, name, value) -> new Hostile("bad " + name, "GET /work/" + mode + "?" + name + "=" + value + " HTTP/1.1", "", ""));
    }

    static Gen<Hostile> repeatedParameter() {
        return Generate.pick(MODES).zip(Generate.pick(List.of("ms=10&ms=20", "downstream=db&downstream=sleep", "lock=private&lock=shared", "ms=5&ms=5")),
                (mode, query) -> new Hostile("repeated parameter", "GET /work/" + mode + "?" + query + " HTTP/1.1", "", ""));
    }

    static Gen<Hostile> unknownParameter() {
        Gen<String> names = strings().basicLatinAlphabet().ofLengthBetween(1, 16).map(HostileClientsIT::encode)
                .assuming(name -> !Set.of("ms", "downstream", "lock").contains(name));
        return Generate.pick(MODES).zip(names, (mode, name) -> new Hostile("unknown parameter", "GET /work/" + mode + "?" + name + "=1 HTTP/1.1", "", ""));
    }

    static Gen<Hostile> unknownPath() {
        Gen<String> segments = strings().basicLatinAlphabet().ofLengthBetween(1, 24).map(HostileClientsIT::encode)
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
        return integers().between(9_000, 40_000).zip(Generate.pick(MODES),
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
        return Generate.pick(List.of("%", "%zz", "%e2%82", "%%", "%G0", "%ff%fe")).zip(Generate.pick(MODES),
                (broken, mode) -> new Hostile("broken percent-encoding", "GET /work/" + mode + "?ms=" + broken + " HTTP/1.1", "", ""));
    }

    /** Percent-encodes what a request line cannot carry raw (a space as +), so the generator tests the service, not the socket. */
    static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

}
