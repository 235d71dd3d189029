package io.starvationlab.experiment.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.starvationlab.harness.load.ProbeTimeline;

/** The queue model, the wait's distribution per event loop, and the judgements made on them. */
class UnrelatedWaitTest {

    private static final String LOOP = "vert.x-eventloop-thread-";

    @Test
    void shouldPutTheRequestsNotRunningAheadOfAnUnrelatedOneAndCountItsTurnWithin15Percent() {
        // 64 clients, 4 carriers held 100 ms each: 60 ahead, served 40 a second
        assertThat(QueueModel.waitMillis(64, 4, 40)).isEqualTo(1500);
        assertThat(QueueModel.idealWaitMillis(64, 4, 100)).isEqualTo(1500);
        // a slower machine serves fewer a second, and the model follows it
        assertThat(QueueModel.waitMillis(64, 4, 32)).isEqualTo(1875);
        assertThat(QueueModel.waitMillis(4, 4, 40)).isZero();
        assertThat(QueueModel.waitMillis(64, 4, 0)).isNaN();
        // a probe waits its turn within 15 % of the model
        assertThat(QueueModel.matches(1725, 1500)).isTrue();
        assertThat(QueueModel.matches(1275, 1500)).isTrue();
        assertThat(QueueModel.matches(1726, 1500)).isFalse();
        assertThat(QueueModel.matches(1274, 1500)).isFalse();
        assertThat(QueueModel.matches(70, 60)).isFalse();
        assertThat(QueueModel.matches(50, 60)).isFalse();
    }

    @Test
    void shouldTakePercentilesByNearestRank() {
        // 25 ms to 5 s
        ProbeDistribution d = ProbeDistribution.of(IntStream.rangeClosed(1, 200).mapToObj(i -> i * 25.0).toList(), 3);
        assertThat(d.count()).isEqualTo(200);
        assertThat(d.failed()).isEqualTo(3);
        assertThat(d.minMillis()).isEqualTo(25);
        assertThat(d.p10Millis()).isEqualTo(500);
        assertThat(d.p50Millis()).isEqualTo(2500);
        assertThat(d.p90Millis()).isEqualTo(4500);
        assertThat(d.p99Millis()).isEqualTo(4950);
        assertThat(d.maxMillis()).isEqualTo(5000);
        assertThat(d.overOneSecond()).isEqualTo(160 / 200.0);
        assertThat(d.overThreeSeconds()).isEqualTo(80 / 200.0);
        assertThat(ProbeDistribution.of(List.of(), 0).p50Millis()).isNaN();
    }

    @Test
    void shouldFindEveryProbeWithinTheModelWhenOneQueueServesThemInTurn() {
        List<UnrelatedWait.Probe> probes = new ArrayList<>(IntStream.range(0, 200)
                .mapToObj(i -> new UnrelatedWait.Probe(1 + i * 0.025, 1400 + (i % 20) * 10, 200, LOOP + "0", -1)).toList());
        UnrelatedWait wait = UnrelatedWait.of(1500, 1500, 60, probes);
        assertThat(wait.withinTolerance()).isEqualTo(1);
        assertThat(wait.overTwiceModel()).isZero();
        assertThat(wait.eventLoopsSeen()).isEqualTo(1);
        assertThat(wait.slowestToFastestP50()).isEqualTo(1);
        // the broken fixture: one probe that waited for the load to stop is enough for "every probe" to fail
        probes.set(199, new UnrelatedWait.Probe(2, 9000, 200, LOOP + "0", -1));
        assertThat(UnrelatedWait.of(1500, 1500, 60, probes).withinTolerance()).isLessThan(1);
    }

