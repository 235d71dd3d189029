package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.ServerJdk;
import io.starvationlab.harness.ThreadDump;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.junit.ServiceConditions;
import io.starvationlab.harness.load.ColdStartRace;
import io.starvationlab.harness.load.Latencies;
import io.starvationlab.harness.load.Probes;

/**
 * An application-scoped bean the event loops and the virtual threads share, left to its first use on a fresh JVM
 * starved at once, holds every event loop while its creator, a virtual thread, waits for a carrier (docs/observability.md,
 * "Lazily created beans stop the event loops"; the race is {@link ColdStartRace}'s). That with the bean created at
 * start-up no event loop blocks is the experiment's finding {@code lazy-bean-blocks-event-loops}.
 */
class LazyBeanIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    static final Duration STARVED = Duration.ofSeconds(3);
    static final String HOLDER_FRAME = "io.starvationlab.problem.ProblemResponses.<init>";
    static final String WAITER_FRAME = "ContextInstances.computeIfAbsent";

    /**
     * What one fresh JVM under the load shows: the checker's warnings; from a thread dump taken once the
     * checker warned, the bean's creator and the event loops waiting on ArC's lock; liveness and malformed requests.
     */
    @Test
    void aBeanLeftToItsFirstUseShouldHoldTheEventLoopsWhileItsCreatorWaitsForACarrier() {
        LabServer server = servers.labExpectingBlockedEventLoops("lazy-bean", ColdStartRace.properties(true));
        LabClient lab = new LabClient(server.baseUri());
        AtomicReference<JsonNode> dumped = new AtomicReference<>();
        ColdStartRace.Starved starved = ColdStartRace.starve(server, ServerJdk.of(lab).starvingMode(), true, STARVED, () -> {
            if (dumped.get() == null && !server.eventLoopBlockedWarnings().isEmpty()) {
                dumped.set(ThreadDump.dump(server.pid())); // during the stall: the checker warns while it lasts
            }
        });
        assertThat(starved.triggered()).as("the bean's creation begun on a virtual thread").isTrue();
        JsonNode dump = dumped.get();
        Probes.Window window = starved.window();
        List<LabServer.BlockedEventLoop> blocked = server.eventLoopBlockedWarnings();
        Map<String, Long> longest = new TreeMap<>();
        blocked.forEach(warning -> longest.merge(warning.thread(), warning.blockedMillis(), Math::max));
        Latencies live = window.latencies().get("live");
        JsonNode holder = dump == null ? null : ThreadDump.threads(dump).stream()
                .filter(thread -> frames(thread).stream().anyMatch(frame -> frame.startsWith(HOLDER_FRAME))).findFirst().orElse(null);
        List<String> waiters = dump == null ? List.of() : ThreadDump.threads(dump).stream()
                .filter(thread -> thread.path("name").asText().startsWith("vert.x-eventloop-thread-"))
                .filter(thread -> frames(thread).stream().anyMatch(frame -> frame.contains(WAITER_FRAME)))
                .map(thread -> thread.path("name").asText()).toList();
        Latencies malformed = window.latencies().get("malformed");
        System.out.printf("lazy-bean: event loops blocked (longest warning each, ms) %s; liveness max %.0f ms, event-loop probe max %.0f ms,"
                + " malformed %s max %.0f ms; in the dump, the bean's creator: %s, event loops waiting for it: %s%n", longest,
                live.maxMillis(), window.latencies().get("event-loop").maxMillis(), malformed.statuses(), malformed.maxMillis(), holder == null ? "none" : holder.path("name").asText() + " "
                        + holder.path("state").asText() + (holder.has("carrier") ? " on " + holder.path("carrier").asText() : ", unmounted"),
                waiters);
        if (holder != null) {
            System.out.println("  " + String.join("\n  ", frames(holder)));
        }

        assertThat(blocked).as("event loops reported blocked with the bean left lazy").isNotEmpty();
        // the oracle every other server of the tests is judged by (Servers) fails on them, with their stacks
        assertThatThrownBy(() -> ServiceConditions.assertNoEventLoopBlocked("lazy-bean", blocked))
                .hasMessageContaining("has been blocked for").hasMessageContaining(WAITER_FRAME);
        assertThat(blocked).as("waiting on ArC's lock for the bean, to refuse a request")
                .anySatisfy(warning -> assertThat(warning.warning()).contains(WAITER_FRAME, "ProblemResponses_ClientProxy."));
        assertThat(holder).as("the thread dump taken during the stall: the creator, a virtual thread").isNotNull();
        assertThat(waiters).as("event loops in that dump waiting on ArC's lock").isNotEmpty();
        assertThat(holder.path("virtual").asBoolean()).isTrue();
        assertThat(holder.has("carrier")).as("unmounted: waiting for a carrier, not running on one").isFalse();
        assertThat(live.maxMillis()).as("liveness waits with the event loops, ms").isGreaterThan(1_000);
        assertThat(malformed.maxMillis()).as("a malformed request's 400 waits with them, ms").isGreaterThan(1_000);
    }

    private static List<String> frames(JsonNode thread) {
        return thread.path("stack").valueStream().map(JsonNode::asText).toList();
    }
}
