package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.management.UnixOperatingSystemMXBean;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Servers;

/**
 * Connections the server must not keep: thousands of requests that never finish and keep-alive
 * connections left idle are closed once {@code quarkus.http.idle-timeout} passes (short here, so the
 * test is quick), while liveness and the event-loop probe keep answering; and a request in an HTTP
 * version the server does not speak gets 505.
 */
class ConnectionBoundsIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(5);
    /** Twice the idle timeout: the server starts counting once it accepted a connection, later on a busy machine. */
    static final Duration SHED_WITHIN = IDLE_TIMEOUT.multipliedBy(2);
    static final int WANTED = 3000;
    static final int IDLE_KEEP_ALIVE = 20;
    /** Request line and one header, never the empty line that ends the head. */
    static final byte[] UNFINISHED = "GET /probe/event-loop HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.US_ASCII);
    static final byte[] FINISHED = "GET /q/health/live HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    static LabServer server;

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
        server = servers.lab("connection-bounds", Map.of("quarkus.http.idle-timeout", IDLE_TIMEOUT.toSeconds() + "s"));
    }

    @Test
    void unfinishedAndIdleConnectionsShouldBeShedWithinTheIdleTimeoutWhileTheProbesAnswer() throws Exception {
        int unfinished = affordableConnections();
        OptionalLong descriptorsBefore = openDescriptors(server.pid());
        List<Duration> probeTimes = new CopyOnWriteArrayList<>();
        List<String> probeFailures = new CopyOnWriteArrayList<>();
        AtomicBoolean probing = new AtomicBoolean(true);
        Thread probes = Thread.ofPlatform().name("probes").start(() -> probe(probing, probeTimes, probeFailures));

        List<Held> held = new ArrayList<>();
        InetSocketAddress address = new InetSocketAddress(server.baseUri().getHost(), server.baseUri().getPort());
        long openStart = System.nanoTime();
        try (Selector selector = Selector.open()) {
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
            LabServer.sleep(Duration.ofSeconds(1));
            probing.set(false);
            probes.join();
            OptionalLong descriptorsAfter = openDescriptors(server.pid());

            List<Held> open = held.stream().filter(connection -> connection.closed == 0).toList();
            Duration longest = held.stream().filter(connection -> connection.closed != 0).map(Held::heldFor).max(Duration::compareTo).orElse(Duration.ZERO);
            Duration shortest = held.stream().filter(connection -> connection.closed != 0).map(Held::heldFor).min(Duration::compareTo).orElse(Duration.ZERO);
            Duration slowestProbe = probeTimes.stream().max(Duration::compareTo).orElse(Duration.ZERO);
            System.out.printf("%d unfinished + %d idle keep-alive connections opened in %.2f s; server descriptors %s before, %s held, %s after;"
                    + " closed after %d-%d ms; still open %d; %d probes, slowest %d ms, failures %s%n",
                    unfinished, IDLE_KEEP_ALIVE, openSeconds, text(descriptorsBefore), text(descriptorsHeld), text(descriptorsAfter),
                    shortest.toMillis(), longest.toMillis(), open.size(), probeTimes.size(), slowestProbe.toMillis(), probeFailures);

            assertThat(open.size()).as("connections the server still held %s after they were opened", SHED_WITHIN.plusSeconds(5)).isZero();
            assertThat(longest).as("the longest a connection was held").isLessThan(SHED_WITHIN);
            assertThat(shortest).as("held until the idle timeout, not refused or reset at once").isGreaterThan(IDLE_TIMEOUT.minusMillis(500));
            assertThat(held).filteredOn(connection -> !connection.finished).as("an unfinished request gets no answer, only a close")
                    .allSatisfy(connection -> assertThat(connection.bytesReceived).isZero());
            assertThat(held).filteredOn(connection -> connection.finished).as("an idle keep-alive connection got its answer first")
                    .allSatisfy(connection -> assertThat(connection.bytesReceived).isPositive());
            assertThat(probeFailures).as("liveness and the event-loop probe answered throughout").isEmpty();
            assertThat(probeTimes.size()).as("probes sent while the connections were held").isGreaterThan(20);
            assertThat(slowestProbe).as("the slowest probe").isLessThan(Duration.ofSeconds(2));
            if (descriptorsBefore.isPresent() && descriptorsHeld.isPresent() && descriptorsAfter.isPresent()) {
                assertThat(descriptorsHeld.getAsLong()).as("the server held them (descriptors)").isGreaterThan(descriptorsBefore.getAsLong() + unfinished * 9L / 10);
                assertThat(descriptorsAfter.getAsLong()).as("and let every one go (descriptors)").isLessThan(descriptorsBefore.getAsLong() + 50);
            }
        } finally {
            probing.set(false);
            for (Held connection : held) {
                connection.channel.close();
            }
        }
    }

    @Test
    void anUnknownHttpVersionShouldGet505() throws IOException {
        for (String version : List.of("HTTP/9.9", "HTTP/3.0")) {
            byte[] request = ("GET /probe/event-loop " + version + "\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            RawHttp.Response response = RawHttp.exchange(server.baseUri(), request, Duration.ofSeconds(10));
            assertThat(response.status()).as("%s -> %s", version, response).isEqualTo(505);
            assertThat(response.header("Content-Type")).startsWith("application/problem+json");
            JsonNode problem = LabClient.json().readTree(response.body());
            assertThat(problem.path("status").asInt()).isEqualTo(505);
            assertThat(problem.path("type").asText()).isEqualTo("urn:starvation-lab:problem:http-version-not-supported");
            assertThat(problem.path("detail").asText()).contains("HTTP/1.1");
        }
        for (String version : List.of("HTTP/1.0", "HTTP/1.1")) {
            byte[] request = ("GET /probe/event-loop " + version + "\r\nHost: localhost\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            assertThat(RawHttp.exchange(server.baseUri(), request, Duration.ofSeconds(10)).status()).as(version).isEqualTo(200);
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

    private static void probe(AtomicBoolean probing, List<Duration> times, List<String> failures) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        List<String> paths = List.of("/q/health/live", "/probe/event-loop");
        for (int i = 0; probing.get(); i++) {
            String path = paths.get(i % paths.size());
            long start = System.nanoTime();
            try {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(server.uri(path)).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
                times.add(Duration.ofNanos(System.nanoTime() - start));
                if (response.statusCode() != 200) {
                    failures.add(path + " " + response.statusCode());
                }
            } catch (IOException e) {
                failures.add(path + " " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            LabServer.sleep(Duration.ofMillis(100));
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
            LabServer.sleep(Duration.ofMillis(100));
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

    private static String text(OptionalLong value) {
        return value.isPresent() ? String.valueOf(value.getAsLong()) : "?";
    }
}
