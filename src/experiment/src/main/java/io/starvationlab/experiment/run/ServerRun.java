package io.starvationlab.experiment.run;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.starvationlab.experiment.prometheus.PhaseWindow;
import io.starvationlab.experiment.prometheus.PrometheusRun;
import io.starvationlab.harness.CpuQuota;
import io.starvationlab.harness.Gauges;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.load.ClosedLoad;
import io.starvationlab.harness.load.PhaseResult;
import io.starvationlab.harness.load.PhaseRunner;
import io.starvationlab.model.Plan;
import io.starvationlab.model.StarvationRule;

/**
 * The one run loop, for the main plan and the JDK matrix alike: starts a server JVM, warms it up,
 * measures its clean baseline, then measures each phase (its load in a closed loop with the probes, or the one answer to
 * a mode the JVM cannot run), a phase starting only once the one before has left nothing behind.
 */
public final class ServerRun {

    private static final Duration QUIET_WITHIN = Duration.ofSeconds(30);
    /** A window that its own signals call disturbed ({@link Disturbance}) is measured again, at most this many times in all. */
    private static final int ATTEMPTS = 3;
    /** Inside a CPU quota the JIT compiles on the carriers' own CPUs: there each path warms longer, at one client per carrier. */
    private static final Duration WARM_EACH = Duration.ofMillis(500);
    private static final Duration WARM_EACH_IN_A_QUOTA = Duration.ofSeconds(2);
    /**
     * Work that holds no carrier warms at its phase's load (at most {@link #WARM_CLIENTS} clients of at most 100 ms) in slices
     * of this length, until two slices in a row answer within {@link #STEADY_WITHIN} of each other: its throughput steady,
     * the JIT done with its path, in the server and in this load's client alike.
     */
    private static final Duration WARM_SLICE = Duration.ofMillis(500);
    private static final int WARM_CLIENTS = 64;
    private static final double STEADY_WITHIN = 0.05;
    private static final int WARM_SLICES_AT_LEAST = 3;
    private static final int WARM_SLICES_AT_MOST = 16;

    /**
     * A server JVM to start.
     *
     * @param name        its name in the run: logs, Prometheus' pod label, the report
     * @param commandLine its flags and {@code -D} properties
     * @param http2       whether its loads and probes share one HTTP/2 connection
     * @param cpuQuota    the CPUs of the quota it runs inside, from which it takes its carriers; null: 4 carriers by
     *                    {@code -XX:ActiveProcessorCount}, no quota
     */
    public record Spec(String name, String description, Jdks.Jdk jdk, List<String> commandLine, boolean http2, Double cpuQuota) {
    }

    /** What every server JVM of one loop shares: the probes, the baseline's and the drain's lengths, the rule, where logs go. */
    public record Settings(Plan.ProbeSettings probes, Duration baseline, Duration drain, StarvationRule rule, Path logs) {
    }

    private final Settings settings;
    private final PrometheusRun prometheus;
    private final ServerStarts starts;
    private final RunClock clock;
    private final Consumer<String> progress;
    private final int total;
    private final BiConsumer<Spec, LabServer> after;
    private int done;

    /**
     * A loop of {@code total} phases in all (0: unknown), for its progress lines, its server JVMs taken from {@code starts}
     * and its time on {@code clock}. {@code after} (or null) runs on each server JVM after its phases: the run's probes stopped
     * and Prometheus no longer scraping it, so that another client's load measures the server alone and raises no alert
     * outside the phases'.
     */
    public ServerRun(Settings settings, PrometheusRun prometheus, ServerStarts starts, RunClock clock, Consumer<String> progress, int total,
            BiConsumer<Spec, LabServer> after) {
        this.settings = settings;
        this.prometheus = prometheus;
        this.starts = starts;
        this.clock = clock;
        this.progress = progress;
        this.total = total;
        this.after = after;
    }

