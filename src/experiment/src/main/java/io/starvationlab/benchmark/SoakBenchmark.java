package io.starvationlab.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.starvationlab.harness.Machine;
import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.harness.Gauges;
import io.starvationlab.harness.Jcmd;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.PrometheusText;
import io.starvationlab.harness.ThreadDump;
import io.starvationlab.harness.PrometheusText.Sample;

/**
 * {@code soak}: alternating unpinned and native load for a while (30 minutes by default); memory,
 * threads and permits at start and end (target: at most 10 % growth).
 */
final class SoakBenchmark {

    private SoakBenchmark() {
    }

    /** The start sample after a minute of each mode, so that pools, compiled code, I/O pollers and meters exist; then one every five minutes. */
    static Map<String, Object> run(Duration length) throws IOException {
        try (LabServer server = LabServer.start(Jdks.current(), List.of("-XX:NativeMemoryTracking=summary"), Map.of(), Benchmarks.OUT.resolve("logs"),
                "soak")) {
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
            PrometheusText atEnd = lab.metrics();
            figures.put("rejectedByReasonWholeRun", Stream.concat(
                    atEnd.samples("lab_work_rejected_total", sample -> sample.value() > 0).stream(),
                    atEnd.samples("lab_downstream_rejected_total", sample -> sample.value() > 0).stream())
                    .collect(Collectors.toMap(sample -> sample.name() + " " + sample.labels(), Sample::value, Double::sum, TreeMap::new)));
            figures.put("samples", samples);
            figures.put("rssGrowthPercent", growthPercent(start.rssKilobytes(), finish.rssKilobytes()));
            figures.put("rssAfterTrimGrowthPercent", growthPercent(start.rssAfterTrimKilobytes(), finish.rssAfterTrimKilobytes()));
            figures.put("liveHeapGrowthPercent", growthPercent(start.liveHeapBytes(), finish.liveHeapBytes()));
            if (samples.size() > 2) {
                figures.put("rssGrowthPercentAfterFirstSample", growthPercent(samples.get(1).rssKilobytes(), finish.rssKilobytes()));
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
            Machine.pause(slice);
            ClosedLoad.Result result = load.stop(Duration.ofSeconds(30));
            result.latencies().statuses().forEach((status, count) -> served.merge(path + " " + status, count, Long::sum));
        }
    }

    private static double growthPercent(long start, long finish) {
        return Benchmarks.round(100.0 * (finish - start) / start);
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
}
