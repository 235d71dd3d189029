package io.starvationlab.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/** The cancellation protocol: an abandon reaches the wait in progress, and only that wait. */
class CancellationTest {

    @Test
    void shouldRunTheAbandonActionOfTheWaitInProgress() throws Exception {
        Cancellation cancellation = Cancellation.create();
        AtomicInteger abandoned = new AtomicInteger();
        CountDownLatch waiting = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                cancellation.guard(abandoned::incrementAndGet, () -> {
                    waiting.countDown();
                    return release.await(10, TimeUnit.SECONDS);
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(waiting.await(5, TimeUnit.SECONDS)).isTrue();
        cancellation.cancel();
        assertThat(abandoned.get()).isEqualTo(1);
        assertThat(cancellation.isCancelled()).isTrue();
        release.countDown();
        waiter.join(Duration.ofSeconds(5));
    }

    @Test
    void shouldNeverReachAWaitThatHasEnded() throws Exception {
        Cancellation cancellation = Cancellation.create();
        AtomicInteger abandoned = new AtomicInteger();
        assertThat(cancellation.guard(abandoned::incrementAndGet, () -> "answered")).isEqualTo("answered");
        cancellation.cancel();
        assertThat(abandoned.get()).as("the action of a finished wait").isZero();
    }

    @Test
    void shouldRefuseANewWaitOnceCancelled() {
        Cancellation cancellation = Cancellation.create();
        cancellation.cancel();
        AtomicInteger ran = new AtomicInteger();
        assertThatThrownBy(() -> cancellation.guard(() -> { }, ran::incrementAndGet)).isInstanceOf(CancelledException.class);
        assertThat(ran.get()).isZero();
    }

    @Test
    void shouldInterruptAnInterruptibleWaitAndLeaveNoInterruptBehind() throws Exception {
        Cancellation cancellation = Cancellation.create();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
        CountDownLatch sleeping = new CountDownLatch(1);
        Thread sleeper = Thread.ofVirtual().start(() -> {
            try {
                cancellation.interruptible(() -> {
                    sleeping.countDown();
                    Thread.sleep(Duration.ofSeconds(30));
                    return null;
                });
            } catch (Throwable e) {
                thrown.set(e);
            }
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        assertThat(sleeping.await(5, TimeUnit.SECONDS)).isTrue();
        long start = System.nanoTime();
        cancellation.cancel();
        sleeper.join(Duration.ofSeconds(5));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(thrown.get()).isInstanceOf(CancelledException.class);
        assertThat(interruptedAfter.get()).as("the interrupt was the cancellation's and is consumed").isFalse();
    }

    @Test
    void shouldNameTheExceptionThatEndsAnAbandonedCall() {
        assertThat(Cancellation.create().abandoned()).isInstanceOf(CancelledException.class);
    }
}
