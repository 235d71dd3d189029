package io.starvationlab.experiment.findings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.MadeUp;
import io.starvationlab.experiment.results.UnrelatedWait;

/** The event-loop findings, judged on made-up phases: fair queues, and one whose event loops are not served alike. */
class EventLoopFindingsTest {

    @Test
    void shouldHoldWhenOneEventLoopIsFairAndSeveralAreNotInSomePhase() {
        List<Finding> findings = evaluate(phases(EventLoopFindings.ONE, false), phases(EventLoopFindings.DEFAULT, true));
        assertThat(findings).extracting(Finding::holds).containsExactly(true, true, true);
        assertThat(findings.get(1).measured()).startsWith("unfair in 1 of 4 phases with several event loops, 0 of 4 with one");
    }

    /** The broken fixtures: the one-event-loop phase is the unfair one; every phase waits its turn. */
    @Test
    void shouldFailWhenOneEventLoopIsUnfairOrNoPhaseIs() {
        List<Finding> oneUnfair = evaluate(phases(EventLoopFindings.ONE, true), phases(EventLoopFindings.DEFAULT, true));
        assertThat(oneUnfair.get(0).holds()).isFalse();
        assertThat(oneUnfair.get(1).holds()).isFalse();
        assertThat(evaluate(phases(EventLoopFindings.ONE, false), phases(EventLoopFindings.DEFAULT, false)).get(1).holds()).isFalse();
    }

    @Test
    void shouldSayNotMeasuredWithoutThePhases() {
        assertThat(EventLoopFindings.evaluate(name -> Optional.empty())).extracting(Finding::holds).containsOnlyNulls();
    }

    private static List<Finding> evaluate(List<JudgedPhase> one, List<JudgedPhase> several) {
        List<JudgedPhase> all = Stream.of(one, several, Stream.of("unpinned-0ms-one-event-loop", "unpinned-0ms-default-event-loops")
                .map(name -> MadeUp.phase(name, "unpinned", "permits", 5000, 50000, 1, JudgedPhase.NOT_STARVED)).toList()).flatMap(List::stream).toList();
        return EventLoopFindings.evaluate(name -> all.stream().filter(p -> p.name().equals(name)).findFirst());
    }

    /** The phases of {@code names}, each waiting its turn, but the first if {@code firstUnfair}. */
    private static List<JudgedPhase> phases(List<String> names, boolean firstUnfair) {
        return names.stream().map(name -> MadeUp.phase(name, wait(firstUnfair && name.equals(names.getFirst())))).toList();
    }

    /** 200 probes over 4 event loops, each answered after the 60 requests ahead; or two event loops left until the load stops. */
    private static UnrelatedWait wait(boolean unfair) {
        return UnrelatedWait.of(1500, 1500, 60, IntStream.range(0, 200).mapToObj(i -> {
            boolean starved = unfair && i % 4 >= 2;
            return new UnrelatedWait.Probe(1 + i * 0.025, starved ? 6000 : unfair ? 700 : 1500, 200, "vert.x-eventloop-thread-" + i % 4, starved ? 240 : unfair ? 28 : 60);
        }).toList());
    }
}