    /**
     * Runs {@code phases} on a server JVM of {@code spec}, each for {@code duration}, its time on the clock as {@code part}; a JVM
     * that does not start is recorded so.
     */
    public MeasuredServer run(Spec spec, List<Plan.Phase> phases, Function<Plan.Phase, Duration> duration, String part) {
        progress.accept("Server " + spec.name() + ": " + spec.description());
        LabServer server;
        try {
            server = clock.time(RunClock.STARTS, () -> starts.take(spec));
        } catch (CpuQuota.Unavailable e) {
            throw e; // not the JVM's refusal: whoever planned a quota asked first whether one can be set
        } catch (IllegalStateException e) {
            starts.done(spec);
            List<String> says = jvmSays(settings.logs().resolve(spec.name() + ".log"), spec.commandLine());
            progress.accept("  the JVM did not start: " + String.join(" / ", says));
            done += phases.size();
            return new MeasuredServer(spec, null, says, null, List.of(), null, null, List.of());
        }
        return clock.time(part, () -> {
            try (PhaseRunner runner = new PhaseRunner(server, settings.probes().endpoints(), settings.probes().rates(),
                    Duration.ofMillis(settings.probes().timeoutMillis()), spec.http2());
                    AutoCloseable scraped = clock.time(RunClock.PROMETHEUS, () -> prometheus.scrape(spec.name(), server))) {
                MeasuredServer measured = measure(spec, runner, phases, duration);
                if (after != null) {
                    awaitQuiet(runner.lab()); // the last phase's requests that timed out may still hold carriers
                    runner.close();
                    scraped.close();
                    after.accept(spec, server);
                }
                return measured;
            } catch (Exception e) {
                throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
            } finally {
                starts.done(spec);
            }
        });
    }

    private MeasuredServer measure(Spec spec, PhaseRunner runner, List<Plan.Phase> phases, Function<Plan.Phase, Duration> duration) {
        MeasuredServer.Info info = MeasuredServer.Info.read(spec.name(), spec.description(), runner.lab().info());
        List<String> says = jvmSays(runner.server().log(), spec.commandLine());
        Optional<CpuQuota> quota = runner.server().cpuQuota();
        progress.accept(String.format(Locale.ROOT, "  %s %s, %d carriers, synchronized pins: %s, native: %s%s%s", info.javaVersion(),
                info.javaVendor(), info.carriers(), info.synchronizedPins(), info.nativePinAvailable(),
                quota.map(q -> String.format(Locale.ROOT, "; inside a quota of %s CPU%s (%s): /lab/info quota %s us per %s us, %d effective CPUs,"
                        + " %d processors, GC %s", cpus(q.cpus()), q.cpus() == 1 ? "" : "s", q.group().getFileName(), info.container().cpuQuotaMicros(),
                        info.container().cpuPeriodMicros(), info.container().effectiveCpuCount(), info.availableProcessors(),
                        info.container().garbageCollector())).orElse(""), says.isEmpty() ? "" : "; the JVM says: " + String.join(" / ", says)));
        Instant warmUp = Instant.now();
        CpuQuota.Throttling beforeWarmUp = quota.map(CpuQuota::throttling).orElse(null);
        String warmed = warmUp(runner, phases, info, quota.isPresent());
        CpuQuota.Throttling warmUpThrottling = quota.map(q -> q.throttling().since(beforeWarmUp)).orElse(null);
        progress.accept(String.format(Locale.ROOT, "  warm-up %.1f s%s%s", Duration.between(warmUp, Instant.now()).toMillis() / 1000.0,
                warmed.isEmpty() ? "" : ": " + warmed, warmUpThrottling == null ? "" : "; throttled in " + throttled(warmUpThrottling)));
        prometheus.phase(spec.name(), PhaseWindow.WARM_UP + "@" + spec.name(), PhaseWindow.WARM_UP, warmUp, Instant.now(), Instant.now());
        clock.time(RunClock.STARTS, starts::settle); // nothing runs beside the baseline
        List<Disturbance.Remeasured> remeasured = new ArrayList<>();
        Baseline baseline = baseline(runner, spec, remeasured);
        prometheus.phase(spec.name(), PhaseWindow.BASELINE + "@" + spec.name(), PhaseWindow.BASELINE, baseline.start(),
                baseline.start().plus(settings.baseline()), Instant.now());
        progress.accept(String.format(Locale.ROOT, "  baseline: /probe/virtual p50 %.1f ms", baseline.result().probe("virtual").percentileMillis(50)));
        List<MeasuredPhase> measured = new ArrayList<>();
        for (Plan.Phase phase : phases) {
            done++;
            MeasuredPhase record = null;
            for (int attempt = 1; record == null; attempt++) {
                if (!measured.isEmpty() || attempt > 1) {
                    awaitQuiet(runner.lab()); // requests that timed out may still hold carriers: the next window starts once they are gone
                }
                MeasuredPhase window = window(spec, runner, info, quota, phase, duration.apply(phase), attempt);
                String disturbed = window.result() == null ? null : Disturbance.ofPhase(phase, info, window.result(), baseline.result());
                if (disturbed == null || attempt == ATTEMPTS) {
                    record = disturbed == null ? window : window.disturbed(disturbed);
                } else {
                    remeasured.add(new Disturbance.Remeasured(spec.name(), phase.name(), attempt, disturbed));
                    prometheus.phase(window.server(), window.name() + " (attempt " + attempt + ")", PhaseWindow.DISTURBED, window.start(),
                            window.loadEnd(), window.end());
                    progress.accept("        disturbed (" + disturbed + "): measuring it again");
                }
            }
            measured.add(record);
            String verdict = record.result() == null ? null : record.result().starved(settings.rule(), baseline.result()) ? StarvationRule.STARVED
                    : StarvationRule.NOT_STARVED;
            if (verdict != null) {
                prometheus.phase(record.server(), record.name(), verdict, record.start(), record.loadEnd(), record.end());
            }
            progress.accept("        " + describe(record, baseline.result(), verdict)
                    + (record.disturbed() == null ? "" : "; kept and marked, disturbed in every attempt (" + record.disturbed() + ")"));
        }
        return new MeasuredServer(spec, info, says, baseline.result(), List.copyOf(measured), warmUpThrottling,
                EventLoopsBlocked.of(runner.server().eventLoopBlockedWarnings()), List.copyOf(remeasured));
    }

