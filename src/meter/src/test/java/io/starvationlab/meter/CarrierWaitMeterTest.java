package io.starvationlab.meter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** On one carrier (surefire's -Djdk.virtualThreadScheduler.parallelism=1): one busy virtual thread starves it. */
class CarrierWaitMeterTest {

    private final MeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void shouldTimeTheWaitsBehindABusyCarrierAndShowThemWhileTheyLast() throws Exception {
        try (CarrierWaitMeter meter = new CarrierWaitMeter(Duration.ofMillis(10));
                ExecutorService executor = meter.wrap(Executors.newVirtualThreadPerTaskExecutor())) {
            meter.bindTo(registry);
            assertThat(registry.find(CarrierWaitMeter.STALLED).tag("source", "canary").gauge()).as("from binding").isNotNull();
            assertThat(registry.get(CarrierWaitMeter.WAIT).tag("source", "task").timer().count()).as("from binding, at 0").isZero();
            assertThat(stalled("task")).isZero();
            assertThat(queued()).isZero();
            awaitTrue(() -> registry.get(CarrierWaitMeter.WAIT).tag("source", "canary").timer().count() > 0);

            CountDownLatch spinning = new CountDownLatch(1);
            long busyUntil = System.nanoTime() + Duration.ofMillis(400).toNanos();
            Thread hog = Thread.ofVirtual().start(() -> {
                spinning.countDown();
                while (System.nanoTime() < busyUntil) {
                    Thread.onSpinWait(); // never yields: the one carrier stays held
                }
            });
            spinning.await();
            Future<?> task = executor.submit(() -> { });
            awaitTrue(() -> stalled("task") > 0.1 && stalled("canary") > 0.1);
            assertThat(queued()).isEqualTo(1);
            assertThat(meter.taskStalled()).isGreaterThan(Duration.ofMillis(100));

            task.get(5, TimeUnit.SECONDS);
            hog.join();
            assertThat(registry.get(CarrierWaitMeter.WAIT).tag("source", "task").timer().max(TimeUnit.MILLISECONDS))
                    .as("the task's wait, recorded once it ran").isGreaterThan(100).isLessThan(1000);
            awaitTrue(() -> registry.get(CarrierWaitMeter.WAIT).tag("source", "canary").timer().max(TimeUnit.MILLISECONDS) > 100);
            awaitTrue(() -> stalled("canary") == 0);
            assertThat(queued()).isZero();
            assertThat(stalled("task")).isZero();
        }
    }

    @Test
    void shouldCountNoTaskWaitingThatWasRejectedOrAbandonedYetRecordAnAbandonedOneThatRuns() {
        CarrierWaitMeter meter = new CarrierWaitMeter(null);
        meter.bindTo(registry);
        ExecutorService executor = meter.wrap(Executors.newVirtualThreadPerTaskExecutor());
        executor.shutdown();
        assertThatThrownBy(() -> executor.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        assertThat(queued()).isZero();

        CarrierWaitMeter.Wait answeredMeanwhile = meter.handedOff();
        assertThat(queued()).isEqualTo(1);
        answeredMeanwhile.abandoned();
        assertThat(queued()).isZero();
        answeredMeanwhile.started();
        answeredMeanwhile.started();
        assertThat(registry.get(CarrierWaitMeter.WAIT).tag("source", "task").timer().count()).as("its wait, once").isEqualTo(1);
        assertThat(registry.find(CarrierWaitMeter.STALLED).tag("source", "canary").gauge()).as("no canary, no canary series").isNull();
    }

    @Test
    void shouldStopTheCanaryOnClose() throws Exception {
        CarrierWaitMeter meter = new CarrierWaitMeter(Duration.ofMillis(10));
        meter.bindTo(registry);
        awaitTrue(() -> canaryProbes() > 0);
        meter.close();
        Thread.sleep(50); // a probe in flight when it closed may still land
        long probes = canaryProbes();
        Thread.sleep(200);
        assertThat(canaryProbes()).isEqualTo(probes);
    }

    private long canaryProbes() {
        return registry.get(CarrierWaitMeter.WAIT).tag("source", "canary").timer().count();
    }

    private double stalled(String source) {
        return registry.get(CarrierWaitMeter.STALLED).tag("source", source).gauge().value();
    }

    private double queued() {
        return registry.get(CarrierWaitMeter.QUEUED).gauge().value();
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("within 5 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
