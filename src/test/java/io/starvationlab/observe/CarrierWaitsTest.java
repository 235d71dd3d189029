package io.starvationlab.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

class CarrierWaitsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final CarrierWaits waits = new CarrierWaits(registry);

    @Test
    void theOldestRequestStillWaitingShouldBeTheStall() throws InterruptedException {
        assertThat(waits.stalledMillis()).isZero();
        CarrierWaits.Waiting first = waits.handedOff();
        Thread.sleep(60);
        CarrierWaits.Waiting second = waits.handedOff();
        assertThat(waits.stalledMillis()).as("the first one's wait").isGreaterThanOrEqualTo(60);
        assertThat(gauge("lab.carrier.request.queued")).isEqualTo(2);

        first.started();
        assertThat(waits.stalledMillis()).as("the second one's wait, shorter").isLessThan(60);
        second.started();
        assertThat(waits.stalledMillis()).isZero();
        assertThat(gauge("lab.carrier.request.queued")).isZero();
        assertThat(registry.get("lab.carrier.request.wait").timer().count()).isEqualTo(2);
        assertThat(registry.get("lab.carrier.request.wait").timer().max(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(60);
    }

    @Test
    void aRequestAnsweredBeforeItsThreadRanShouldStopWaitingAndCountWhenItRuns() {
        CarrierWaits.Waiting abandoned = waits.handedOff();
        abandoned.ended();
        assertThat(gauge("lab.carrier.request.queued")).isZero();
        assertThat(waits.stalledMillis()).isZero();
        assertThat(registry.get("lab.carrier.request.wait").timer().count()).as("no thread has run yet").isZero();
        abandoned.started();
        abandoned.ended();
        assertThat(registry.get("lab.carrier.request.wait").timer().count()).as("its wait, once").isEqualTo(1);
        assertThat(gauge("lab.carrier.request.queued")).isZero();
    }

    @Test
    void requestsHandedOffTogetherShouldAllBeCountedAndAllLeave() throws InterruptedException {
        int threads = 8;
        int each = 2_000;
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread.ofPlatform().start(() -> {
                for (int i = 0; i < each; i++) {
                    CarrierWaits.Waiting waiting = waits.handedOff();
                    if (i % 2 == 0) {
                        waiting.started();
                    } else {
                        waiting.ended();
                    }
                }
                done.countDown();
            });
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(gauge("lab.carrier.request.queued")).as("none left behind").isZero();
        assertThat(registry.get("lab.carrier.request.wait").timer().count()).isEqualTo(threads * each / 2);
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }
}
