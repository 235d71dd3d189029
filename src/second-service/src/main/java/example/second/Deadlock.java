package example.second;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A deadlock on carriers: a virtual thread takes a lock and unmounts (it waits for the others); one virtual thread per carrier
 * then waits for that lock inside {@code synchronized}. Where a thread blocking inside {@code synchronized} keeps its carrier
 * (JDK 21-23; 24-25 with -XX:LockingMode=1) every carrier is kept by a waiter, and the lock's owner, woken by the last of them,
 * never gets one back to release it. The waiters give up after {@code ms}, which ends it; elsewhere the waiters unmount and the
 * owner releases the lock at once.
 */
final class Deadlock {

    /** The waiters gave up: the deadlock held until their timeout. */
    static final class GaveUp extends RuntimeException {
        GaveUp() {
            super("deadlocked: every waiter gave up on the lock");
        }
    }

    private Deadlock() {
    }

    /** Runs one deadlock; true when every waiter got the lock, false when they gave up after {@code ms}. */
    static boolean run(int ms) throws InterruptedException {
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
        ReentrantLock lock = new ReentrantLock();
        CountDownLatch owned = new CountDownLatch(1);
        CountDownLatch waitersIn = new CountDownLatch(carriers);
        Thread owner = Thread.ofVirtual().name("deadlock-owner").start(() -> {
            lock.lock();
            try {
                owned.countDown();
                waitersIn.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        });
        owned.await();
        List<Waiter> waiters = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < carriers; i++) {
            Waiter waiter = new Waiter();
            waiters.add(waiter);
            threads.add(Thread.ofVirtual().name("deadlock-waiter").start(() -> waiter.awaitLock(lock, waitersIn, ms)));
        }
        owner.join();
        for (Thread thread : threads) {
            thread.join();
        }
        return waiters.stream().allMatch(w -> w.locked);
    }

    /** One waiter: the lock is taken inside a monitor of its own, as a client that guards its connection with one would. */
    static final class Waiter {
        volatile boolean locked;

        synchronized void awaitLock(ReentrantLock lock, CountDownLatch in, int ms) {
            in.countDown();
            try {
                if (lock.tryLock(ms, TimeUnit.MILLISECONDS)) {
                    locked = true;
                    lock.unlock();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
