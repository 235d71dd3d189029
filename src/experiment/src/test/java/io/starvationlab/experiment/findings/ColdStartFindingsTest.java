package io.starvationlab.experiment.findings;

import static io.starvationlab.experiment.results.MadeUp.NONE_BLOCKED;
import static io.starvationlab.experiment.results.MadeUp.STALL;
import static io.starvationlab.experiment.results.MadeUp.eager;
import static io.starvationlab.experiment.results.MadeUp.lazy;
import static io.starvationlab.experiment.results.MadeUp.probes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.run.EventLoopsBlocked;
import io.starvationlab.experiment.run.MeasuredColdStart;

/**
 * The blocked-thread checker's findings on made-up server JVMs: in every repeat a lazy bean blocks the event loops for seconds and an
 * eager one blocks none; no server JVM of the plan, nor an eager cold start, has an event loop blocked.
 */
class ColdStartFindingsTest {

    @Test
    void shouldHoldWhenEveryLazyRunBlocksForSecondsAndNoEagerRunBlocks() {
        Finding finding = ColdStartFindings.lazyBean(List.of(lazy(1, STALL), eager(1, 12, 3.1, 2.4), lazy(2, STALL), eager(2, 48, 8, 5)));
        assertThat(finding.id()).isEqualTo("lazy-bean-blocks-event-loops");
        assertThat(finding.holds()).as(finding.measured()).isTrue();
        assertThat(finding.measured()).contains("repeat 1 lazy: 7 blocked-thread warnings, longest 7.60 s", "repeat 2 eager: no event loop blocked",
                "malformed {400=40}");
    }

    /** One repeat of three where the race did not block for seconds: the finding is about every repeat. */
    @Test
    void shouldFailWhenALazyRunBlocksNothingOrTooBriefly() {
        EventLoopsBlocked brief = new EventLoopsBlocked(1, 1_100, STALL.firstWarning());
        assertThat(ColdStartFindings.lazyBean(List.of(lazy(1, STALL), eager(1, 12, 3, 2), lazy(2, brief), eager(2, 12, 3, 2))).holds()).isFalse();
        assertThat(ColdStartFindings.lazyBean(List.of(lazy(1, NONE_BLOCKED), eager(1, 12, 3, 2))).measured())
                .contains("NOT as expected: no event loop blocked for 2.00 s");
        MeasuredColdStart untriggered = new MeasuredColdStart(1, true, "cold-start-lazy-1", "native", 4.2, false, STALL, probes(12, 3, 2, 400));
        assertThat(ColdStartFindings.lazyBean(List.of(untriggered, eager(1, 12, 3, 2))).holds()).as("the lazy creation never began").isFalse();
    }

    /** The broken fixture: the eager run's event loop blocked, named with its first frames. */
    @Test
    void shouldFailWhenAnEagerRunBlocksAnEventLoop() {
        MeasuredColdStart blocked = new MeasuredColdStart(1, false, "cold-start-eager-1", "native", 4.2, true, STALL, probes(12, 3, 2, 400));
        Finding finding = ColdStartFindings.lazyBean(List.of(lazy(1, STALL), blocked));
        assertThat(finding.holds()).isFalse();
        assertThat(finding.measured()).contains("event loops blocked: ", "vert.x-eventloop-thread-0", "ContextInstances.computeIfAbsent");
    }

    @Test
    void shouldFailWhenAnEagerRunTellsAMalformedRequestToRetryOrAnswersLate() {
        assertThat(ColdStartFindings.lazyBean(List.of(lazy(1, STALL), eager(1, 100.5, 3, 2))).holds()).isFalse();
        assertThat(ColdStartFindings.lazyBean(List.of(lazy(1, STALL), eager(1, 12, 1_000, 2))).holds()).isFalse();
        assertThat(ColdStartFindings.lazyBean(List.of(lazy(1, STALL), eager(1, 12, 3, 1_200))).holds()).isFalse();
        MeasuredColdStart retry = new MeasuredColdStart(1, false, "cold-start-eager-1", "native", 4.2, true, NONE_BLOCKED, probes(12, 3, 2, 503));
        Finding finding = ColdStartFindings.lazyBean(List.of(lazy(1, STALL), retry));
        assertThat(finding.holds()).isFalse();
        assertThat(finding.measured()).contains("malformed answered {503=40}, not all 400");
    }

    @Test
    void shouldNotJudgeWithoutBothKindsOfRun() {
        assertThat(ColdStartFindings.lazyBean(List.of()).holds()).isNull();
        assertThat(ColdStartFindings.lazyBean(List.of(lazy(1, STALL))).holds()).isNull();
        assertThat(ColdStartFindings.noneBlocked(Collections.singletonMap("default", null), List.of()).holds()).as("no server JVM ran").isNull();
    }

    @Test
    void noEventLoopBlockedShouldHoldWhenNoServerJvmWarnedLeavingTheLazyColdStartsOut() {
        Finding finding = ColdStartFindings.noneBlocked(Map.of("default", NONE_BLOCKED), List.of(lazy(1, STALL), eager(1, 12, 3, 2)));
        assertThat(finding.id()).isEqualTo("no-event-loop-blocked");
        assertThat(finding.holds()).as(finding.measured()).isTrue();
        assertThat(finding.measured()).isEqualTo("none in 2 server JVMs (default, cold-start-eager-1)");
    }

    /** The broken fixtures: a server JVM of the plan, or an eager cold start, whose event loop the checker saw blocked; named, counted, located. */
    @Test
    void noEventLoopBlockedShouldFailNamingTheServerTheCountAndTheFirstStack() {
        Finding finding = ColdStartFindings.noneBlocked(Map.of("default", NONE_BLOCKED, "one-event-loop", STALL), List.of());
        assertThat(finding.holds()).isFalse();
        assertThat(finding.measured()).startsWith("one-event-loop: 7 warnings, longest 7.60 s; first: ")
                .contains("vert.x-eventloop-thread-0", "at io.quarkus.arc.impl.ContextInstances.computeIfAbsent").doesNotContain("default");
        MeasuredColdStart blocked = new MeasuredColdStart(2, false, "cold-start-eager-2", "native", 4, true, STALL, Map.of());
        assertThat(ColdStartFindings.noneBlocked(Map.of("default", NONE_BLOCKED), List.of(blocked)).measured())
                .startsWith("cold-start-eager-2: 7 warnings");
    }
}
