package io.starvationlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.starvationlab.service.Cancellation;
import io.starvationlab.service.CancelledException;

/** The bounded FIFO semaphore in front of a downstream: bounded waits, bounded queue, nothing leaked. */
class PermitsTest {

    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    @Test
    void shouldGiveAPermitAtOnceWhileOneIsFree() throws Exception {
        Permits permits = new Permits(Downstream.SLEEP, 2, 10, Duration.ofSeconds(1), RETRY_AFTER);
        permits.acquire(Cancellation.create());
        assertThat(permits.inUse()).isEqualTo(1);
        permits.release();
        assertThat(permits.inUse()).isZero();
    }

    /** Only a request that finds no free permit waits: none may wait here, and a free permit is still taken. */
    @Test
    void shouldNotCountATakerOfAFreePermitAsWaiting() throws Exception {
        Permits permits = new Permits(Downstream.SLEEP, 2, 0, Duration.ofSeconds(1), RETRY_AFTER);
        permits.acquire(Cancellation.create());
        permits.acquire(Cancellation.create());
        assertThat(permits.inUse()).isEqualTo(2);
        assertThatThrownBy(() -> permits.acquire(Cancellation.create())).isInstanceOfSatisfying(RejectedException.class,
                e -> assertThat(e.reason()).isEqualTo(RejectedException.Reason.QUEUE_FULL));
    }

    @Test
    void shouldRefuseWithPermitTimeoutAfterTheAcquireTimeout() throws Exception {
        Permits permits = new Permits(Downstream.DB, 1, 10, Duration.ofMillis(200), RETRY_AFTER);
        permits.acquire(Cancellation.create());
        long start = System.nanoTime();
        assertThatThrownBy(() -> permits.acquire(Cancellation.create())).isInstanceOfSatisfying(RejectedException.class,
                e -> assertThat(e.reason()).isEqualTo(RejectedException.Reason.PERMIT_TIMEOUT));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(150), Duration.ofSeconds(5));
        assertThat(permits.waiting()).as("the refused waiter left the queue").isZero();
        assertThat(permits.inUse()).isEqualTo(1);
    }

    @Test
    void shouldRefuseAtOnceWhenTheQueueIsFull() throws Exception {
        Permits permits = new Permits(Downstream.SLEEP, 1, 1, Duration.ofSeconds(10), RETRY_AFTER);
        permits.acquire(Cancellation.create());
        Cancellation queued = Cancellation.create();
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Throwable> queuedOutcome = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            started.countDown();
            try {
                permits.acquire(queued);
            } catch (Throwable e) {
                queuedOutcome.set(e);
            }
        });
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> permits.waiting() == 1);
        assertThatThrownBy(() -> permits.acquire(Cancellation.create())).isInstanceOfSatisfying(RejectedException.class,
                e -> assertThat(e.reason()).isEqualTo(RejectedException.Reason.QUEUE_FULL));
        queued.cancel();
        waiter.join(Duration.ofSeconds(5));
        assertThat(queuedOutcome.get()).as("a cancelled waiter leaves the queue").isInstanceOf(CancelledException.class);
        assertThat(permits.waiting()).isZero();
        assertThat(permits.inUse()).isEqualTo(1);
    }

    @Test
    void shouldRefuseASemaphoreWithoutPermits() {
        assertThatThrownBy(() -> new Permits(Downstream.SLEEP, 0, 1, Duration.ofSeconds(1), RETRY_AFTER))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