    /** One window of {@code phase}: its load with the probes, or the one answer to a mode the JVM cannot run. */
    private MeasuredPhase window(Spec spec, PhaseRunner runner, MeasuredServer.Info info, Optional<CpuQuota> quota, Plan.Phase phase,
            Duration length, int attempt) {
        if (holdsCarriersIdle(phase, info, spec)) {
            starts.open(length);
        } else {
            clock.time(RunClock.STARTS, starts::settle);
        }
        progress.accept(String.format(Locale.ROOT, "  [%s] %s: %d x %s for %.1f s%s", total > 0 ? done + "/" + total : String.valueOf(done),
                phase.name(), phase.concurrency(), phase.workPath(), length.toMillis() / 1000.0, attempt > 1 ? ", attempt " + attempt : ""));
        CpuQuota.Throttling before = quota.map(CpuQuota::throttling).orElse(null);
        Instant start = Instant.now();
        if (unavailable(phase, info)) {
            HttpResponse<String> response = runner.lab().get(phase.workPath());
            Instant end = Instant.now();
            return new MeasuredPhase(phase, spec.name(), null, new MeasuredPhase.Answer(response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse("")), start, end, end, null, null);
        }
        PhaseResult result = runner.run(phase.name(), phase.workPath(), phase.concurrency(), length, settings.drain());
        return new MeasuredPhase(phase, spec.name(), result, null, start, start.plus(length), Instant.now(),
                before == null ? null : quota.get().throttling().since(before), null);
    }

    /** A mode the server JVM says it cannot run ({@code native} without FFM): one request, whose answer is the measurement. */
    private static boolean unavailable(Plan.Phase phase, MeasuredServer.Info info) {
        return "native".equals(phase.mode()) && !info.nativePinAvailable();
    }

    /**
     * Whether a load of {@code phase} holds the carriers in a wait, using next to no CPU: native work, or synchronized where this
     * JVM pins it, over HTTP/1.1 (over one HTTP/2 connection the probes share the load's event loop). A server JVM may start
     * beside it: what such a phase measures is the carriers' queue, which a starting JVM does not join.
     */
    static boolean holdsCarriersIdle(Plan.Phase phase, MeasuredServer.Info info, Spec spec) {
        return phase.holdsCarriers(info.nativePinAvailable(), Boolean.TRUE.equals(info.synchronizedPins())) && !"cpu".equals(phase.mode())
                && !spec.http2();
    }

