package io.starvationlab.meter;

import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * How long work waits for a carrier, the platform thread that runs a virtual thread: what no JVM meter
 * says (Micrometer's virtual-thread binder counts pinned episodes and, on JDK 24+, queued threads; JFR and
 * the scheduler MXBean give events and counts, no wait). {@code new CarrierWaitMeter().bindTo(registry)}.
 * <ul>
 * <li>{@value #WAIT} (timer, seconds, histogram buckets 1 ms to 30 s), tagged {@code source}: {@code task},
 * each wait of the work the service hands over ({@link #wrap(ExecutorService)}, {@link #wrap(Runnable)},
 * {@link #handedOff()}), from its hand-off until its virtual thread first runs, once it ran; {@code canary},
 * the wait of the canary's probe sampled every interval (100 ms by default): each probe, a no-op virtual
 * thread started from the canary's own platform thread, adds its wait once it ran and, while it still
 * waits, its wait so far at every interval, so a probe stuck for 2 s adds 0.1, 0.2 … 2 s while it lasts
 * and the series grows by about one sample an interval whatever the carriers do;</li>
 * <li>{@value #STALLED} (gauge, seconds, tagged {@code source}): the oldest wait still going on, 0 when none;</li>
 * <li>{@value #QUEUED} (gauge): tasks handed over whose thread has not run yet.</li>
 * </ul>
 * Every series exists from binding, at 0.
 * <p>
 * The two sources differ. {@code task} is the requests' own wait. The canary's probe waits in a submission queue
 * of its own, and the scheduler keeps a carrier on the queue it took work from (JDK 21's
 * {@code ForkJoinPool.WorkQueue.topLevelExec} polls it again until it is empty, 25's {@code runWorker} until
 * another worker took from it too): under a busy hand-off the probe waits until the carriers leave that queue,
 * the whole backlog at worst (21.6-22.1 s against the requests' 4.3-5 s under pinning on JDK 21). So the canary
 * says that the carriers did not come free, with no traffic and on any service; the requests' wait is {@code task}'s.
 */
public final class CarrierWaitMeter implements MeterBinder, AutoCloseable {

    /** The timer of the waits, tagged {@code source}: the tasks' once they ended, the canary's sampled every interval. */
    public static final String WAIT = "virtual.threads.carrier.wait";
    /** The gauge of the oldest wait going on, in seconds, tagged {@code source}. */
    public static final String STALLED = "virtual.threads.carrier.stalled";
    /** The gauge of the tasks handed over and not yet running. */
    public static final String QUEUED = "virtual.threads.carrier.queued";

    private static final Duration DEFAULT_CANARY_INTERVAL = Duration.ofMillis(100);

    private static final Duration[] BUCKETS = { Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
            Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30) };
    private static final long NOT_WAITING = Long.MIN_VALUE;

    private final Duration canaryInterval;
    private final ConcurrentSkipListSet<Wait> waiting = new ConcurrentSkipListSet<>();
    private final AtomicLong sequence = new AtomicLong();
    private final List<Timer> taskWaits = new CopyOnWriteArrayList<>();
    private final List<Timer> canaryWaits = new CopyOnWriteArrayList<>();
    private final AtomicLong probeStartedAt = new AtomicLong(NOT_WAITING);
    private volatile long lastProbeNanos;
    private volatile boolean closed;
    private Thread canary;

    /** A meter whose canary probes every 100 ms once bound. */
    public CarrierWaitMeter() {
        this(DEFAULT_CANARY_INTERVAL);
    }

    /** A meter whose canary probes every {@code canaryInterval} once bound; null for no canary (and no canary series). */
    public CarrierWaitMeter(Duration canaryInterval) {
        if (canaryInterval != null && (canaryInterval.isNegative() || canaryInterval.isZero())) {
            throw new IllegalArgumentException("the canary interval must be positive: " + canaryInterval);
        }
        this.canaryInterval = canaryInterval;
    }

    /** Registers the meters in {@code registry} and, on the first binding, starts the canary. */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        taskWaits.add(waitTimer(registry, "task"));
        stalledGauge(registry, "task", CarrierWaitMeter::taskStalled);
        Gauge.builder(QUEUED, waiting, ConcurrentSkipListSet::size).strongReference(true)
                .description("Tasks handed over to a virtual thread that has not run on a carrier yet").register(registry);
        if (canaryInterval == null) {
            return;
        }
        canaryWaits.add(waitTimer(registry, "canary"));
        stalledGauge(registry, "canary", CarrierWaitMeter::canaryStalled);
        if (canary == null && !closed) {
            canary = Thread.ofPlatform().daemon().name("carrier-canary").start(this::probeEveryInterval);
        }
    }

    /** Marks work handed over now to a thread that has yet to run: call {@link Wait#started()} first thing on that thread. */
    public Wait handedOff() {
        Wait wait = new Wait();
        waiting.add(wait);
        return wait;
    }

    /** {@code task}, whose wait for a carrier runs from now until it first runs. */
    public Runnable wrap(Runnable task) {
        return new Handed(handedOff(), task);
    }

    /** {@code executor} (a virtual-thread one), timing each task's wait from {@code execute} until it runs; it shuts {@code executor} down with it. */
    public ExecutorService wrap(ExecutorService executor) {
        return new AbstractExecutorService() {
            @Override
            public void execute(Runnable task) {
                Handed handed = new Handed(handedOff(), task);
                try {
                    executor.execute(handed);
                } catch (RuntimeException e) {
                    handed.carrierWait.abandoned(); // rejected: it never runs
                    throw e;
                }
            }

            @Override
            public void shutdown() {
                executor.shutdown();
            }

            @Override
            public List<Runnable> shutdownNow() {
                return executor.shutdownNow().stream().map(task -> {
                    if (task instanceof Handed handed) {
                        handed.carrierWait.abandoned();
                        return handed.task;
                    }
                    return task;
                }).toList();
            }

            @Override
            public boolean isShutdown() {
                return executor.isShutdown();
            }

            @Override
            public boolean isTerminated() {
                return executor.isTerminated();
            }

            @Override
            public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
                return executor.awaitTermination(timeout, unit);
            }
        };
    }

    /** How long the oldest task handed over and not yet running has waited; zero when none waits. */
    public Duration taskStalled() {
        try {
            return Duration.ofNanos(System.nanoTime() - waiting.first().since);
        } catch (NoSuchElementException none) {
            return Duration.ZERO;
        }
    }

    /** How long the canary's probe in flight has waited so far; zero between probes and without a canary. */
    public Duration canaryStalled() {
        long started = probeStartedAt.get();
        return started == NOT_WAITING ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - started);
    }

    /** The canary's last completed wait; zero before the first and without a canary. */
    public Duration canaryLastWait() {
        return Duration.ofNanos(lastProbeNanos);
    }

    /** Stops the canary; the meters stay registered and tasks are still timed. */
    @Override
    public synchronized void close() {
        closed = true;
        if (canary != null) {
            canary.interrupt();
        }
    }

    /** Work handed over and not yet running on a carrier, oldest first. */
    public final class Wait implements Comparable<Wait> {

        private final long since = System.nanoTime();
        private final long order = sequence.incrementAndGet();
        private final AtomicBoolean ran = new AtomicBoolean();

        /** Its thread runs: the wait is over and recorded once (even after {@link #abandoned()}, which does not end a wait). */
        public void started() {
            waiting.remove(this);
            if (ran.compareAndSet(false, true)) {
                long nanos = System.nanoTime() - since;
                taskWaits.forEach(timer -> timer.record(nanos, TimeUnit.NANOSECONDS));
            }
        }

        /** No longer counted as waiting, its thread not yet run (answered meanwhile, or rejected): it leaves the queue and the stall. */
        public void abandoned() {
            waiting.remove(this);
        }

        @Override
        public int compareTo(Wait other) {
            int bySince = Long.compare(since - other.since, 0); // nanoTime: compare differences, not values
            return bySince != 0 ? bySince : Long.compare(order, other.order);
        }
    }

    /** A task with its wait: the wait ends when it first runs. */
    private record Handed(Wait carrierWait, Runnable task) implements Runnable {
        @Override
        public void run() {
            carrierWait.started();
            task.run();
        }
    }

    private static Timer waitTimer(MeterRegistry registry, String source) {
        return Timer.builder(WAIT).tags(Tags.of("source", source)).serviceLevelObjectives(BUCKETS)
                .description("How long work waited for a carrier, from its hand-off until its virtual thread first ran;"
                        + " the canary's also while it waits, sampled every interval")
                .register(registry);
    }

    private void stalledGauge(MeterRegistry registry, String source, Function<CarrierWaitMeter, Duration> stalled) {
        Gauge.builder(STALLED, this, meter -> stalled.apply(meter).toNanos() / 1e9).tags(Tags.of("source", source)).baseUnit("seconds")
                .description("How long the oldest work still waiting for a carrier has waited so far; 0 when none waits")
                .strongReference(true).register(registry);
    }

    /**
     * The canary: every interval it starts a probe, or while the last still waits records its wait so far. One probe in
     * flight at most, and the probe records its own wait: the canary's thread wakes once an interval, no more.
     */
    private void probeEveryInterval() {
        Thread.Builder probes = Thread.ofVirtual().name("carrier-canary-probe");
        while (!closed) {
            long started = probeStartedAt.get();
            if (started == NOT_WAITING) {
                long now = System.nanoTime();
                probeStartedAt.set(now);
                probes.start(() -> {
                    long waited = System.nanoTime() - now;
                    lastProbeNanos = waited;
                    recordCanary(waited);
                    probeStartedAt.set(NOT_WAITING);
                });
            } else {
                recordCanary(System.nanoTime() - started);
            }
            try {
                Thread.sleep(canaryInterval);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void recordCanary(long nanos) {
        canaryWaits.forEach(timer -> timer.record(nanos, TimeUnit.NANOSECONDS));
    }
}
