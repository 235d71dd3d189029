package io.starvationlab.benchmark;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.starvationlab.meter.CarrierWaitMeter;

/**
 * {@code meter}: what the carrier-wait meter costs, measured as JMH measures such costs, in forked JVMs after warm-up, ns
 * per task: a batch of no-op tasks handed to a virtual-thread-per-task executor, plain and wrapped by the meter, each batch
 * until every task ran (so the meter's work on the carrier counts too), on one carrier: the CPU a task costs, with no
 * carrier parked and woken between tasks; and the meter's {@code handedOff()/started()} pair alone. Then the canary's CPU
 * per second in an otherwise idle JVM: its platform thread and the carriers its probes run on, beside a thread that only
 * sleeps as often, and the whole process with the canary and without.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MeterBenchmark {

    private static final int BATCH = 1_000;
    private static final int FORKS = 5;
    /** 1 s each; on two shared cores the JIT takes some 5 s to settle the wrapped path. */
    private static final int WARM_UPS = 10;
    private static final int MEASURED = 5;
    private static final Duration IDLE_WINDOW = Duration.ofSeconds(30);
    /** Long enough for the JIT to compile the canary's loop, which it runs ten times a second. */
    private static final Duration CANARY_WARM_UP = Duration.ofSeconds(60);

    private CarrierWaitMeter meter;
    private ExecutorService plain;
    private ExecutorService wrapped;

    @Setup
    public void bind() {
        meter = new CarrierWaitMeter(null); // no canary here: its cost is measured on its own
        meter.bindTo(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        plain = Executors.newVirtualThreadPerTaskExecutor();
        wrapped = meter.wrap(Executors.newVirtualThreadPerTaskExecutor());
    }

    @TearDown
    public void close() {
        plain.close();
        wrapped.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void plainHandOff() throws InterruptedException {
        handOff(plain);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void wrappedHandOff() throws InterruptedException {
        handOff(wrapped);
    }

    @Benchmark
    public void handedOffThenStarted() {
        meter.handedOff().started();
    }

    /**
     * From a virtual thread on the one carrier: the batch waits in the queue while it is handed off and then runs, the
     * carrier never parking in between (a wake-up costs more than the hand-off itself).
     */
    private static void handOff(ExecutorService executor) throws InterruptedException {
        Thread.ofVirtual().start(() -> {
            CountDownLatch ran = new CountDownLatch(BATCH);
            Runnable task = ran::countDown;
            for (int i = 0; i < BATCH; i++) {
                executor.execute(task);
            }
            try {
                ran.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).join();
    }

    static Map<String, Object> run() throws RunnerException, InterruptedException {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("setup", "JDK " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " processors, JMH average time, "
                + FORKS + " forks of " + WARM_UPS + " x 1 s warm-up and " + MEASURED + " x 1 s measured on one carrier; hand-offs in batches of " + BATCH
                + " no-op tasks from a virtual thread, until all ran");
        Collection<RunResult> results = new Runner(new OptionsBuilder().include(MeterBenchmark.class.getName() + "\\.").forks(FORKS)
                .warmupIterations(WARM_UPS).warmupTime(TimeValue.seconds(1)).measurementIterations(MEASURED).measurementTime(TimeValue.seconds(1))
                .jvmArgs("-Djdk.virtualThreadScheduler.parallelism=1", "-Xms1g", "-Xmx1g").build()).run();
        Map<String, Result<?>> scores = new LinkedHashMap<>();
        results.forEach(run -> scores.put(run.getParams().getBenchmark().replaceAll(".*\\.", ""), run.getPrimaryResult()));
        scores.forEach((name, score) -> figures.put(name + "Ns", List.of(Benchmarks.round(score.getScore()), "±" + Benchmarks.round(score.getScoreError()))));
        Result<?> plain = scores.get("plainHandOff");
        Result<?> wrapped = scores.get("wrappedHandOff");
        // the 99.9 % intervals of two independent means: the difference's is about the root of their squares' sum
        figures.put("wrappedMinusPlainNs", List.of(Benchmarks.round(wrapped.getScore() - plain.getScore()),
                "±" + Benchmarks.round(Math.hypot(wrapped.getScoreError(), plain.getScoreError())), "acceptance: at most 500"));
        figures.putAll(canaryCpu());
        return figures;
    }

    /**
     * The canary at its default interval in this JVM, idle but for it, in milliseconds of CPU a second: its own threads, and
     * the process's with it and without. Beside it throughout, a thread that only sleeps 100 ms at a time: what waking ten
     * times a second costs on this machine.
     */
    private static Map<String, Object> canaryCpu() throws InterruptedException {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Thread sleeper = Thread.ofPlatform().daemon().start(() -> {
            try {
                while (true) {
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                // done
            }
        });
        long processBefore = os.getProcessCpuTime();
        long sleeperBefore = mx.getThreadCpuTime(sleeper.threadId());
        Thread.sleep(IDLE_WINDOW);
        long withoutNanos = os.getProcessCpuTime() - processBefore;
        long sleeperNanos = mx.getThreadCpuTime(sleeper.threadId()) - sleeperBefore;

        try (CarrierWaitMeter meter = new CarrierWaitMeter()) {
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            meter.bindTo(registry);
            Thread.sleep(CANARY_WARM_UP);
            Map<Long, Long> threadsBefore = canaryThreadsCpu();
            double probesBefore = probes(registry);
            processBefore = os.getProcessCpuTime();
            Thread.sleep(IDLE_WINDOW);
            long withNanos = os.getProcessCpuTime() - processBefore;
            Map<Long, Long> threadsAfter = canaryThreadsCpu();
            double probes = probes(registry) - probesBefore;
            sleeper.interrupt();
            // a carrier that ended during the window (idle 30 s) took its time with it: it is counted as missing
            long threadsNanos = threadsAfter.entrySet().stream().mapToLong(thread -> thread.getValue() - threadsBefore.getOrDefault(thread.getKey(), 0L)).sum();
            long ended = threadsBefore.keySet().stream().filter(id -> !threadsAfter.containsKey(id)).count();

            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("canaryWindow", IDLE_WINDOW.toSeconds() + " s at the default 100 ms after " + CANARY_WARM_UP.toSeconds() + " s, " + (long) probes
                    + " probes; threads ended meanwhile: " + ended);
            figures.put("canaryThreadsCpuMsPerSecond", msPerSecond(threadsNanos));
            figures.put("canaryThreadsCpuMicrosPerProbe", Benchmarks.round(threadsNanos / 1e3 / Math.max(probes, 1)));
            figures.put("sleepEvery100MsCpuMsPerSecond", msPerSecond(sleeperNanos));
            figures.put("processCpuMsPerSecondWithCanary", msPerSecond(withNanos));
            figures.put("processCpuMsPerSecondWithout", msPerSecond(withoutNanos));
            System.out.printf(Locale.ROOT, "canary: %s%n", figures);
            return figures;
        }
    }

    private static double msPerSecond(long nanos) {
        return Benchmarks.round(nanos / 1e6 / IDLE_WINDOW.toSeconds());
    }

    /** CPU nanoseconds of the canary's platform thread and of every carrier, by thread id. */
    private static Map<Long, Long> canaryThreadsCpu() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new LinkedHashMap<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("carrier-canary") || thread.getClass().getName().equals("jdk.internal.misc.CarrierThread")) {
                cpu.put(thread.threadId(), mx.getThreadCpuTime(thread.threadId()));
            }
        }
        return cpu;
    }

    private static double probes(PrometheusMeterRegistry registry) {
        return registry.get(CarrierWaitMeter.WAIT).tag("source", "canary").timer().count();
    }
}