    /**
     * What each phase will run, one after the other, so that no phase times the JIT compiling it. Work that holds no carrier
     * runs at its phase's load until its throughput is steady ({@link #WARM_SLICE}); work that holds carriers runs briefly with
     * a carrier always left free, so that the warm-up starves nothing and raises no alert. Inside a CPU quota each path runs
     * longer, at one client per carrier, each holding its carrier for 20 ms at a time, so nothing waits long enough to look
     * starved. Returns what did not come steady, or an empty string.
     */
    private static String warmUp(PhaseRunner runner, List<Plan.Phase> phases, MeasuredServer.Info info, boolean inCpuQuota) {
        record Path(String path, int clients, boolean untilSteady) {
        }
        Set<Path> paths = new LinkedHashSet<>();
        for (Plan.Phase phase : phases.stream().filter(phase -> !unavailable(phase, info)).toList()) {
            boolean free = !phase.holdsCarriers(info.nativePinAvailable(), Boolean.TRUE.equals(info.synchronizedPins()));
            paths.add(free && !inCpuQuota
                    ? new Path("/work/" + phase.mode() + "?ms=" + Math.min(phase.ms(), 100) + "&downstream=" + phase.downstream(),
                            Math.min(phase.concurrency(), WARM_CLIENTS), true)
                    : new Path("/work/" + phase.mode() + "?ms=20&downstream=" + phase.downstream(), inCpuQuota ? info.carriers() : LabServer.CARRIERS - 1,
                            false));
        }
        List<String> unsteady = new ArrayList<>();
        for (Path path : paths) {
            try (ClosedLoad load = runner.load(path.path(), path.clients())) {
                if (!path.untilSteady()) {
                    Machine.pause(inCpuQuota ? WARM_EACH_IN_A_QUOTA : WARM_EACH);
                } else if (!untilSteady(load)) {
                    unsteady.add(path.path() + " not steady after " + WARM_SLICE.multipliedBy(WARM_SLICES_AT_MOST).toSeconds() + " s");
                }
                load.stop(Duration.ofSeconds(15));
            }
        }
        return String.join("; ", unsteady);
    }

    /** Waits slice by slice until two slices in a row answer within {@link #STEADY_WITHIN} of each other; false if none do in time. */
    private static boolean untilSteady(ClosedLoad load) {
        long before = load.answered();
        long last = -1;
        for (int slice = 1; slice <= WARM_SLICES_AT_MOST; slice++) {
            Machine.pause(WARM_SLICE);
            long answered = load.answered();
            long now = answered - before;
            before = answered;
            if (slice >= WARM_SLICES_AT_LEAST && now > 0 && Math.abs(now - last) <= STEADY_WITHIN * Math.max(now, last)) {
                return true;
            }
            last = now;
        }
        return false;
    }

    /** The probes-only baseline and when its kept attempt started. */
    private record Baseline(PhaseResult result, Instant start) {
    }

