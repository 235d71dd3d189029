package io.starvationlab.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.SecondServiceProcess;
import io.starvationlab.harness.load.ClosedLoad;

/**
 * {@code meter}: what the starvation meter costs a service that is not the lab. The second service under a steady
 * load of requests that do nothing ({@code /hello}, each on a virtual thread the meter times), with the meter bound
 * and without ({@code -Dsecond.meter=off}), rounds alternating: the server's CPU time per request, side by side.
 */
final class MeterBenchmark {

    private static final int ROUNDS = 6;
    private static final int CLIENTS = 64;
    private static final Duration WARM_UP = Duration.ofSeconds(5);
    private static final Duration MEASURED = Duration.ofSeconds(15);

    private MeterBenchmark() {
    }

    static Map<String, Object> run() {
        List<Run> with = new ArrayList<>();
        List<Run> without = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            // which goes first alternates: the machine's first run is often its slowest
            boolean meterFirst = round % 2 == 1;
            Run first = measure(meterFirst, round);
            Run second = measure(!meterFirst, round);
            with.add(meterFirst ? first : second);
            without.add(meterFirst ? second : first);
            System.out.printf(Locale.ROOT, "round %d: with the meter %s; without %s%n", round, with.getLast(), without.getLast());
        }
        double[] ratios = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            ratios[round] = with.get(round).cpuMicrosPerRequest() / without.get(round).cpuMicrosPerRequest();
        }
        Arrays.sort(ratios);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("workload", "second service, GET /hello, " + CLIENTS + " concurrent, " + MEASURED.toSeconds() + " s per run after "
                + WARM_UP.toSeconds() + " s warm-up, " + ROUNDS + " rounds alternating, JDK " + Runtime.version());
        figures.put("withMeter", with);
        figures.put("withoutMeter", without);
        figures.put("cpuMicrosPerRequestWith", Benchmarks.round(with.stream().mapToDouble(Run::cpuMicrosPerRequest).average().orElseThrow()));
        figures.put("cpuMicrosPerRequestWithout", Benchmarks.round(without.stream().mapToDouble(Run::cpuMicrosPerRequest).average().orElseThrow()));
        // each round's two runs are neighbours in time: a machine that speeds up or slows down moves both
        figures.put("medianRoundCpuPerRequestCostPercent", Benchmarks.round(100 * ((ratios[ROUNDS / 2 - 1] + ratios[ROUNDS / 2]) / 2 - 1)));
        figures.put("roundCpuPerRequestCostPercentRange", List.of(Benchmarks.round(100 * (ratios[0] - 1)), Benchmarks.round(100 * (ratios[ROUNDS - 1] - 1))));
        return figures;
    }

    /** Requests per second and the server's CPU time (user + system) per request. */
    record Run(double throughput, double cpuMicrosPerRequest) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.0f/s at %.1f us CPU per request", throughput, cpuMicrosPerRequest);
        }
    }

    private static Run measure(boolean meter, int round) {
        List<String> flags = meter ? List.of() : List.of("-Dsecond.meter=off");
        String name = "meter-" + (meter ? "on-" : "off-") + round;
        try (SecondServiceProcess service = SecondServiceProcess.start(Jdks.current(), flags, Benchmarks.OUT.resolve("logs"), name);
                ClosedLoad load = ClosedLoad.start(service.uri("/hello"), CLIENTS, Duration.ofSeconds(30))) {
            LabServer.sleep(WARM_UP);
            ProcessHandle process = ProcessHandle.of(service.pid()).orElseThrow();
            Duration cpuBefore = process.info().totalCpuDuration().orElseThrow();
            long okBefore = load.result().okWhileRunning();
            LabServer.sleep(MEASURED);
            Duration cpu = process.info().totalCpuDuration().orElseThrow().minus(cpuBefore);
            long ok = load.result().okWhileRunning() - okBefore;
            load.stop(Duration.ofSeconds(10));
            return new Run(ok / (double) MEASURED.toSeconds(), cpu.toNanos() / 1000.0 / Math.max(ok, 1));
        }
    }
}
