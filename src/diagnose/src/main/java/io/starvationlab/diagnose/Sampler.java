package io.starvationlab.diagnose;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Samples the carriers every interval for the stated time, as closely as they are pressed. Every interval the
 * scheduler MXBean (JDK 24+: mounted and queued virtual threads, one cheap read); {@code Thread.print} (the
 * carriers, what they carry and, from JDK 25, its stack; a safepoint in the target) at the same interval while
 * every carrier is taken, by the MXBean or, without one, by the last {@code Thread.print}, and every
 * {@link #BACKGROUND} otherwise: while a carrier is free nobody waits for one. Where the target's files can be
 * read, a JSON thread dump (every virtual thread: who waits for a carrier, and what the mounted ones do): it
 * costs the target and this tool time in proportion to its threads (seconds for 10,000), so it is taken only
 * once every carrier has been taken, with threads queued where the MXBean counts them, for {@link #PRESSURE},
 * and the next only once the last one's time is at most {@link #DUMP_SHARE} of the time since; the MXBean and
 * JFR carry the wait in between, JFR recording only once pressed ({@link FlightRecording#pressed}). It ends with the
 * {@link Observation}, fixed.
 */
final class Sampler {

    /** The share of the time, while every carrier is taken, that thread dumps may take. */
    static final double DUMP_SHARE = 0.1;
    /** How long every carrier must have been taken before a dump: a busy service takes them all for moments. */
    static final Duration PRESSURE = Duration.ofSeconds(1);
    /** How often {@code Thread.print} comes while a carrier is free. */
    static final Duration BACKGROUND = Duration.ofSeconds(2);

    /** How often {@code Thread.print} comes while a carrier is free, sampling every {@code interval}: never more often than that. */
    static Duration printPeriod(Duration interval) {
        return interval.compareTo(BACKGROUND) > 0 ? interval : BACKGROUND;
    }

    /** Carriers' CPU per carrier past which taken carriers count as running, not blocked. */
    static final double BUSY_CPU = 0.1;

    private final TargetJvm target;
    private final Options options;
    private final Stacks stacks;
    private final FlightRecording recording;
    private final Instant start = Instant.now();
    private final List<Sample> samples = new ArrayList<>();
    private final List<FrameGroups.Sighting> mounted = new ArrayList<>();
    private final CarrierWaits waits = new CarrierWaits();
    private String carrierPool;
    private String noThreadDumps;
    private boolean printShowsMounted;
    private boolean dumpsRecordState;
    private int prints;
    private Duration dumpTime = Duration.ZERO;
    private int dumpThreads;
    private Long lastPrintNanos;
    private boolean allTakenAtLastPrint;
    private boolean allTakenAtPrintBefore;
    private Map<Long, Carriers.PlatformThread> lastCarriers = Map.of();
    private Instant lastAt;
    private final int parallelism;
    private long nextDumpNanos;
    private Instant pressedSince;

    /** {@code recording} is null where there is none. */
    private Sampler(TargetJvm target, Options options, int parallelism, FlightRecording recording) {
        this.target = target;
        this.options = options;
        this.stacks = new Stacks(options.skip());
        this.parallelism = parallelism;
        this.recording = recording;
        this.noThreadDumps = target.whyNoThreadDumps(options.threadDumps()).orElse(null);
    }

    /** Watches {@code target} as {@code options} say and returns what it saw. */
    static Observation observe(TargetJvm target, Options options) throws IOException {
        Optional<Map<String, Object>> mxBean = target.scheduler();
        SchedulerSettings scheduler = SchedulerSettings.of(target.facts(), mxBean);
        boolean queueCounted = mxBean.isPresent() || target.whyNoThreadDumps(options.threadDumps()).isEmpty();
        FlightRecording recording = target.hasFlightRecorder() ? FlightRecording.of(target, options.pinnedThreshold(), queueCounted, PRESSURE) : null;
        try {
            Sampler sampler = new Sampler(target, options, scheduler.parallelism(), recording);
            Instant end = sampler.run();
            FlightRecording.Recorded recorded = recording == null
                    ? FlightRecording.Recorded.none("this JVM has no FlightRecorder MXBean (no jdk.management.jfr module)")
                    : recording.finish(sampler.stacks);
            return sampler.observation(scheduler, end, recorded);
        } finally {
            if (recording != null) {
                recording.close();
            }
        }
    }

    private Observation observation(SchedulerSettings scheduler, Instant end, FlightRecording.Recorded recorded) {
        Duration ownCpu = ProcessHandle.current().info().totalCpuDuration().orElse(null);
        return new Observation(target.address(), target.facts(), scheduler, start, end, List.copyOf(samples), carrierPool, new Holds(mounted),
                waits.seen(), recorded, new Observation.Sampling(prints, dumpTime, dumpThreads, dumpsRecordState, printShowsMounted, noThreadDumps, ownCpu));
    }

    /** Samples until the watch is over; returns when it ended. */
    private Instant run() throws IOException {
        long intervalNanos = options.interval().toNanos();
        long startNanos = System.nanoTime();
        long endNanos = startNanos + options.duration().toNanos();
        long next = startNanos;
        nextDumpNanos = startNanos;
        while (System.nanoTime() < endNanos) {
            sampleOnce();
            next += intervalNanos;
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                pause(Duration.ofNanos(Math.min(sleep, Math.max(0, endNanos - System.nanoTime()))));
            } else {
                next = System.nanoTime(); // behind: sample again at once, no burst to catch up
            }
        }
        return Instant.now();
    }

    private void sampleOnce() throws IOException {
        Instant at = Instant.now();
        Optional<Map<String, Object>> scheduler = target.scheduler();
        Integer mounted = scheduler.map(s -> ((Number) s.get("MountedVirtualThreadCount")).intValue()).orElse(null);
        Long queued = scheduler.map(s -> ((Number) s.get("QueuedVirtualThreadCount")).longValue()).orElse(null);
        // without the MXBean one print that saw a carrier free right after one that saw them all taken is followed at the interval:
        // work that frees every carrier at once (a class initialization's waiters) must not weigh that moment as a free stretch
        boolean allTaken = mounted == null ? allTakenAtLastPrint || allTakenAtPrintBefore : mounted >= parallelism;
        long background = printPeriod(options.interval()).toNanos();
        if (!allTaken && lastPrintNanos != null && System.nanoTime() - lastPrintNanos < background) {
            pressed(false, at);
            if (scheduler.isPresent()) {
                samples.add(new Sample(at, ((Number) scheduler.get().get("PoolSize")).intValue(), null, Double.NaN, mounted, queued,
                        null, null, null, null, null));
            }
            return;
        }
        lastPrintNanos = System.nanoTime();
        prints++;
        List<Carriers.PlatformThread> threads = Carriers.parse(target.threadPrint());
        if (carrierPool == null) {
            carrierPool = Carriers.poolPrefix(threads).orElse(null);
        }
        List<Carriers.PlatformThread> pool = carrierPool == null ? List.of() : Carriers.ofPool(threads, carrierPool);
        Set<Long> carried = pool.stream().map(Carriers.PlatformThread::carrying).filter(id -> id != null).collect(Collectors.toSet());
        // NaN until the pool is known: its CPU so far would count as this window's
        double cpu = pool.isEmpty() ? Double.NaN : pool.stream().mapToDouble(Carriers.PlatformThread::cpuMillis).filter(Double::isFinite).sum();
        allTakenAtPrintBefore = allTakenAtLastPrint;
        allTakenAtLastPrint = carried.size() >= parallelism;
        printShowsMounted |= pool.stream().anyMatch(c -> !c.mounted().stack().isEmpty());
        int poolSize = scheduler.map(s -> ((Number) s.get("PoolSize")).intValue()).orElse(pool.size());

        Integer waiting = null;
        Map<Long, ThreadDump.Thread> dumped = new HashMap<>();
        boolean pressed = Math.max(mounted == null ? 0 : mounted, carried.size()) >= parallelism && (queued == null || queued > 0);
        pressed(pressed, at);
        boolean due = pressed && !Duration.between(pressedSince, at).minus(PRESSURE).isNegative() && System.nanoTime() >= nextDumpNanos;
        Optional<ThreadDump> dump = due ? dump() : Optional.empty();
        if (dump.isPresent()) {
            ThreadDump d = dump.get();
            waits.observe(d);
            waiting = (int) d.threads().stream().filter(t -> t.waitingForCarrier(d.recordsState())).count();
            d.threads().stream().filter(t -> carried.contains(t.id())).forEach(t -> dumped.put(t.id(), t));
        }
        int pinned = 0;
        int running = 0;
        for (Carriers.PlatformThread carrier : pool) {
            Mounted seen = carrier.mounted();
            ThreadDump.Thread inDump = carrier.carrying() == null ? null : dumped.get(carrier.carrying());
            if (inDump != null) {
                String owner = dump.get().owner(inDump).map(ThreadDump.Thread::describe).orElse(null);
                seen = seen.withDump(seen.stack().isEmpty() ? inDump.stack() : seen.stack(), seen.stack().isEmpty() ? inDump.monitorOwners() : seen.monitorOwners(),
                        inDump.blocker(), owner);
            }
            if (seen.stack().isEmpty()) {
                continue;
            }
            Stacks.Hold hold = stacks.hold(seen, idle(carrier, at));
            this.mounted.add(new FrameGroups.Sighting(hold, seen.stack(), null, null, seen.monitorOwners()));
            if (hold.cause() == Cause.CPU_BOUND) {
                running++;
            } else {
                pinned++;
            }
        }
        boolean stacksSeen = pinned + running > 0;
        samples.add(new Sample(at, poolSize, carried.size(), cpu, mounted, queued, waiting, stacksSeen ? pinned : null,
                stacksSeen ? running : null, dump.isPresent() ? waits.seen().longestAtLeast() : null, heldIdle(pool, at)));
        lastCarriers = pool.stream().collect(Collectors.toMap(Carriers.PlatformThread::id, c -> c, (a, b) -> a));
        lastAt = at;
    }

    private void pressed(boolean pressed, Instant at) {
        pressedSince = !pressed ? null : pressedSince == null ? at : pressedSince;
        if (recording != null) {
            recording.pressed(pressed, at, !printShowsMounted);
        }
    }

    /** Whether the carrier used under {@link #BUSY_CPU} of the time since the last sample on CPU; false where unknown. */
    private boolean idle(Carriers.PlatformThread carrier, Instant at) {
        Carriers.PlatformThread before = lastCarriers.get(carrier.id());
        if (before == null || lastAt == null || !Double.isFinite(carrier.cpuMillis()) || !Double.isFinite(before.cpuMillis())) {
            return false;
        }
        double wallMillis = Duration.between(lastAt, at).toNanos() / 1e6;
        return carrier.cpuMillis() - before.cpuMillis() < BUSY_CPU * wallMillis;
    }

    /** Carriers that kept the same virtual thread since the last sample and used almost no CPU since. */
    private int heldIdle(List<Carriers.PlatformThread> pool, Instant at) {
        return (int) pool.stream().filter(c -> c.carrying() != null && lastCarriers.containsKey(c.id())
                && c.carrying().equals(lastCarriers.get(c.id()).carrying()) && idle(c, at)).count();
    }

    private Optional<ThreadDump> dump() {
        if (noThreadDumps != null) {
            return Optional.empty();
        }
        long begin = System.nanoTime();
        try {
            Optional<String> json = target.threadDumpJson();
            if (json.isEmpty()) {
                noThreadDumps = "the JVM wrote its thread dump where this machine cannot read it";
                return Optional.empty();
            }
            Set<Long> platform = new HashSet<>();
            Arrays.stream(target.platformThreadIds()).forEach(platform::add);
            ThreadDump dump = ThreadDump.parse(json.get(), platform);
            long took = System.nanoTime() - begin;
            dumpsRecordState |= dump.recordsState();
            dumpTime = dumpTime.plusNanos(took);
            dumpThreads = Math.max(dumpThreads, dump.threads().size());
            nextDumpNanos = System.nanoTime() + (long) (took / DUMP_SHARE);
            return Optional.of(dump);
        } catch (IOException | RuntimeException e) {
            noThreadDumps = "the JVM could not write or this tool could not read a thread dump: " + e.getMessage();
            return Optional.empty();
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
