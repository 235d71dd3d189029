package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The one rule of the diagnosis, judged from an {@link Observation} alone. <b>Starved</b> when virtual threads waited for a carrier
 * at least the threshold: the longest wait the thread dumps prove (a lower bound; the starvation meter's canary probes left out, as
 * they queue on their own), or, where there are no dumps or they are further apart than the threshold, the mean wait the
 * scheduler's queue and the start rate give by Little's law (JDK 24+ with JFR) while every carrier was taken with threads queued,
 * whichever is longer. Where no wait can be measured (JDK 21 seen from another machine, or a single dump) or the dumps miss threads
 * (JDK 21's show no state, so a thread waiting to continue is not seen), starved also means every carrier taken most of the time,
 * and the basis says so. Each sample weighs the time until the next: they come faster while every carrier is taken ({@link Sampler}).
 * <p>
 * <b>Stuck</b>, not starved, when every carrier was held without CPU by the same virtual threads for at least {@link #STUCK}, most
 * of them waiting for another thread (a lock, a synchronizer, a monitor) while they keep their carriers: if that thread is a
 * virtual thread it needs a carrier to go on, and none comes free ({@link Cause#DEADLOCK}).
 * <p>
 * The cause: what held the carriers in most stacks of mounted virtual threads ({@link Stacks#hold}: in
 * {@code Thread.print} from JDK 25, in thread dumps on every JDK); without stacks, JFR's pinned episodes
 * (most pinned time), carriers kept by one thread without CPU (pinned), or busy carriers (CPU-bound).
 * <b>poller</b> when the stacks that hold carriers wait on sockets and the I/O pollers are virtual threads (JDK 22+).
 *
 * @param inferredWait the wait for a carrier the rule judged, or null when none could be measured
 * @param waitBasis    how that wait was known, and what judged the verdict where it was not
 * @param frame        the frame named for the cause, or null
 * @param details      what else the stacks say of the cause, and what the JDK records of it
 */
record Verdict(boolean starved, boolean stuck, Cause cause, String frame, Duration inferredWait, String waitBasis, double saturatedShare,
        double pinnedShare, double runningShare, List<String> details) {

    /** Share of the time every carrier was taken, past which a JVM whose wait is not measured counts as starved. */
    static final double SATURATED = 0.8;
    /** Share of the carriers' mounted time that decides a cause. */
    static final double DOMINANT = 0.5;
    /** How long every carrier must be held still by threads waiting for another thread to be stuck. */
    static final Duration STUCK = Duration.ofSeconds(2);

    /** The wait judged (null when none was measured), how it was known, and whether the dumps it came from miss threads. */
    /** A wait judged: null where not measured; {@code lowerBound} where it can show a wait as long as the threshold, not a shorter one. */
    private record Judged(Duration duration, String basis, boolean missesThreads, boolean lowerBound) {

        Judged(Duration duration, String basis, boolean missesThreads) {
            this(duration, basis, missesThreads, false);
        }
    }

    /** What held the carriers: the cause, the groups that name its frame, and the shares of blocked and running. */
    private record Held(Cause cause, FrameGroups groups, double pinned, double running) {
    }

    static Verdict judge(Observation seen, Duration threshold) {
        double saturated = seen.samples().isEmpty() ? 0 : Sample.mean(seen.samples(), seen.end(), s -> true, s -> s.taken() >= seen.parallelism() ? 1 : 0);
        Held held = held(seen);
        Optional<Verdict> stuck = stuck(seen, saturated, held);
        if (stuck.isPresent()) {
            return stuck.get();
        }
        Judged judged = judgedWait(seen);
        boolean overThreshold = judged.duration() != null && judged.duration().compareTo(threshold) >= 0;
        boolean bySaturation = !overThreshold && (judged.duration() == null || judged.missesThreads() || judged.lowerBound());
        boolean starved = overThreshold || bySaturation && saturated >= SATURATED;
        String basis = judged.basis() + (!bySaturation ? ""
                : String.format(Locale.ROOT, "; so judged by every carrier taken %.0f %% of the time (starved from %.0f %%)", 100 * saturated, 100 * SATURATED));
        if (!starved) {
            return new Verdict(false, false, Cause.NONE, null, judged.duration(), basis, saturated, held.pinned(), held.running(), List.of());
        }
        Cause cause = held.cause();
        Optional<FrameGroups.Group> group = held.groups().top();
        List<String> details = new ArrayList<>();
        group.flatMap(g -> g.mostCommon(g.notes)).ifPresent(details::add);
        group.flatMap(g -> g.mostCommon(g.monitorOwners)).ifPresent(o -> details.add("holds a monitor: " + o + " (from the dumps' owned monitors)"));
        seen.recorded().pinned().of(cause).top().flatMap(g -> g.mostCommon(g.reasons)).ifPresent(reason -> details.add("the JVM's reason: " + reason));
        Optional<Frame> socket = group.map(g -> g.socketIo);
        socket.ifPresent(s -> details.add("waits on a socket: " + s.qualifiedMethod()));
        if (socket.isPresent() && seen.facts().virtualPollers() && cause != Cause.CPU_BOUND) {
            cause = Cause.POLLER;
        }
        details.add(explain(cause, seen.facts(), carrierCpuPerCarrier(seen.samples(), seen.parallelism()), seen.waits().pollerSightings()));
        return new Verdict(true, false, cause, frame(group), judged.duration(), basis, saturated, held.pinned(), held.running(), List.copyOf(details));
    }

    private static String frame(Optional<FrameGroups.Group> group) {
        return group.map(g -> g.frame).filter(f -> !f.equals(Stacks.NO_APPLICATION_FRAME)).orElse(null);
    }

    /** The longer of the longest wait the dumps prove and the work's mean by Little's law, as the class says; null where neither is measured. */
    private static Judged judgedWait(Observation seen) {
        CarrierWaits.Seen waits = seen.waits();
        Judged longest = null;
        if (seen.hasThreadDumps()) {
            boolean missesThreads = !seen.sampling().dumpsRecordState();
            String these = missesThreads ? " (these dumps show only threads never run yet)" : "";
            if (!waits.timed()) {
                longest = new Judged(null, "not measured: one thread dump" + these + ", and a wait takes two to time", missesThreads);
            } else if (!waits.work().isEmpty()) {
                longest = new Judged(waits.longestAtLeast(), "the longest seen in the thread dumps" + these, missesThreads);
            } else if (!waits.canary().isEmpty()) {
                Duration canary = waits.canary().stream().map(CarrierWaits.Wait::atLeast).max(Duration::compareTo).orElseThrow();
                longest = new Judged(canary, "the meter's canary probe's, the only thread seen waiting in the thread dumps" + these, missesThreads);
            } else {
                longest = new Judged(Duration.ZERO, "no virtual thread seen waiting in " + waits.dumps() + " thread dumps" + these, missesThreads);
            }
        }
        Judged mean = seen.meanWait().map(m -> new Judged(m.mean(), m.perSecond() > 0 && m.mean() != null ? "the work's mean, by Little's law"
                : m.describe(), m.missesThreads(), m.lowerBound())).orElse(null);
        if (mean == null || mean.duration() == null && longest != null) {
            return longest != null ? longest : new Judged(null, "not measured: no thread dump taken and no scheduler MXBean here", false);
        }
        return longest == null || longest.duration() == null || mean.duration() != null && mean.duration().compareTo(longest.duration()) > 0 ? mean : longest;
    }

    /** What held the carriers: the mounted threads' stacks where seen, else JFR's episodes and the carriers' CPU. */
    private static Held held(Observation seen) {
        Holds mounted = seen.mounted();
        long sightings = mounted.count();
        if (sightings > 0) {
            double running = mounted.of(Cause.CPU_BOUND).count() / (double) sightings;
            Cause cause = mounted.dominant(null).orElseThrow();
            return new Held(cause, mounted.of(cause), 1 - running, running);
        }
        Holds episodes = seen.recorded().pinned();
        List<Sample> samples = seen.samples();
        int parallelism = seen.parallelism();
        double window = Math.max(1e-3, seen.length().toNanos() / 1e9);
        double pinnedByEvents = Math.min(1, episodes.total().toNanos() / 1e9 / (window * parallelism));
        // a pin longer than the window ends after it, and JFR records it only then: carriers held idle show it meanwhile
        double pinned = Math.min(1, Math.max(pinnedByEvents, heldIdle(samples, parallelism)));
        double taken = samples.isEmpty() ? 0 : Sample.mean(samples, seen.end(), s -> true, Sample::taken) / Math.max(1, parallelism);
        FrameGroups running = seen.recorded().running();
        double runningShare = carrierCpuPerCarrier(samples, parallelism) >= Sampler.BUSY_CPU || !running.isEmpty() ? Math.max(0, taken - pinned) : 0;
        if (pinned >= DOMINANT || pinned > runningShare) {
            Cause cause = episodes.dominant(Cause.CPU_BOUND).orElse(Cause.PINNED);
            return new Held(cause, episodes.of(cause), pinned, runningShare);
        }
        return new Held(runningShare > 0 ? Cause.CPU_BOUND : Cause.UNNAMED, running, pinned, runningShare);
    }

    /** Stuck, as the class says, or empty. */
    private static Optional<Verdict> stuck(Observation seen, double saturated, Held held) {
        Duration still = heldStill(seen.samples(), seen.parallelism());
        if (still.compareTo(STUCK) < 0 || seen.mounted().count() == 0 || seen.mounted().waitingShare() < DOMINANT) {
            return Optional.empty();
        }
        Cause pin = null;
        FrameGroups.Group waiting = null;
        for (Cause cause : seen.mounted().causes()) {
            for (FrameGroups.Group group : seen.mounted().of(cause).ranked()) {
                if (waiting == null || waitsFor(group) > waitsFor(waiting)) {
                    pin = cause;
                    waiting = group;
                }
            }
        }
        FrameGroups.Group group = waiting;
        List<String> details = new ArrayList<>();
        group.mostCommon(group.waitsFor).ifPresent(w -> details.add("waits in: " + w + group.mostCommon(group.locks).map(l -> ", on " + l).orElse("")));
        details.add(group.mostCommon(group.lockOwners).map(o -> "held by: " + o + " (from the thread dumps)")
                .orElse("held by: a thread the thread dumps do not name (JDK 25+ name a monitor's owner, not a lock's)"));
        details.add(explain(Cause.DEADLOCK, seen.facts(), Double.NaN, 0));
        details.add(explain(pin, seen.facts(), Double.NaN, 0));
        String basis = String.format(Locale.ROOT, "every carrier held by the same virtual threads, without CPU, for %s (stuck from %s), %.0f %% of their"
                + " stacks waiting for another thread: no carrier came free for any other", millis(still), millis(STUCK), 100 * seen.mounted().waitingShare());
        return Optional.of(new Verdict(false, true, Cause.DEADLOCK, frame(Optional.of(group)), null, basis, saturated, held.pinned(), held.running(),
                List.copyOf(details)));
    }

    private static int waitsFor(FrameGroups.Group group) {
        return group.waitsFor.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * The longest stretch in which every carrier kept the virtual thread it carried, using almost no CPU, from one
     * {@code Thread.print} to the next ({@link Sample#heldIdle()}).
     */
    static Duration heldStill(List<Sample> samples, int parallelism) {
        Duration longest = Duration.ZERO;
        Instant from = null;
        Sample last = null;
        for (Sample sample : samples.stream().filter(s -> s.heldIdle() != null).toList()) {
            if (last != null && sample.heldIdle() >= parallelism) {
                from = from == null ? last.at() : from;
                Duration stretch = Duration.between(from, sample.at());
                longest = stretch.compareTo(longest) > 0 ? stretch : longest;
            } else {
                from = null;
            }
            last = sample;
        }
        return longest;
    }

    /** A duration as the diagnosis writes it: {@code 340 ms}, {@code 2.74 s}, {@code 12.3 s}. */
    static String millis(Duration duration) {
        long ms = duration.toMillis();
        return ms >= 10_000 ? String.format(Locale.ROOT, "%.1f s", ms / 1000.0)
                : ms >= 1000 ? String.format(Locale.ROOT, "%.2f s", ms / 1000.0) : ms + " ms";
    }

    /** Why the cause holds a carrier on this JVM, and what the JDK records of it. */
    private static String explain(Cause cause, TargetJvm.Facts facts, double cpu, int pollersWaiting) {
        String perCarrier = Double.isNaN(cpu) ? "" : String.format("the carriers used %.2f CPU each; ", cpu);
        return switch (cause) {
            case SYNCHRONIZED -> facts.feature() < 24 ? "a virtual thread blocking inside synchronized keeps its carrier on JDK 21-23 (JEP 491, JDK 24, ends it)"
                    : facts.feature() < 26 && Integer.valueOf(1).equals(facts.lockingMode())
                            ? "-XX:LockingMode=1 (legacy locking) keeps a virtual thread blocking inside synchronized on its carrier on JDK 24-25"
                            : "parked on its carrier with no native frame below: a monitor held while blocking";
            case UPCALL -> "blocking under a native frame (an FFM upcall, a JNI callback) keeps the carrier on every JDK; JFR records it (jdk.VirtualThreadPinned)";
            case NATIVE_CALL -> perCarrier + "a virtual thread blocked inside a native call (an FFM downcall, a JNI method) keeps its carrier,"
                    + " and the JDK records no event for it (no jdk.VirtualThreadPinned, no execution sample)";
            case CLASS_INIT -> "the JVM runs a class initializer below a frame of its own: a virtual thread blocking in it keeps its carrier on every JDK";
            case CLASS_INIT_WAIT -> "waiting for another thread's class initialization keeps the carrier on JDK 21-25 (26 unmounts the wait in interpreted code only)";
            case CLASS_LOADING -> "the JVM called the class loader below a frame of its own: blocking there keeps the carrier, and the loader's lock"
                    + " stays held, so every thread loading a class through it waits too";
            case PINNED -> "pinned episodes or carriers kept without CPU, with no stack that says why";
            case POLLER -> "the pinned threads wait on sockets, and the I/O pollers that would wake them are virtual threads (JDK 22+ on Linux)"
                    + " that need a carrier too; -Djdk.pollerMode=1 gives platform pollers"
                    + (pollersWaiting > 0 ? "; poller threads were seen waiting for a carrier " + pollersWaiting + " times" : "");
            case CPU_BOUND -> perCarrier + "a virtual thread that computes keeps its carrier until it blocks, and the JDK records no event for it"
                    + " (execution samples only)";
            case DEADLOCK -> "a virtual thread that waits for another thread while it keeps its carrier: if that one is a virtual thread, it needs a"
                    + " carrier to go on and none comes free, a deadlock that only a timeout ends";
            case UNNAMED -> "the carriers were taken, but neither pinned episodes nor running code were seen";
            case NONE -> "";
        };
    }

    /** The share of the carriers' time between {@code Thread.print}s that they were held idle by the thread they carried. */
    private static double heldIdle(List<Sample> samples, int parallelism) {
        double held = 0;
        double time = 0;
        Sample last = null;
        for (Sample sample : samples.stream().filter(s -> s.heldIdle() != null).toList()) {
            if (last != null) {
                double gap = Duration.between(last.at(), sample.at()).toNanos() / 1e9;
                held += gap * sample.heldIdle();
                time += gap;
            }
            last = sample;
        }
        return time == 0 ? 0 : held / (time * Math.max(1, parallelism));
    }

    /** The carriers' CPU time over the window, per carrier and second of wall time; NaN when Thread.print shows none. */
    static double carrierCpuPerCarrier(List<Sample> samples, int parallelism) {
        List<Sample> known = samples.stream().filter(s -> Double.isFinite(s.carrierCpuMillis())).toList();
        if (known.size() < 2) {
            return Double.NaN;
        }
        Sample first = known.get(0);
        Sample last = known.get(known.size() - 1);
        double wall = Duration.between(first.at(), last.at()).toNanos() / 1e6;
        return wall <= 0 ? Double.NaN : (last.carrierCpuMillis() - first.carrierCpuMillis()) / wall / Math.max(1, parallelism);
    }
}
