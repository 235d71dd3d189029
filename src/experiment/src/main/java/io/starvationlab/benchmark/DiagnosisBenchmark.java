package io.starvationlab.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.Program;
import io.starvationlab.harness.SecondServiceProcess;
import io.starvationlab.harness.load.ClosedLoad;

/**
 * {@code diagnosis}: what the diagnosis costs the JVM it watches. The second service with 2,000 and then
 * 10,000 live virtual threads (closed-loop clients of {@code /sleep?ms=2000}: busy, not starved), measured
 * in windows without and with the diagnosis attached, side by side, alternating which goes first, several
 * rounds: throughput and p99 of the answers in each window, the service's CPU per answer, and what the
 * diagnosis sampled and its own JVM's CPU (goal: at most 2 % throughput and 50 ms p99 at 10,000). Judged per
 * round, the window with against the one beside it without: rounds without differ by more than the goal,
 * and a pair shares the machine's drift.
 */
final class DiagnosisBenchmark {

    private static final int[] LIVE = {2_000, 10_000};
    /** Rounds at each of {@link #LIVE}: fewer where the cost is none. */
    private static final int[] ROUNDS = {3, 8};
    private static final int WAIT_MILLIS = 2_000;
    private static final Duration WATCH = Duration.ofSeconds(15);
    /** Every client sending and answered once, the service's code compiled. */
    private static final Duration RAMP = Duration.ofSeconds(10);

    private DiagnosisBenchmark() {
    }

