package io.starvationlab.experiment.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.load.ProbeSample;

/** The plan's event-loop rule on the runner's probes: each event loop answers at least its least share of its even part. */
class ProbeReachTest {

    /** The runner names event loops by thread name; k6, by number, is judged by the same rule in K6FindingsTest. */
    @Test
    void shouldHoldWhenEveryEventLoopAnswersItsShare() {
        ProbeReach reach = ProbeReach.of("native", "default", samples(60, 50, 40, 30), 4, 0.25, false);
        assertThat(reach.even()).isTrue();
        assertThat(reach.leastAnswers()).isEqualTo(0.25 * 180 / 4);
        assertThat(reach.describe()).isEqualTo("4 of 4 (60, 50, 40, 30)");
    }

    /** The broken fixture: the accident of connection order, every probe on one event loop. */
    @Test
    void shouldFailWhenAnEventLoopIsShortOrUnreached() {
        ProbeReach one = ProbeReach.of("native", "default", samples(180, 0, 0, 0), 4, 0.25, false);
        assertThat(one.even()).isFalse();
        assertThat(one.reached()).isEqualTo(1);
        assertThat(one.describe()).endsWith("UNEVEN");
        assertThat(ProbeReach.of("native", "default", samples(80, 80, 80, 9), 4, 0.25, false).even()).isFalse();
    }

    @Test
    void shouldNotJudgeOneHttp2ConnectionOrProbesThatNameNoEventLoop() {
        ProbeReach http2 = ProbeReach.of("native-http2", "http2", samples(100, 0, 0, 0), 4, 0.25, true);
        assertThat(http2.even()).isNull();
        assertThat(http2.why()).contains("HTTP/2");
        assertThat(ProbeReach.of("x", "default", List.of(new ProbeSample(0, 1, 503, null)), 4, 0.25, false).even()).isNull();
    }

    private static List<ProbeSample> samples(int... perEventLoop) {
        return IntStream.range(0, perEventLoop.length).boxed().flatMap(loop -> IntStream.range(0, perEventLoop[loop])
                .mapToObj(i -> new ProbeSample(i, 1_000_000, 200, "vert.x-eventloop-thread-" + loop))).toList();
    }
}
