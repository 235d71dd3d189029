package io.starvationlab.diagnose;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Samples the carriers every interval for the stated time: {@code Thread.print} (the carriers and what
 * they carry, every JDK), the scheduler MXBean (JDK 24+) and, where the target's files can be read, a
 * JSON thread dump (every virtual thread: who waits for a carrier, and what the mounted ones do).
 */
final class Sampler {

    private final TargetJvm target;
    private final Options options;
    private final Observation observation;
    private Map<Long, Carriers.PlatformThread> lastCarriers = Map.of();
    private Instant lastAt;

    Sampler(TargetJvm target, Options options, Stacks stacks) {
        this.target = target;
        this.options = options;
        this.observation = new Observation(Instant.now(), stacks);
        this.observation.noThreadDumps = target.whyNoThreadDumps(options.threadDumps()).orElse(null);
    }

    Observation run() throws IOException {
        long intervalNanos = options.interval().toNanos();
        long startNanos = System.nanoTime();
        long endNanos = startNanos + options.duration().toNanos();
        long next = startNanos;
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
        observation.end = Instant.now();
        return observation;
    }

    private void sampleOnce() throws IOException {
        Instant at = Instant.now();
        List<Carriers.PlatformThread> threads = Carriers.parse(target.threadPrint());
        if (observation.carrierPool == null) {
            observation.carrierPool = Carriers.poolPrefix(threads).orElse(null);
        }
        List<Carriers.PlatformThread> pool = observation.carrierPool == null ? List.of() : Carriers.ofPool(threads, observation.carrierPool);
        Set<Long> carried = pool.stream().map(Carriers.PlatformThread::carrying).filter(id -> id != null).collect(Collectors.toSet());
        // NaN until the pool is known: its CPU so far would count as this window's
        double cpu = pool.isEmpty() ? Double.NaN : pool.stream().mapToDouble(Carriers.PlatformThread::cpuMillis).filter(Double::isFinite).sum();
        Optional<Map<String, Object>> scheduler = target.scheduler();
        Integer mounted = scheduler.map(s -> ((Number) s.get("MountedVirtualThreadCount")).intValue()).orElse(null);
        Long queued = scheduler.map(s -> ((Number) s.get("QueuedVirtualThreadCount")).longValue()).orElse(null);
        int poolSize = scheduler.map(s -> ((Number) s.get("PoolSize")).intValue()).orElse(pool.size());

        Integer waiting = null;
        Integer pinned = null;
        Integer running = null;
        Optional<ThreadDump> dump = dump();
        if (dump.isPresent()) {
            ThreadDump d = dump.get();
            observation.waits.observe(d);
            int w = 0;
            int p = 0;
            int r = 0;
            for (ThreadDump.Thread thread : d.threads()) {
                if (thread.waitingForCarrier(d.recordsState())) {
                    w++;
                    if (thread.name().contains("Poller")) {
                        observation.pollersWaiting++;
                    }
                }
                boolean isMounted = thread.virtual() && (d.recordsState() ? thread.carrier() != null : carried.contains(thread.id()));
                if (!isMounted || thread.stack().isEmpty()) {
                    continue;
                }
                if (Stacks.blockedOnCarrier(thread.stack())) {
                    p++;
                    observation.pinnedInDumps.add(thread.stack(), null, null, thread.monitorOwners());
                } else {
                    r++;
                    observation.runningInDumps.add(thread.stack(), null, null, List.of());
                }
            }
            waiting = w;
            pinned = p;
            running = r;
        }
        observation.samples.add(new Sample(at, poolSize, carried.size(), cpu, mounted, queued, waiting, pinned, running,
                dump.isPresent() ? observation.waits.longest().atLeast() : null, heldIdle(pool, at)));
    }

    /** Carriers that kept the same virtual thread since the last sample and used under a tenth of the time on CPU. */
    private int heldIdle(List<Carriers.PlatformThread> pool, Instant at) {
        int held = 0;
        if (lastAt != null) {
            double wallMillis = Duration.between(lastAt, at).toNanos() / 1e6;
            for (Carriers.PlatformThread carrier : pool) {
                Carriers.PlatformThread before = lastCarriers.get(carrier.id());
                if (carrier.carrying() != null && before != null && carrier.carrying().equals(before.carrying())
                        && carrier.cpuMillis() - before.cpuMillis() < 0.1 * wallMillis) {
                    held++;
                }
            }
        }
        lastCarriers = pool.stream().collect(Collectors.toMap(Carriers.PlatformThread::id, c -> c, (a, b) -> a));
        lastAt = at;
        return held;
    }

    private Optional<ThreadDump> dump() {
        if (observation.noThreadDumps != null) {
            return Optional.empty();
        }
        try {
            Optional<String> json = target.threadDumpJson();
            if (json.isEmpty()) {
                observation.noThreadDumps = "the JVM wrote its thread dump where this machine cannot read it";
                return Optional.empty();
            }
            Set<Long> platform = new HashSet<>();
            Arrays.stream(target.platformThreadIds()).forEach(platform::add);
            ThreadDump dump = ThreadDump.parse(json.get(), platform);
            observation.dumps++;
            observation.dumpsRecordState |= dump.recordsState();
            return Optional.of(dump);
        } catch (IOException | RuntimeException e) {
            observation.noThreadDumps = "the JVM could not write or this tool could not read a thread dump: " + e.getMessage();
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
