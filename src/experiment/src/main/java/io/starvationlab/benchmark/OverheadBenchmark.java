package io.starvationlab.benchmark;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.harness.LabServer;

/**
 * {@code overhead}: unpinned throughput with the carrier canary and the JFR pinning stream on, then
 * off, alternating; the cost as a ratio (target: at most 3 %).
 */
final class OverheadBenchmark {

    private static final int ROUNDS = 6;
    /** USER_HZ: Linux reports process CPU time in hundredths of a second. */
    private static final double CLOCK_TICKS_PER_SECOND = 100;

    private OverheadBenchmark() {
    }

    /**
     * Unpinned, 1 ms sleeps, 64 concurrent: the service is CPU-bound, so an observer's cost shows as
     * lost throughput and as server CPU time per request, each the difference of two noisy runs; and
     * directly, as the CPU time of the observers' own threads, which does not depend on a quiet machine.
     */
    static Map<String, Object> run() throws IOException {
        Map<String, String> off = Map.of("lab.canary.enabled", "false", "lab.pinning.enabled", "false");
        List<Run> withObservers = new ArrayList<>();
        List<Run> without = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            // which goes first alternates too: the machine's first run of a benchmark is often its slowest
            if (round % 2 == 1) {
                withObservers.add(unpinnedRun(Map.of(), "overhead-on-" + round));
                without.add(unpinnedRun(off, "overhead-off-" + round));
            } else {
                without.add(unpinnedRun(off, "overhead-off-" + round));
                withObservers.add(unpinnedRun(Map.of(), "overhead-on-" + round));
            }
            System.out.printf(Locale.ROOT, "round %d: on %s, off %s%n", round, withObservers.get(round - 1), without.get(round - 1));
        }
        double throughputOn = withObservers.stream().mapToDouble(Run::throughput).average().orElseThrow();
        double throughputOff = without.stream().mapToDouble(Run::throughput).average().orElseThrow();
        double cpuOn = withObservers.stream().mapToDouble(Run::cpuMicrosPerRequest).average().orElseThrow();
        double cpuOff = without.stream().mapToDouble(Run::cpuMicrosPerRequest).average().orElseThrow();
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("workload", "GET /work/unpinned?ms=1&downstream=sleep, 64 concurrent, 15 s per run, "
                + ROUNDS + " rounds alternating");
        figures.put("withObservers", withObservers);
        figures.put("withoutObservers", without);
        figures.put("throughputCostPercent", Benchmarks.round(100 * (1 - throughputOn / throughputOff)));
        figures.put("cpuPerRequestCostPercent", Benchmarks.round(100 * (cpuOn / cpuOff - 1)));
        figures.put("observerThreadsCpuPercent", Benchmarks.round(withObservers.stream().mapToDouble(Run::observerCpuPercent).average().orElseThrow()));
        figures.put("observerThreadsCpuPercentWhenOff", Benchmarks.round(without.stream().mapToDouble(Run::observerCpuPercent).average().orElseThrow()));
        figures.put("medianRoundThroughputCostPercent",
                Benchmarks.round(100 * (1 - medianRatio(withObservers, without, Run::throughput))));
        figures.put("medianRoundCpuPerRequestCostPercent",
                Benchmarks.round(100 * (medianRatio(withObservers, without, Run::cpuMicrosPerRequest) - 1)));
        return figures;
    }

    /**
     * The median over rounds of on ÷ off: each round's two runs are neighbours in time, so a machine
     * that speeds up or slows down during the benchmark moves both, and one disturbed round does not
     * move the median.
     */
    private static double medianRatio(List<Run> on, List<Run> off, ToDoubleFunction<Run> figure) {
        double[] ratios = new double[on.size()];
        for (int round = 0; round < ratios.length; round++) {
            ratios[round] = figure.applyAsDouble(on.get(round)) / figure.applyAsDouble(off.get(round));
        }
        Arrays.sort(ratios);
        int middle = ratios.length / 2;
        return ratios.length % 2 == 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2;
    }

    /**
     * One measured run: requests per second, the server's CPU time (user + system) per request, and the
     * share of that CPU time spent on the observers' own threads (zero when they are off).
     */
    record Run(double throughput, double cpuMicrosPerRequest, double observerCpuPercent) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.0f/s at %.0f us CPU per request, %.3f %% of it on observer threads", throughput,
                    cpuMicrosPerRequest, observerCpuPercent);
        }
    }

    private static Run unpinnedRun(Map<String, String> settings, String name) throws IOException {
        try (LabServer server = LabServer.start(List.of(), settings, Benchmarks.OUT.resolve("logs"), name)) {
            warmUp(server);
            try (ClosedLoad load = ClosedLoad.start(server.uri("/work/unpinned?ms=1&downstream=sleep"), 64, Duration.ofSeconds(30))) {
                long cpuBefore = cpuTicks(server.pid());
                long observersBefore = observerThreadsCpuNanos(server.pid());
                LabServer.sleep(Duration.ofSeconds(15));
                long cpuAfter = cpuTicks(server.pid());
                long observersAfter = observerThreadsCpuNanos(server.pid());
                ClosedLoad.Result result = load.stop(Duration.ofSeconds(10));
                double cpuNanos = (cpuAfter - cpuBefore) * 1e9 / CLOCK_TICKS_PER_SECOND;
                double micros = cpuNanos / 1000 / Math.max(result.okWhileRunning(), 1);
                return new Run(result.throughput(), micros, 100 * (observersAfter - observersBefore) / Math.max(cpuNanos, 1));
            }
        }
    }

    /**
     * The observers' threads, by the 15-character names Linux keeps: the canary's loop, the chunk
     * rotation, and every JFR thread (an upper bound: Micrometer's virtual-thread binder, which stays on
     * when the lab's observers are off, shares them). The canary's probes run on the carriers and are
     * not counted; each is a virtual thread that does nothing, ten times a second.
     */
    private static final List<String> OBSERVER_THREADS = List.of("carrier-canary", "lab-jfr-chunk-r", "JFR ");

    /** CPU time of the observers' threads, in nanoseconds, from each thread's schedstat. */
    private static long observerThreadsCpuNanos(long pid) throws IOException {
        long total = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String threadName = Files.readString(task.resolve("comm")).strip();
                    if (OBSERVER_THREADS.stream().anyMatch(threadName::startsWith)) {
                        total += Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
                    }
                } catch (NoSuchFileException ended) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return total;
    }

    /** utime + stime of a process, in clock ticks, from /proc/<pid>/stat. */
    private static long cpuTicks(long pid) throws IOException {
        return cpuTicks(String.valueOf(pid), false);
    }

    /**
     * utime + stime of process {@code pid} ({@code self}: this one) in clock ticks, from /proc/<pid>/stat; with {@code children},
     * cutime + cstime: of its children that ended and were waited for, and of theirs.
     */
    static long cpuTicks(String pid, boolean children) throws IOException {
        String stat = Files.readString(Path.of("/proc", pid, "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[children ? 13 : 11]) + Long.parseLong(fields[children ? 14 : 12]);
    }

    private static void warmUp(LabServer server) {
        try (ClosedLoad warmUp = ClosedLoad.start(server.uri("/work/unpinned?ms=1&downstream=sleep"), 64, Duration.ofSeconds(30))) {
            LabServer.sleep(Duration.ofSeconds(5));
            warmUp.stop(Duration.ofSeconds(10));
        }
    }

}
