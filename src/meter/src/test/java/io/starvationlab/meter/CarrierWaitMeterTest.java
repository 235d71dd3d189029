package io.starvationlab.meter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.starvationlab.harness.PrometheusText;

/**
 * On a real scheduler whose every carrier the test holds with a spinning virtual thread until it lets go (surefire runs
 * it on one carrier; any {@code jdk.virtualThreadScheduler.parallelism} works), read as Prometheus reads it.
 */
class CarrierWaitMeterTest {

    private static final Duration INTERVAL = Duration.ofMillis(20);
    private static final String WAIT = "virtual_threads_carrier_wait_seconds";
    private static final String STALLED = "virtual_threads_carrier_stalled_seconds";
    private static final String QUEUED = "virtual_threads_carrier_queued";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @Test
    void shouldShowTheWaitsWhileEveryCarrierIsHeldAndLeaveNothingPendingOnceFreed() throws Exception {
        try (CarrierWaitMeter meter = new CarrierWaitMeter(INTERVAL);
                ExecutorService executor = meter.wrap(Executors.newVirtualThreadPerTaskExecutor())) {
            meter.bindTo(registry);
            PrometheusText bound = scrape();
            assertThat(bound.buckets(WAIT, source("canary"))).as("from binding").isNotEmpty();
            assertThat(bound.samples(STALLED, source("canary"))).as("from binding").hasSize(1);
            assertThat(bound.sum(STALLED, source("task"))).as("from binding, at 0").hasValue(0.0);
            assertThat(count(bound, "task")).isZero();
            awaitTrue(() -> count(scrape(), "canary") > 0);

            PrometheusText before;
            Future<?> task;
            try (HeldCarriers held = HeldCarriers.all()) {
                before = scrape();
                task = executor.submit(() -> { });
                awaitTrue(() -> meter.canaryStalled().compareTo(Duration.ofMillis(600)) > 0);
                PrometheusText during = scrape();

                // 30 intervals and more passed: the canary's series counts them while its probe waits
                assertThat(count(during, "canary") - count(before, "canary")).as("canary samples during the stall").isGreaterThanOrEqualTo(10);
                TreeMap<Double, Double> stalled = PrometheusText.delta(before.buckets(WAIT, source("canary")), during.buckets(WAIT, source("canary")));
                assertThat(PrometheusText.quantile(0.99, stalled)).as("canary p99 during the stall, seconds").isGreaterThan(0.2);
                assertThat(during.sum(STALLED, source("canary")).orElseThrow()).isGreaterThan(0.6);
                assertThat(during.sum(STALLED, source("task")).orElseThrow()).isGreaterThan(0.2);
                assertThat(during.sum(QUEUED, sample -> true)).hasValue(1.0);
                assertThat(count(during, "task")).as("a task's wait is recorded once it ran").isEqualTo(count(before, "task"));
            }

            task.get(5, TimeUnit.SECONDS);
            awaitTrue(() -> meter.canaryStalled().isZero());
            PrometheusText freed = scrape();
            assertThat(freed.sum(QUEUED, sample -> true)).hasValue(0.0);
            assertThat(freed.sum(STALLED, source("task"))).hasValue(0.0);
            assertThat(count(freed, "task") - count(before, "task")).isEqualTo(1);
            TreeMap<Double, Double> taskWaits = PrometheusText.delta(before.buckets(WAIT, source("task")), freed.buckets(WAIT, source("task")));
            assertThat(PrometheusText.quantile(0.5, taskWaits)).as("the task's wait, seconds").isGreaterThan(0.2);
        }
    }

    @Test
    void shouldCountNoTaskWaitingThatWasRejectedOrAbandonedYetRecordAnAbandonedOneThatRuns() {
        CarrierWaitMeter meter = new CarrierWaitMeter(null);
        meter.bindTo(registry);
        ExecutorService executor = meter.wrap(Executors.newVirtualThreadPerTaskExecutor());
        executor.shutdown();
        assertThatThrownBy(() -> executor.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        assertThat(scrape().sum(QUEUED, sample -> true)).hasValue(0.0);

        CarrierWaitMeter.Wait answeredMeanwhile = meter.handedOff();
        assertThat(scrape().sum(QUEUED, sample -> true)).hasValue(1.0);
        answeredMeanwhile.abandoned();
        assertThat(scrape().sum(QUEUED, sample -> true)).hasValue(0.0);
        answeredMeanwhile.started();
        answeredMeanwhile.started();
        assertThat(count(scrape(), "task")).as("its wait, once").isEqualTo(1);
        assertThat(scrape().samples(STALLED, source("canary"))).as("no canary, no canary series").isEmpty();
    }

    @Test
    void shouldStopTheCanaryOnClose() throws Exception {
        CarrierWaitMeter meter = new CarrierWaitMeter(INTERVAL);
        meter.bindTo(registry);
        awaitTrue(() -> count(scrape(), "canary") > 0);
        meter.close();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("carrier-canary")) {
                assertThat(thread.join(Duration.ofSeconds(5))).as("the canary ends").isTrue();
            }
        }
        awaitTrue(() -> meter.canaryStalled().isZero()); // its last probe recorded
        double probes = count(scrape(), "canary");
        Thread.sleep(INTERVAL.multipliedBy(10));
        assertThat(count(scrape(), "canary")).isEqualTo(probes);
    }

    /** Every carrier of the virtual-thread scheduler held by a virtual thread that spins (never yields) until closed. */
    private record HeldCarriers(AtomicBoolean released, List<Thread> holders) implements AutoCloseable {

        static HeldCarriers all() throws InterruptedException {
            int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
            AtomicBoolean released = new AtomicBoolean();
            CountDownLatch spinning = new CountDownLatch(carriers);
            List<Thread> holders = IntStream.range(0, carriers).mapToObj(i -> Thread.ofVirtual().start(() -> {
                spinning.countDown();
                while (!released.get()) {
                    Thread.onSpinWait();
                }
            })).toList();
            assertThat(spinning.await(5, TimeUnit.SECONDS)).as("every carrier held").isTrue();
            return new HeldCarriers(released, holders);
        }

        @Override
        public void close() throws InterruptedException {
            released.set(true);
            for (Thread holder : holders) {
                holder.join();
            }
        }
    }

    private PrometheusText scrape() {
        return PrometheusText.parse(registry.scrape());
    }

    private static double count(PrometheusText metrics, String source) {
        return metrics.sum(WAIT + "_count", source(source)).orElseThrow();
    }

    private static Predicate<PrometheusText.Sample> source(String source) {
        return sample -> source.equals(sample.label("source"));
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("within 5 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