    /**
     * One window: the answers that came in it, the service's CPU, and what the diagnosis said of itself when it ran.
     *
     * @param serviceCpuMicros the service's CPU time per answer
     * @param ownCpuSeconds    the diagnosis' CPU time: its JVM and the one it relaunches itself in; NaN without it
     */
    record Window(boolean diagnosed, double seconds, long answered, double throughput, double p99Millis, long failed, double serviceCpuMicros,
            double ownCpuSeconds, int prints, int dumps, double dumpMillis) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s %.0f/s, p99 %.0f ms, service %.0f us CPU an answer%s", diagnosed ? "with" : "without", throughput,
                    p99Millis, serviceCpuMicros, diagnosed ? String.format(Locale.ROOT, " (its own CPU %.2f s in %.1f s; %d Thread.prints, %d thread"
                            + " dumps, %.0f ms each)", ownCpuSeconds, seconds, prints, dumps, dumpMillis) : "");
        }
    }

    static Map<String, Object> run() throws IOException {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("workload", "second service, GET /sleep?ms=" + WAIT_MILLIS + " from N closed-loop clients (N live virtual threads), "
                + LabServer.CARRIERS + " carriers, " + Runtime.getRuntime().availableProcessors() + " processors for the service, this load and the"
                + " diagnosis; " + Arrays.toString(ROUNDS) + " rounds of a window without and a window with the diagnosis (--pid, --seconds "
                + WATCH.toSeconds() + "; the window is the diagnosis' whole run), alternating which goes first; costs are the median of the rounds'"
                + " pairs, with their range");
        try (SecondServiceProcess service = SecondServiceProcess.start(Jdks.current(), List.of(), Benchmarks.OUT.resolve("logs"),
                "diagnosis-overhead")) {
            for (int i = 0; i < LIVE.length; i++) {
                figures.put(LIVE[i] + " live", measure(service, LIVE[i], ROUNDS[i]));
            }
        }
        return figures;
    }

    private static Map<String, Object> measure(SecondServiceProcess service, int live, int rounds) throws IOException {
        List<Window> without = new ArrayList<>();
        List<Window> with = new ArrayList<>();
        try (ClosedLoad load = ClosedLoad.startAsyncKeepingEach(service.uri("/sleep?ms=" + WAIT_MILLIS), live, Duration.ofSeconds(60))) {
            Machine.pause(RAMP);
            for (int round = 1; round <= rounds; round++) {
                // which goes first alternates: a machine that speeds up or slows down moves both
                boolean diagnosedFirst = round % 2 == 0;
                for (boolean diagnosed : diagnosedFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    Window window = window(load, service, diagnosed);
                    (diagnosed ? with : without).add(window);
                }
                System.out.printf(Locale.ROOT, "%,d live, round %d: %s; %s%n", live, round, without.get(round - 1), with.get(round - 1));
            }
        }
        double[] ownShare = with.stream().mapToDouble(w -> 100 * w.ownCpuSeconds() / (w.seconds() * Runtime.getRuntime().availableProcessors())).toArray();
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("without", without.stream().map(Window::toString).toList());
        figures.put("with", with.stream().map(Window::toString).toList());
        figures.put("throughputWithout", spread(without.stream().mapToDouble(Window::throughput).toArray()));
        figures.put("p99MillisWithout", spread(without.stream().mapToDouble(Window::p99Millis).toArray()));
        figures.put("throughputCostPercent", spread(Benchmarks.perRound(with, without, (w, wo) -> 100 * (1 - w.throughput() / wo.throughput()))));
        figures.put("p99CostMillis", spread(Benchmarks.perRound(with, without, (w, wo) -> w.p99Millis() - wo.p99Millis())));
        figures.put("serviceCpuPerAnswerCostPercent", spread(Benchmarks.perRound(with, without,
                (w, wo) -> 100 * (w.serviceCpuMicros() / wo.serviceCpuMicros() - 1))));
        figures.put("diagnosisCpuSeconds", spread(with.stream().mapToDouble(Window::ownCpuSeconds).toArray()));
        figures.put("diagnosisCpuPercentOfTheProcessors", spread(ownShare));
        return figures;
    }

    /** The median and the range, as {@code median (min to max)}. */
    private static String spread(double[] values) {
        return String.format(Locale.ROOT, "%.2f (%.2f to %.2f)", Benchmarks.median(values), Arrays.stream(values).min().orElseThrow(),
                Arrays.stream(values).max().orElseThrow());
    }

    /** A window of {@link #WATCH}, or with the diagnosis its whole run, from start-up to report. */
    private static Window window(ClosedLoad load, SecondServiceProcess service, boolean diagnosed) throws IOException {
        Duration serviceCpuBefore = cpu(service);
        // the diagnosis is this JVM's only child that ends: its CPU and its child's, once waited for, count here
        long childrenTicksBefore = childrenCpuTicks();
        long from = System.nanoTime();
        JsonNode report = null;
        if (diagnosed) {
            Path json = Files.createTempFile("diagnosis-benchmark-", ".json");
            ChildProcess.Result result = ChildProcess.of(Jdks.current().launcher().toString(), "-jar", Program.DIAGNOSE.jar().toString(), "--pid",
                    String.valueOf(service.pid()), "--seconds", String.valueOf(WATCH.toSeconds()), "--json", json.toString()).run(WATCH.plusMinutes(2));
            if (result.exitCode() != 0) {
                System.out.println("the diagnosis exited with " + result.exitCode() + ":\n" + result.output());
            }
            report = LabClient.json().readTree(json.toFile());
            Files.deleteIfExists(json);
        } else {
            Machine.pause(WATCH);
        }
        long to = System.nanoTime();
        double serviceCpuSeconds = cpu(service).minus(serviceCpuBefore).toNanos() / 1e9;
        List<ClosedLoad.Outcome> answered = load.result().outcomes().stream()
                .filter(o -> o.startedAtNanos() + o.millis() * 1_000_000 > from && o.startedAtNanos() + o.millis() * 1_000_000 <= to).toList();
        long[] millis = answered.stream().filter(o -> o.status() == 200).mapToLong(ClosedLoad.Outcome::millis).sorted().toArray();
        long failed = answered.size() - millis.length;
        double seconds = (to - from) / 1e9;
        double p99 = millis.length == 0 ? Double.NaN : millis[Math.min(millis.length - 1, (int) Math.ceil(0.99 * millis.length) - 1)];
        JsonNode sampling = report == null ? LabClient.json().createObjectNode() : report.path("sampling");
        return new Window(diagnosed, seconds, millis.length, millis.length / seconds, p99, failed, serviceCpuSeconds * 1e6 / Math.max(1, millis.length),
                diagnosed ? (childrenCpuTicks() - childrenTicksBefore) / 100.0 : Double.NaN, sampling.path("threadPrints").asInt(),
                report == null ? 0 : report.path("threadDumps").asInt(), sampling.path("meanDumpMillis").asDouble(Double.NaN));
    }

    /** The service's CPU time so far, as its OS reports it. */
    private static Duration cpu(SecondServiceProcess service) {
        return ProcessHandle.of(service.pid()).flatMap(p -> p.info().totalCpuDuration())
                .orElseThrow(() -> new IllegalStateException("no CPU time for the service's process " + service.pid()));
    }

    /** cutime + cstime of this JVM, in clock ticks, from /proc/self/stat: its children that ended and were waited for, and theirs. */
    private static long childrenCpuTicks() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
    }
}