    @Test
    void shouldSeeUnfairnessAsTheSpreadOfTheEventLoopsMedians() {
        // 40 probes on each of 4 event loops, every 100 ms, the slowest one's p50 12 times the fastest one's
        double[] waits = { 500, 1500, 6000, 1600 };
        List<UnrelatedWait.Probe> probes = new ArrayList<>(IntStream.range(0, 160)
                .mapToObj(i -> new UnrelatedWait.Probe(1 + i / 4 * 0.1, waits[i % 4], 200, LOOP + i % 4, -1)).toList());
        probes.add(new UnrelatedWait.Probe(3, 14000, 503, LOOP + "4", -1)); // too few on its own to judge an event loop by
        UnrelatedWait wait = UnrelatedWait.of(1500, 1500, 60, probes);
        assertThat(wait.slowestToFastestP50()).isEqualTo(12);
        assertThat(wait.overTwiceModel()).isEqualTo(41 / 161.0);
        assertThat(wait.byEventLoop().keySet()).containsExactly(LOOP + "0", LOOP + "1", LOOP + "2", LOOP + "3", LOOP + "4");
        assertThat(wait.byEventLoop().get(LOOP + "4").failed()).isEqualTo(1);
        assertThat(wait.measured().failed()).isEqualTo(1);
    }

    @Test
    void shouldSortAndShortenEventLoopsByNumber() {
        assertThat(UnrelatedWait.loopNumber(LOOP + "11")).isEqualTo(11);
        assertThat(UnrelatedWait.shortName(LOOP + "11")).isEqualTo("el-11");
        assertThat(UnrelatedWait.shortName("none")).isEqualTo("none");
        UnrelatedWait wait = UnrelatedWait.of(1, 1, 1, List.of(new UnrelatedWait.Probe(1, 1, 200, LOOP + "10", -1),
                new UnrelatedWait.Probe(1, 1, 200, LOOP + "2", -1), new UnrelatedWait.Probe(1, 1, 0, "none", -1)));
        assertThat(wait.byEventLoop().keySet()).containsExactly(LOOP + "2", LOOP + "10", "none");
        assertThat(wait.eventLoopsSeen()).isEqualTo(2);
    }

    @Test
    void shouldJudgeEachProbeByTheLoadsAnswersWhileItWaited() {
        List<UnrelatedWait.Probe> probes = List.of(new UnrelatedWait.Probe(1, 1500, 200, LOOP + "0", 60),
                new UnrelatedWait.Probe(1, 1900, 200, LOOP + "0", 69), // a slow moment of the machine: its turn still
                new UnrelatedWait.Probe(1, 1500, 200, LOOP + "0", 51));
        UnrelatedWait wait = UnrelatedWait.of(1500, 1500, 60, probes);
        assertThat(wait.withinTolerance()).isEqualTo(1);
        assertThat(wait.servedWhileWaiting()).containsExactly(51, 60, 69);
    }

    /**
     * The broken fixtures: a probe overtaken by 30 requests, and one that jumped 15 of the queue; and carriers stuck rather than queueing
     * (no model): nothing is judged in turn, whatever the answers while waiting.
     */
    @ParameterizedTest
    @CsvSource({ "1500, 2250, 90, 200, 0", "1500, 1125, 45, 200, 0", "NaN, 12000, 60, 503, NaN" })
    void shouldRefuseAProbeOvertakenOrJumpingTheQueueAndJudgeNothingWithoutAModel(double model, double wait, int served, int status, Double inTurn) {
        UnrelatedWait judged = UnrelatedWait.of(model, 1500, 60, List.of(new UnrelatedWait.Probe(1, wait, status, LOOP + "0", served)));
        assertThat(judged.withinTolerance()).isEqualTo(inTurn);
        assertThat(judged.measured().count()).isEqualTo(1);
    }

    @Test
    void shouldCountTheLoadsAnswersInAProbesWait() {
        ProbeTimeline timeline = new ProbeTimeline(java.util.Map.of(), 0, 10, new long[] { 1, 2, 2, 5, 9 });
        assertThat(timeline.answeredBetween(0, 2)).isEqualTo(3);
        assertThat(timeline.answeredBetween(2, 9)).isEqualTo(2);
        assertThat(timeline.answeredBetween(9, 100)).isZero();
        assertThat(new ProbeTimeline(java.util.Map.of(), 0, 10, new long[0]).answeredBetween(0, 10)).isEqualTo(-1);
    }
}
