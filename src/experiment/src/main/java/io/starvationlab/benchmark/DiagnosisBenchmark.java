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

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Project;
import io.starvationlab.harness.SecondServiceProcess;
import io.starvationlab.harness.load.ClosedLoad;

/**
 * {@code diagnosis}: what the diagnosis costs the JVM it watches, the second service at 2,000 and 10,000 live virtual
 * threads, windows with and without it alternating (goal and reading: {@code docs/starving.md}, "What it costs the watched JVM").
 */
final class DiagnosisBenchmark {

    private static final int[] LIVE = {2_000, 10_000};
    private static final int ROUNDS = 4;
    private static final int WAIT_MILLIS = 2_000;
    private static final Duration WATCH = Duration.ofSeconds(15);
    /** Every client sending and answered once, the service's code compiled. */
    private static final Duration RAMP = Duration.ofSeconds(10);

    private DiagnosisBenchmark() {
    }

    /** One window: the answers that came in it, and what the diagnosis said of itself when it ran. */
    record Window(boolean diagnosed, double throughput, double p99Millis, int dumps, double dumpMillis, String sampling) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s %.0f/s, p99 %.0f ms%s", diagnosed ? "with" : "without", throughput, p99Millis,
                    diagnosed ? String.format(Locale.ROOT, " (%d thread dumps, %.0f ms each; %s)", dumps, dumpMillis, sampling) : "");
        }
    }

    static Map<String, Object> run() throws IOException {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("workload", "second service, GET /sleep?ms=" + WAIT_MILLIS + " from N closed-loop clients (N live virtual threads), "
                + LabServer.CARRIERS + " carriers; " + ROUNDS + " rounds of a window without and a window with the diagnosis (--pid, --seconds "
                + WATCH.toSeconds() + "; the window is the diagnosis' whole run), alternating which goes first");
        try (SecondServiceProcess service = SecondServiceProcess.start(Jdks.current(), Benchmarks.OUT.resolve("logs"), "diagnosis-overhead")) {
            for (int live : LIVE) {
                figures.put(live + " live", measure(service, live));
            }
        }
        return figures;
    }

    private static Map<String, Object> measure(SecondServiceProcess service, int live) throws IOException {
        List<Window> without = new ArrayList<>();
        List<Window> with = new ArrayList<>();
        try (ClosedLoad load = ClosedLoad.startAsyncKeepingEach(service.uri("/sleep?ms=" + WAIT_MILLIS), live, Duration.ofSeconds(60))) {
            LabServer.sleep(RAMP);
            for (int round = 1; round <= ROUNDS; round++) {
                // which goes first alternates: a machine that speeds up or slows down moves both
                boolean diagnosedFirst = round % 2 == 0;
                for (boolean diagnosed : diagnosedFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    Window window = window(load, service, diagnosed);
                    (diagnosed ? with : without).add(window);
                }
                System.out.printf(Locale.ROOT, "%,d live, round %d: %s; %s%n", live, round, without.get(round - 1), with.get(round - 1));
            }
        }
        double throughputWithout = Benchmarks.median(without.stream().mapToDouble(Window::throughput).toArray());
        double throughputWith = Benchmarks.median(with.stream().mapToDouble(Window::throughput).toArray());
        double p99Without = Benchmarks.median(without.stream().mapToDouble(Window::p99Millis).toArray());
        double p99With = Benchmarks.median(with.stream().mapToDouble(Window::p99Millis).toArray());
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("without", without.stream().map(Window::toString).toList());
        figures.put("with", with.stream().map(Window::toString).toList());
        figures.put("medianThroughputWithoutWith", List.of(Benchmarks.round(throughputWithout), Benchmarks.round(throughputWith)));
        figures.put("medianP99MillisWithoutWith", List.of(Benchmarks.round(p99Without), Benchmarks.round(p99With)));
        figures.put("throughputCostPercent", Benchmarks.round(100 * (1 - throughputWith / throughputWithout)));
        figures.put("p99CostMillis", Benchmarks.round(p99With - p99Without));
        return figures;
    }

    /** A window of {@link #WATCH}, or with the diagnosis its whole run, from start-up to report. */
    private static Window window(ClosedLoad load, SecondServiceProcess service, boolean diagnosed) throws IOException {
        long from = System.nanoTime();
        JsonNode report = null;
        if (diagnosed) {
            Path json = Files.createTempFile("diagnosis-benchmark-", ".json");
            ChildProcess.Result result = ChildProcess.of(Jdks.current().launcher().toString(), "-jar", Project.diagnoseJar().toString(), "--pid",
                    String.valueOf(service.pid()), "--seconds", String.valueOf(WATCH.toSeconds()), "--json", json.toString()).run(WATCH.plusMinutes(2));
            if (result.exitCode() != 0) {
                System.out.println("the diagnosis exited with " + result.exitCode() + ":\n" + result.output());
            }
            report = LabClient.json().readTree(json.toFile());
            Files.deleteIfExists(json);
        } else {
            LabServer.sleep(WATCH);
        }
        long to = System.nanoTime();
        List<ClosedLoad.Outcome> answered = load.result().outcomes().stream()
                .filter(o -> o.startedAtNanos() + o.millis() * 1_000_000 > from && o.startedAtNanos() + o.millis() * 1_000_000 <= to).toList();
        long[] millis = answered.stream().filter(o -> o.status() == 200).mapToLong(ClosedLoad.Outcome::millis).sorted().toArray();
        double seconds = (to - from) / 1e9;
        double p99 = millis.length == 0 ? Double.NaN : millis[Math.min(millis.length - 1, (int) Math.ceil(0.99 * millis.length) - 1)];
        JsonNode sampling = report == null ? null : report.path("sampling");
        return new Window(diagnosed, millis.length / seconds, p99, report == null ? 0 : report.path("threadDumps").asInt(),
                sampling == null ? Double.NaN : sampling.path("meanDumpMillis").asDouble(Double.NaN),
                sampling == null ? "" : sampling.path("summary").asText(""));
    }
}
