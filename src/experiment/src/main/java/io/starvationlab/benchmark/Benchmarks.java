package io.starvationlab.benchmark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleBiFunction;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.SerializationFeature;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.load.OverloadRun;

/**
 * Runs one benchmark: it prints its figures and writes them to {@code target/benchmarks/<name>.json};
 * it asserts nothing (the tests do, with generous bounds).
 * <p>
 * {@code Benchmarks overhead|overload|soak|meter|diagnosis [--minutes N]}: see {@link CostBenchmark} (overhead),
 * {@link #overload}, {@link SoakBenchmark}, {@link MeterBenchmark} and {@link DiagnosisBenchmark}.
 */
public final class Benchmarks {

    static final Path OUT = Path.of("target", "benchmarks");

    private Benchmarks() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: Benchmarks overhead|overload|soak|meter|diagnosis [--minutes N]");
        }
        double minutes = args.length >= 3 && args[1].equals("--minutes") ? Double.parseDouble(args[2]) : 30;
        Map<String, Object> figures = switch (args[0]) {
            case "overhead" -> CostBenchmark.overhead();
            case "overload" -> overload();
            case "soak" -> SoakBenchmark.run(Duration.ofSeconds((long) (minutes * 60)));
            case "meter" -> MeterBenchmark.run();
            case "diagnosis" -> DiagnosisBenchmark.run();
            default -> throw new IllegalArgumentException("unknown benchmark " + args[0]);
        };
        Files.createDirectories(OUT);
        LabClient.json().copy().enable(SerializationFeature.INDENT_OUTPUT).writeValue(OUT.resolve(args[0] + ".json").toFile(), figures);
        System.out.println();
        figures.forEach((key, value) -> System.out.println(key + ": " + value));
        System.out.println("Written to " + OUT.resolve(args[0] + ".json").toAbsolutePath());
    }

    /** {@code overload}: ten times the permits of concurrent database work for 60 s. */
    private static Map<String, Object> overload() {
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

    /** The median, of a copy. */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** A figure of each round's pair: the run with and the one without beside it. */
    static <T> double[] perRound(List<T> with, List<T> without, ToDoubleBiFunction<T, T> figure) {
        return IntStream.range(0, with.size()).mapToDouble(round -> figure.applyAsDouble(with.get(round), without.get(round))).toArray();
    }

    static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
