package io.starvationlab.experiment;

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
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.SerializationFeature;

import io.starvationlab.experiment.PrometheusText.Sample;

/**
 * The benchmarks: they print their figures and write them to {@code target/benchmarks/<name>.json};
 * they assert nothing (the tests do, with generous bounds).
 * <ul>
 * <li>{@code overhead}: unpinned throughput with the carrier canary and the JFR pinning stream on,
 * then off, alternating; the cost as a ratio (target: at most 3 %).</li>
 * <li>{@code overload}: ten times the permits of concurrent database work for 60 s.</li>
 * <li>{@code soak}: 30 minutes alternating unpinned and native load; memory, threads and permits at
 * start and end (target: at most 10 % growth).</li>
 * </ul>
 * {@code Benchmarks overhead|overload|soak [--minutes N]}
 */
public final class Benchmarks {

    private static final Path OUT = Path.of("target", "benchmarks");
    private static final int OVERHEAD_ROUNDS = 6;
    /** USER_HZ: Linux reports process CPU time in hundredths of a second. */
    private static final double CLOCK_TICKS_PER_SECOND = 100;

    private Benchmarks() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: Benchmarks overhead|overload|soak [--minutes N]");
        }
        double minutes = args.length >= 3 && args[1].equals("--minutes") ? Double.parseDouble(args[2]) : 30;
        Map<String, Object> figures = switch (args[0]) {
            case "overhead" -> overhead();
            case "overload" -> overload();
            case "soak" -> soak(Duration.ofSeconds((long) (minutes * 60)));
            default -> throw new IllegalArgumentException("unknown benchmark " + args[0]);
        };
        Files.createDirectories(OUT);
        LabClient.json().copy().enable(SerializationFeature.INDENT_OUTPUT).writeValue(OUT.resolve(args[0] + ".json").toFile(), figures);
        System.out.println();
        figures.forEach((key, value) -> System.out.println(key + ": " + value));
        System.out.println("Written to " + OUT.resolve(args[0] + ".json").toAbsolutePath());
    }

    /**
     * Unpinned, 1 ms sleeps, 64 concurrent: the service is CPU-bound, so an observer's cost shows as
     * lost throughput and as server CPU time per request, each the difference of two noisy runs; and
     * directly, as the CPU time of the observers' own threads, which does not depend on a quiet machine.
     */
    static Map<String, Object> overhead() throws IOException {
        Map<String, String> off = Map.of("lab.canary.enabled", "false", "lab.pinning.enabled", "false");
        List<Run> withObservers = new ArrayList<>();
        List<Run> without = new ArrayList<>();
        for (int round = 1; round <= OVERHEAD_ROUNDS; round++) {
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
                + OVERHEAD_ROUNDS + " rounds alternating");
        figures.put("withObservers", withObservers);
        figures.put("withoutObservers", without);
        figures.put("throughputCostPercent", round(100 * (1 - throughputOn / throughputOff)));
        figures.put("cpuPerRequestCostPercent", round(100 * (cpuOn / cpuOff - 1)));
        figures.put("observerThreadsCpuPercent", round(withObservers.stream().mapToDouble(Run::observerCpuPercent).average().orElseThrow()));
        figures.put("observerThreadsCpuPercentWhenOff", round(without.stream().mapToDouble(Run::observerCpuPercent).average().orElseThrow()));
        figures.put("medianRoundThroughputCostPercent",
                round(100 * (1 - medianRatio(withObservers, without, Run::throughput))));
        figures.put("medianRoundCpuPerRequestCostPercent",
                round(100 * (medianRatio(withObservers, without, Run::cpuMicrosPerRequest) - 1)));
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
        try (LabServer server = LabServer.start(List.of(), settings, OUT.resolve("logs"), name)) {
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
    private static final List<String> OBSERVER_THREADS = List.of("lab-carrier-can", "lab-jfr-chunk-r", "JFR ");

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
        String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static void warmUp(LabServer server) {
        try (ClosedLoad warmUp = ClosedLoad.start(server.uri("/work/unpinned?ms=1&downstream=sleep"), 64, Duration.ofSeconds(30))) {
            LabServer.sleep(Duration.ofSeconds(5));
            warmUp.stop(Duration.ofSeconds(10));
        }
    }

    static Map<String, Object> overload() {
        OverloadRun.Result run = OverloadRun.run(Duration.ofSeconds(60), OUT.resolve("logs"));
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("summary", run.summary());
        figures.put("setup", OverloadRun.PERMITS + " permits, acquire timeout " + OverloadRun.ACQUIRE_TIMEOUT.toSeconds()
                + " s, GET /work/unpinned?downstream=db&ms=" + OverloadRun.MS + " from " + run.concurrency() + " clients");
        figures.put("statuses", run.statuses());
        figures.put("slowestMillis", run.slowestMillis());
        figures.put("boundMillis", run.boundMillis());
        figures.put("only200Or503", run.statuses().keySet().stream().allMatch(status -> status == 200 || status == 503));
        figures.put("503sWithoutRetryAfter", run.outcomes().stream().filter(outcome -> outcome.status() == 503 && outcome.retryAfter() == null).count());
        figures.put("idleAfter", run.after().idle());
        figures.put("virtualThreadsBeforeAndAfter", List.of(run.idleVirtualThreads(), run.virtualThreadsAfter()));
        return figures;
    }

    /**
     * Alternates a minute of {@code unpinned} work against the database and a minute of {@code native}
     * work that starves the carriers. The start sample comes after one minute of each, so that pools,
     * compiled code, I/O pollers and meters exist; a sample every five minutes shows a trend, not two points.
     */
    static Map<String, Object> soak(Duration length) throws IOException {
        try (LabServer server = LabServer.start(List.of("-XX:NativeMemoryTracking=summary"), Map.of(), OUT.resolve("logs"), "soak")) {
            LabClient lab = new LabClient(server.baseUri());
            Map<String, Long> served = new LinkedHashMap<>();
            for (String mode : SOAK_MODES) {
                soakSlice(server, mode, Duration.ofMinutes(1), new LinkedHashMap<>());
            }
            Gauges.awaitIdle(lab, Duration.ofSeconds(10));
            List<Resources> samples = new ArrayList<>();
            samples.add(Resources.sample(server, lab));
            System.out.println("start: " + samples.get(0));
            long end = System.nanoTime() + length.toNanos();
            int minute = 0;
            while (System.nanoTime() < end) {
                String mode = SOAK_MODES.get(minute++ % 2);
                soakSlice(server, mode, Duration.ofNanos(Math.min(Duration.ofMinutes(1).toNanos(), end - System.nanoTime())), served);
                if (minute % 5 == 0 || System.nanoTime() >= end) {
                    Gauges.awaitIdle(lab, Duration.ofSeconds(10));
                    samples.add(Resources.sample(server, lab));
                    System.out.printf(Locale.ROOT, "minute %d: %s%n", minute, samples.get(samples.size() - 1));
                }
            }
            Resources start = samples.get(0);
            Resources finish = samples.get(samples.size() - 1);
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("length", length.toString());
            figures.put("workload", "alternating minutes of " + String.join(" and ", SOAK_MODES) + ", 64 concurrent, after a minute of each");
            figures.put("requestsByStatus", served);
            figures.put("rejectedByReasonWholeRun", lab.metrics().samples("lab_downstream_rejected_total", sample -> sample.value() > 0).stream()
                    .collect(Collectors.toMap(sample -> sample.label("downstream") + " " + sample.label("reason"), Sample::value, Double::sum,
                            TreeMap::new)));
            figures.put("samples", samples);
            figures.put("rssGrowthPercent", round(100.0 * (finish.rssKilobytes() - start.rssKilobytes()) / start.rssKilobytes()));
            figures.put("rssAfterTrimGrowthPercent",
                    round(100.0 * (finish.rssAfterTrimKilobytes() - start.rssAfterTrimKilobytes()) / start.rssAfterTrimKilobytes()));
            figures.put("liveHeapGrowthPercent", round(100.0 * (finish.liveHeapBytes() - start.liveHeapBytes()) / start.liveHeapBytes()));
            if (samples.size() > 2) {
                Resources second = samples.get(1);
                figures.put("rssGrowthPercentAfterFirstSample",
                        round(100.0 * (finish.rssKilobytes() - second.rssKilobytes()) / second.rssKilobytes()));
            }
            figures.put("nativeMemoryGrowthKilobytes", growth(start.nativeMemoryKilobytes(), finish.nativeMemoryKilobytes()));
            figures.put("platformThreadGrowth", finish.platformThreads() - start.platformThreads());
            figures.put("virtualThreadGrowth", finish.virtualThreads() - start.virtualThreads());
            return figures;
        }
    }

    private static final List<String> SOAK_MODES = List.of("/work/unpinned?ms=100&downstream=db", "/work/native?ms=100&downstream=sleep");

    private static void soakSlice(LabServer server, String path, Duration slice, Map<String, Long> served) {
        try (ClosedLoad load = ClosedLoad.start(server.uri(path), 64, Duration.ofSeconds(60))) {
            LabServer.sleep(slice);
            ClosedLoad.Result result = load.stop(Duration.ofSeconds(30));
            result.latencies().statuses().forEach((status, count) -> served.merge(path + " " + status, count, Long::sum));
        }
    }

    /** Per native memory category, finish minus start, the categories that moved by at least 1 MB. */
    private static Map<String, Long> growth(Map<String, Long> start, Map<String, Long> finish) {
        Map<String, Long> growth = new LinkedHashMap<>();
        finish.forEach((category, kilobytes) -> {
            long delta = kilobytes - start.getOrDefault(category, 0L);
            if (Math.abs(delta) >= 1024) {
                growth.put(category, delta);
            }
        });
        return growth;
    }

    /**
     * A server's resident memory, live heap, threads, permits and committed native memory per category.
     * The live heap is the total of a class histogram, which JVM takes after a full collection: exact,
     * unlike the used heap after a GC, which counts whole G1 regions. The native memory comes from
     * Native Memory Tracking (the server runs with {@code -XX:NativeMemoryTracking=summary}): it says
     * which part of the JVM a change of RSS belongs to. Memory the JVM frees (the JIT's arenas, for
     * one) stays in the C library's malloc arenas and so in the RSS; {@code rssAfterTrimKilobytes} is
     * the RSS once {@code System.trim_native_heap} has given it back.
     */
    record Resources(long rssKilobytes, long rssAfterTrimKilobytes, long liveHeapBytes, int platformThreads, int virtualThreads, double permitsInUse,
            double connectionsInUse, Map<String, Long> nativeMemoryKilobytes) {

        private static final Pattern NMT_CATEGORY = Pattern.compile("^-\\s+(.+?) \\(reserved=\\d+KB, committed=(\\d+)KB\\)");
        private static final Pattern NMT_TOTAL = Pattern.compile("^Total: reserved=\\d+KB, committed=(\\d+)KB");

        static Resources sample(LabServer server, LabClient lab) throws IOException {
            String histogram = Jcmd.run(server.pid(), "GC.class_histogram");
            String total = histogram.lines().filter(line -> line.trim().startsWith("Total")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no class histogram total: " + histogram));
            PrometheusText metrics = lab.metrics();
            ThreadDump.Counts threads = ThreadDump.count(server.pid());
            long rss = rssKilobytes(server.pid());
            Jcmd.run(server.pid(), "System.trim_native_heap");
            long rssAfterTrim = rssKilobytes(server.pid());
            return new Resources(rss, rssAfterTrim, Long.parseLong(total.trim().split("\\s+")[2]),
                    threads.platformThreads(), threads.virtualThreads(),
                    metrics.sum("lab_downstream_permits_in_use", s -> true).orElseThrow(),
                    metrics.sum("agroal_active_count", s -> true).orElseThrow(),
                    nativeMemory(Jcmd.run(server.pid(), "VM.native_memory", "summary", "scale=KB")));
        }

        private static long rssKilobytes(long pid) throws IOException {
            return Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status")).stream()
                    .filter(line -> line.startsWith("VmRSS:")).map(line -> line.replaceAll("\\D", "")).mapToLong(Long::parseLong)
                    .findFirst().orElse(-1);
        }

        /** Committed kilobytes per NMT category, and the total. */
        static Map<String, Long> nativeMemory(String summary) {
            Map<String, Long> committed = new LinkedHashMap<>();
            summary.lines().map(String::strip).forEach(line -> {
                Matcher total = NMT_TOTAL.matcher(line);
                Matcher category = NMT_CATEGORY.matcher(line);
                if (total.find()) {
                    committed.put("Total", Long.parseLong(total.group(1)));
                } else if (category.find()) {
                    committed.put(category.group(1).strip(), Long.parseLong(category.group(2)));
                }
            });
            if (committed.isEmpty()) {
                throw new IllegalStateException("no native memory summary: " + summary);
            }
            return committed;
        }
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
