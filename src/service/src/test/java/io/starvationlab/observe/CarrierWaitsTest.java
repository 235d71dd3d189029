package io.starvationlab.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The requests' waits for a carrier, on a clock the test moves: each wait exactly, not a sleep's worth. */
class CarrierWaitsTest {

    private final MockClock clock = new MockClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
    private final CarrierWaits waits = new CarrierWaits(registry);

    @Test
    void theOldestRequestStillWaitingShouldBeTheStall() {
        assertThat(waits.stalledMillis()).isZero();
        CarrierWaits.Waiting first = waits.handedOff();
        clock.add(60, TimeUnit.MILLISECONDS);
        CarrierWaits.Waiting second = waits.handedOff();
        clock.add(15, TimeUnit.MILLISECONDS);
        assertThat(waits.stalledMillis()).as("the first one's wait").isEqualTo(75);
        assertThat(gauge("lab.carrier.request.stalled")).as("the same, in seconds").isEqualTo(0.075);
        assertThat(gauge("lab.carrier.request.queued")).isEqualTo(2);

        first.started();
        assertThat(waits.stalledMillis()).as("the second one's wait, now the oldest").isEqualTo(15);
        clock.add(5, TimeUnit.MILLISECONDS);
        second.started();
        assertThat(waits.stalledMillis()).isZero();
        assertThat(gauge("lab.carrier.request.queued")).isZero();
        assertThat(registry.get("lab.carrier.request.wait").timer().count()).isEqualTo(2);
        assertThat(registry.get("lab.carrier.request.wait").timer().max(TimeUnit.MILLISECONDS)).isEqualTo(75);
        assertThat(registry.get("lab.carrier.request.wait").timer().totalTime(TimeUnit.MILLISECONDS)).isEqualTo(75 + 20);
    }

    /** Requests handed off in the same instant wait in the order they came, not as one. */
    @Test
    void requestsHandedOffInTheSameInstantShouldEachBeCounted() {
        CarrierWaits.Waiting first = waits.handedOff();
        CarrierWaits.Waiting second = waits.handedOff();
        clock.add(10, TimeUnit.MILLISECONDS);
        assertThat(gauge("lab.carrier.request.queued")).isEqualTo(2);
        first.started();
        assertThat(waits.stalledMillis()).as("the second is still waiting").isEqualTo(10);
        second.started();
        assertThat(gauge("lab.carrier.request.queued")).isZero();
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
