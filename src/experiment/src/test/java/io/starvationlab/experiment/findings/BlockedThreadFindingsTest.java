package io.starvationlab.experiment.findings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.run.EventLoopsBlocked;
import io.starvationlab.experiment.run.MeasuredColdStart;

/** The blocked-thread checker as the experiment's oracle, on made-up server JVMs. */
class BlockedThreadFindingsTest {

    private static final EventLoopsBlocked NONE = ColdStartFindingsTest.NONE;
    private static final EventLoopsBlocked STALL = ColdStartFindingsTest.STALL;

    @Test
    void shouldHoldWhenNoServerJvmWarned() {
        Finding finding = BlockedThreadFindings.evaluate(servers("default", NONE, "wide-permits", NONE), List.of());
        assertThat(finding.id()).isEqualTo("no-event-loop-blocked");
        assertThat(finding.holds()).as(finding.measured()).isTrue();
        assertThat(finding.measured()).isEqualTo("none in 2 server JVMs (default, wide-permits)");
    }

    /** The broken fixture: one server JVM of the plan whose event loop the checker saw blocked; the finding names it, how often and where. */
    @Test
    void shouldFailNamingTheServerTheCountAndTheFirstStack() {
        Finding finding = BlockedThreadFindings.evaluate(servers("default", NONE, "one-event-loop", STALL), List.of());
        assertThat(finding.holds()).isFalse();
        assertThat(finding.measured()).startsWith("one-event-loop: 7 warnings, longest 7.60 s; first: ")
                .contains("vert.x-eventloop-thread-0", "at io.quarkus.arc.impl.ContextInstances.computeIfAbsent").doesNotContain("default");
    }

    /** A lazy cold start is meant to block; an eager one is judged like any server JVM. */
    @Test
    void shouldLeaveTheLazyColdStartsOutAndJudgeTheEagerOnes() {
        MeasuredColdStart lazy = new MeasuredColdStart(1, true, "cold-start-lazy-1", "native", 4, true, STALL, Map.of());
        MeasuredColdStart eager = new MeasuredColdStart(1, false, "cold-start-eager-1", "native", 4, true, NONE, Map.of());
        assertThat(BlockedThreadFindings.evaluate(servers("default", NONE), List.of(lazy, eager)).measured())
                .isEqualTo("none in 2 server JVMs (default, cold-start-eager-1)");
        MeasuredColdStart blocked = new MeasuredColdStart(2, false, "cold-start-eager-2", "native", 4, true, STALL, Map.of());
        assertThat(BlockedThreadFindings.evaluate(servers("default", NONE), List.of(lazy, blocked)).measured()).startsWith("cold-start-eager-2: 7 warnings");
    }

    @Test
    void shouldNotJudgeWhenNoServerJvmRan() {
        Map<String, EventLoopsBlocked> notStarted = new LinkedHashMap<>();
        notStarted.put("default", null);
        assertThat(BlockedThreadFindings.evaluate(notStarted, List.of()).holds()).isNull();
    }

    private static Map<String, EventLoopsBlocked> servers(Object... nameThenBlocked) {
        Map<String, EventLoopsBlocked> servers = new LinkedHashMap<>();
        for (int i = 0; i < nameThenBlocked.length; i += 2) {
            servers.put((String) nameThenBlocked[i], (EventLoopsBlocked) nameThenBlocked[i + 1]);
        }
        return servers;
    }
}
