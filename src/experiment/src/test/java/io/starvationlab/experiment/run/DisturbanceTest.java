package io.starvationlab.experiment.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.starvationlab.experiment.results.MadeUp;
import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.harness.load.Latencies;
import io.starvationlab.harness.load.PhaseResult;
import io.starvationlab.model.Plan;

/**
 * Which windows the run measures again: a phase whose work holds no carrier, seen on a machine that held it back, with the
 * figures of the run that lost four findings to one such window (unpinned at 443/s, canary p99 64.5 ms) and those of clean runs.
 */
class DisturbanceTest {

    /** JDK 26's facts: synchronized does not pin, native does; 50 permits. */
    private static final MeasuredServer.Info SERVER = MadeUp.info("default", 4, 4, false, null);

    @ParameterizedTest(name = "{0} {1} ms: {2}/s, canary {3} ms, probe {4} ms, steady from {5} s: {6}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            unpinned  | 100 |  499 |  1.3 |  1.4 | 0.1 | -
            reentrant | 100 |  494 |  4.3 |  1.2 | 0.1 | -
            pinned    | 100 |  495 |  1.6 |  0.9 | 0.1 | -
            unpinned  | 100 |  485 |  4.4 |  1.0 | 0.1 | -
            unpinned  |   0 | 5226 |  4.2 |  7.6 | 0.1 | -
            unpinned  | 100 |  443 | 64.5 |  5.1 | 0.1 | canary p99 64.5 ms though nothing holds the carriers (at most 20 ms)
            unpinned  | 100 |  443 |  4.0 |  2.0 | 0.1 | 443.0/s, 89 % of the model's 500/s (permits; at least 93 %)
            reentrant | 100 |  494 |  4.0 | 12.0 | 0.1 | /probe/virtual p50 12.0 ms, 7x its baseline (under 5x)
            unpinned  | 100 |  494 |  4.0 |  1.4 | 4.9 | its clients took most of the window to start
            native    | 100 |   39 | 2440 | 1520 | 0.1 | -
            cpu       | 100 |   20 | 2444 | 1567 | 0.1 | -
            """)
    void aFreePhaseHeldBackByTheMachineShouldBeMeasuredAgainAndAPhaseThatHoldsTheCarriersNever(String mode, int ms, double throughput, double canary,
            double probeP50, double steadyFrom, String why) {
        Plan.Phase phase = new Plan.Phase(mode, "default", mode, "sleep", "private", ms, 64, 6, null);
        assertThat(Disturbance.ofPhase(phase, SERVER, result(throughput, canary, probeP50, steadyFrom), result(0, 1.0, 1.7, 0))).isEqualTo(why);
    }

    /** A 6 s window at {@code throughput} over 5 s of steady state from {@code steadyFrom} s (all of it past 4.5 s), its probe's every answer at {@code probeP50} ms. */
    private static PhaseResult result(double throughput, double canary, double probeP50, double steadyFrom) {
        Latencies probe = new Latencies();
        probe.record((long) (probeP50 * 1e6), 200);
        ClosedLoad.SteadyState steady = new ClosedLoad.SteadyState(steadyFrom, 5, Math.round(throughput * 5), steadyFrom > 4.5);
        ClosedLoad.Result load = throughput == 0 ? null : new ClosedLoad.Result(new Latencies(), (long) (throughput * 6), 6, List.of(), steady);
        return new PhaseResult("phase", load, Map.of("virtual", probe), null, canary, 60, 0, 1, 0, 0, null, null, 0, null);
    }
}
