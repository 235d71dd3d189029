package io.starvationlab.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.function.BiFunction;
import java.util.function.ToDoubleFunction;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.ServerProcess;
import io.starvationlab.harness.load.ClosedLoad;

/**
 * What an observer costs a service under 64 clients of cheap requests, with it and without, six rounds alternating:
 * throughput, the server's CPU time per request and the CPU time of the observer's own threads.
 * {@code overhead}: the lab on {@code /work/unpinned?ms=1&downstream=sleep}, the carrier canary and the JFR pinning stream
 * on and off (target: at most 3 %).
 */
final class CostBenchmark {

    private static final int ROUNDS = 6;
    private static final int CLIENTS = 64;
    private static final Duration WARM_UP = Duration.ofSeconds(5);
    private static final Duration MEASURED = Duration.ofSeconds(15);
    /**
     * The lab's observer threads, by the 15-character names Linux keeps: the canary's loop, the chunk rotation and every
     * JFR thread (an upper bound: Micrometer's virtual-thread binder, on when the observers are off, shares them). The
     * canary's probes run on the carriers and are not counted.
     */
    private static final List<String> LAB_OBSERVERS = List.of("carrier-canary", "lab-jfr-chunk-r", "JFR ");
    private static final String PATH = "/work/unpinned?ms=1&downstream=sleep";

    private CostBenchmark() {
    }

    static Map<String, Object> overhead() {
        return run("GET " + PATH, PATH, LAB_OBSERVERS, (on, name) -> LabServer.start(Jdks.current(), List.of(), on ? Map.of()
                : Map.of("lab.canary.enabled", "false", "lab.pinning.enabled", "false"), Benchmarks.OUT.resolve("logs"), "overhead-" + name));
    }

    /** {@code start} starts the service with the observer on or off, by the name given; the clients load its {@code path}. */
    private static Map<String, Object> run(String workload, String path, List<String> observerThreads,
            BiFunction<Boolean, String, ServerProcess> start) {
        List<Run> with = new ArrayList<>();
        List<Run> without = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            // which goes first alternates: the machine's first run is often its slowest
            boolean onFirst = round % 2 == 1;
            Run first = measure(start, path, observerThreads, onFirst, round);
            Run second = measure(start, path, observerThreads, !onFirst, round);
            with.add(onFirst ? first : second);
            without.add(onFirst ? second : first);
            System.out.printf(Locale.ROOT, "round %d: with %s; without %s%n", round, with.getLast(), without.getLast());
        }
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("workload", workload + ", " + CLIENTS + " concurrent, " + MEASURED.toSeconds() + " s per run after " + WARM_UP.toSeconds()
                + " s warm-up, " + ROUNDS + " rounds alternating, JDK " + Runtime.version());
        figures.put("with", with);
        figures.put("without", without);
        figures.put("throughputCostPercent", Benchmarks.round(100 * (1 - mean(with, Run::throughput) / mean(without, Run::throughput))));
        figures.put("cpuMicrosPerRequestWith", Benchmarks.round(mean(with, Run::cpuMicrosPerRequest)));
        figures.put("cpuMicrosPerRequestWithout", Benchmarks.round(mean(without, Run::cpuMicrosPerRequest)));
        // each round's two runs are neighbours in time: a machine that speeds up or slows down moves both
        double[] ratios = Benchmarks.perRound(with, without, (w, wo) -> w.cpuMicrosPerRequest() / wo.cpuMicrosPerRequest());
        figures.put("medianRoundCpuPerRequestCostPercent", Benchmarks.round(100 * (Benchmarks.median(ratios) - 1)));
        figures.put("roundCpuPerRequestCostPercentRange", List.of(Benchmarks.round(100 * (Arrays.stream(ratios).min().orElseThrow() - 1)),
                Benchmarks.round(100 * (Arrays.stream(ratios).max().orElseThrow() - 1))));
        figures.put("observerThreadsCpuPercent", Benchmarks.round(mean(with, Run::observerCpuPercent)));
        figures.put("observerThreadsCpuPercentWhenOff", Benchmarks.round(mean(without, Run::observerCpuPercent)));
        return figures;
    }

    /** Requests per second, the server's CPU time (user + system) per request, and the share of it on the observer's threads. */
    record Run(double throughput, double cpuMicrosPerRequest, double observerCpuPercent) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.0f/s at %.1f us CPU per request, %.3f %% of it on observer threads", throughput,
                    cpuMicrosPerRequest, observerCpuPercent);
        }
    }

    private static Run measure(BiFunction<Boolean, String, ServerProcess> start, String path, List<String> observerThreads, boolean on, int round) {
        try (ServerProcess server = start.apply(on, (on ? "on-" : "off-") + round);
                ClosedLoad load = ClosedLoad.start(server.uri(path), CLIENTS, Duration.ofSeconds(30))) {
            Machine.pause(WARM_UP);
            ProcessHandle handle = ProcessHandle.of(server.pid()).orElseThrow();
            Duration cpuBefore = handle.info().totalCpuDuration().orElseThrow();
            long observersBefore = threadsCpuNanos(server.pid(), observerThreads);
            long okBefore = load.result().okWhileRunning();
            Machine.pause(MEASURED);
            double cpuNanos = handle.info().totalCpuDuration().orElseThrow().minus(cpuBefore).toNanos();
            long observers = threadsCpuNanos(server.pid(), observerThreads) - observersBefore;
            long ok = load.result().okWhileRunning() - okBefore;
            load.stop(Duration.ofSeconds(10));
            return new Run(ok / (double) MEASURED.toSeconds(), cpuNanos / 1000 / Math.max(ok, 1), 100 * observers / Math.max(cpuNanos, 1));
        }
    }

    /** CPU time of a process's threads whose names start with one of {@code names}, in nanoseconds, from each thread's schedstat. */
    private static long threadsCpuNanos(long pid, List<String> names) {
        long total = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String threadName = Files.readString(task.resolve("comm")).strip();
                    if (names.stream().anyMatch(threadName::startsWith)) {
                        total += Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
                    }
                } catch (NoSuchFileException ended) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return total;
    }

    private static double mean(List<Run> runs, ToDoubleFunction<Run> figure) {
        return runs.stream().mapToDouble(figure).average().orElseThrow();
    }
}