    /**
     * The baseline every phase on a server JVM is judged against, measured once the warm-up has drained. One that still sees
     * pinning, a waiting canary or a starvation alert (the warm-up's, inside a CPU quota on a busy machine) measured the leftovers, not the idle service: it is measured again (each attempt recorded in
     * {@code remeasured}), and kept and marked as contaminated if it never comes clean.
     */
    private Baseline baseline(PhaseRunner runner, Spec spec, List<Disturbance.Remeasured> remeasured) {
        Baseline kept = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (!quiet(runner.lab())) {
                progress.accept("  the server did not drain within " + QUIET_WITHIN.toSeconds() + " s");
            }
            List<String> raised = prometheus.activeAfter(spec.name(), QUIET_WITHIN);
            if (!raised.isEmpty()) {
                progress.accept("  " + String.join(" and ", raised) + " still active after " + QUIET_WITHIN.toSeconds() + " s");
            }
            Instant start = Instant.now();
            PhaseResult result = runner.baseline("baseline", settings.baseline(), settings.drain());
            List<String> active = prometheus.activeAfter(spec.name(), Duration.ZERO);
            String contamination = active.isEmpty() ? Disturbance.ofBaseline(result)
                    : String.join(" and ", active) + " active on the server, which would hide the next phase's onset";
            if (contamination == null) {
                return new Baseline(result, start);
            }
            progress.accept("  baseline contaminated (" + contamination + ")" + (attempt < ATTEMPTS ? ": measuring it again" : ": kept, marked"));
            if (attempt < ATTEMPTS) {
                remeasured.add(new Disturbance.Remeasured(spec.name(), PhaseWindow.BASELINE + "@" + spec.name(), attempt, contamination));
            }
            kept = new Baseline(result.contaminated(contamination), start);
        }
        return kept;
    }

    /** Waits, if the server is busy, until it has drained what came before. */
    private static void awaitQuiet(LabClient lab) {
        if (!Gauges.read(lab).idle()) {
            quiet(lab);
        }
    }

    /**
     * Whether the server became quiet within {@link #QUIET_WITHIN}: nothing in flight, no permit or connection held, the canary
     * not stalled, and no pinned episode for a whole second. A baseline measured before that measures the leftovers.
     */
    private static boolean quiet(LabClient lab) {
        long deadline = System.nanoTime() + QUIET_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            if (!Gauges.awaitIdle(lab, Duration.ofNanos(Math.max(deadline - System.nanoTime(), 0))).idle()) {
                return false;
            }
            lab.pinning(true);
            Machine.pause(Duration.ofSeconds(1));
            if (lab.pinning(false).path("eventsSinceReset").asLong() == 0 && Gauges.read(lab).idle()) {
                return true;
            }
        }
        return false;
    }

    /** A quota's CPUs as the plan writes them: 1 for 1.0, 1.5 for 1.5. */
    public static String cpus(double cpus) {
        return cpus == Math.rint(cpus) ? String.valueOf((long) cpus) : String.valueOf(cpus);
    }

    /** "3 of 80 periods (41 ms)", or "-" outside a quota. */
    public static String throttled(CpuQuota.Throttling throttling) {
        return throttling == null ? "-" : String.format(Locale.ROOT, "%d of %d periods (%.0f ms)", throttling.throttledPeriods(),
                throttling.periods(), throttling.throttledMillis());
    }

    /** The phase's raw figures and its verdict by the plan's rule ({@code verdict}), in a line. */
    private String describe(MeasuredPhase record, PhaseResult baseline, String verdict) {
        if (record.result() == null) {
            return "answered " + record.answer().status() + " " + record.answer().contentType();
        }
        PhaseResult result = record.result();
        StarvationRule rule = settings.rule();
        double loaded = result.probe(rule.probe()).percentileMillis(rule.percentile());
        double idle = baseline.probe(rule.probe()).percentileMillis(rule.percentile());
        ClosedLoad.SteadyState steady = result.load() == null ? null : result.load().steady();
        return String.format(Locale.ROOT, "%.1f req/s %s (%.1f over the whole window), /probe/%s p%.0f %.1f ms (%.0fx its baseline),"
                + " canary p99 %.1f ms, request wait p99 %.1f ms: %s%s", result.throughput(), steady == null ? "" : steady.whole()
                        ? "over the whole window, no steady part" : String.format(Locale.ROOT, "in steady state from %.1f s", steady.fromSeconds()),
                result.load() == null ? 0 : result.load().windowThroughput(), rule.probe(), rule.percentile(), loaded, loaded / Math.max(idle, 0.1),
                result.canaryP99Millis(), result.requestWaitP99Millis(), verdict, record.throttling() == null ? "" : "; throttled in " + throttled(record.throttling()));
    }

    /** What the JVM printed about the flags of its command line: its warning, or why it would not start. */
    static List<String> jvmSays(Path log, List<String> commandLine) {
        List<String> options = commandLine.stream().filter(flag -> flag.startsWith("-XX:"))
                .map(flag -> flag.replaceFirst("^-XX:[+-]?", "").replaceFirst("=.*$", "")).toList();
        try {
            return Files.readAllLines(log).stream().limit(200)
                    .filter(line -> options.stream().anyMatch(line::contains) || line.startsWith("Error: Could not create the Java Virtual Machine"))
                    .map(String::strip).distinct().limit(5).toList();
        } catch (IOException e) {
            return List.of("(no log: " + e.getMessage() + ")");
        }
    }
}
