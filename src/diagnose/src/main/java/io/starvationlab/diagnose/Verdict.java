package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one rule of the diagnosis. <b>Starved</b> when virtual threads waited for a carrier at least the
 * threshold: the longest wait the thread dumps show (a lower bound), or, where there are none or they are
 * further apart than the threshold, the mean wait the scheduler's queue and the start rate give by Little's
 * law (JDK 24+ with JFR), whichever is longer. Where no wait can be inferred (JDK 21 seen from another machine)
 * or the dumps miss threads (JDK 21's show no state, so a thread waiting to continue is not seen), starved
 * also means every carrier taken in most samples.
 * <p>
 * The cause: what held the carriers in most stacks of mounted virtual threads ({@link Stacks#hold}: in
 * {@code Thread.print} from JDK 25, in thread dumps on every JDK); without stacks, JFR's pinned episodes
 * (most pinned time), carriers kept by one thread without CPU (pinned), or busy carriers (CPU-bound).
 * <b>poller</b> when the stacks that hold carriers wait on sockets and the I/O pollers are virtual threads (JDK 22+).
 *
 * @param inferredWait the wait for a carrier the rule judged, or null when none could be inferred
 * @param waitBasis    how that wait was inferred
 * @param frame        the frame named for the cause, or null
 * @param details      what else the stacks say of the cause, and what the JDK records of it
 */
record Verdict(boolean starved, Cause cause, String frame, Duration inferredWait, String waitBasis, double saturatedShare, double pinnedShare,
        double runningShare, List<String> details) {

    /** What holds the carriers. */
    enum Cause {
        SYNCHRONIZED("pinned in synchronized"),
        UPCALL("pinned under a native frame"),
        NATIVE_CALL("blocked in a native call"),
        CLASS_INIT("blocked in a class initializer"),
        CLASS_INIT_WAIT("waiting for another thread's class initialization"),
        CLASS_LOADING("blocked loading a class"),
        PINNED("pinned"),
        POLLER("poller"),
        CPU_BOUND("CPU-bound"),
        UNNAMED("cause not named"),
        NONE("none");

        final String words;

        Cause(String words) {
            this.words = words;
        }
    }

    /** Share of samples in which every carrier was taken, past which a JDK 21 seen from afar counts as starved. */
    static final double SATURATED = 0.8;
    /** Share of the carriers' mounted time that decides a cause. */
    static final double DOMINANT = 0.5;
    /** Carriers' CPU per carrier past which taken carriers count as running, not blocked. */
    static final double BUSY_CPU = 0.1;

    /** {@code starts} is null where JFR recorded none (no recording). */
    static Verdict judge(Observation seen, Holds pinnedEvents, FrameGroups virtualSamples, List<Instant> starts, int parallelism,
            TargetJvm.Facts facts, Duration threshold) {
        List<Sample> samples = seen.samples;
        double window = Math.max(1e-3, seen.length().toNanos() / 1e9);
        double saturated = samples.isEmpty() ? 0 : samples.stream().filter(s -> taken(s) >= parallelism).count() / (double) samples.size();

        Duration wait = null;
        String basis = "no wait can be inferred: no thread dump and no scheduler MXBean here";
        // JDK 21's dumps show only threads never run as waiting: a thread unparked and waiting to continue is missed
        boolean waitMissesThreads = false;
        if (seen.hasThreadDumps()) {
            wait = seen.waits.longest().atLeast();
            waitMissesThreads = !seen.dumpsRecordState;
            basis = waitMissesThreads ? "seen waiting in successive thread dumps (a lower bound; these dumps show only threads never run yet)"
                    : "seen waiting in successive thread dumps (a lower bound)";
        }
        boolean dumpsSeeTheThreshold = seen.hasThreadDumps() && seen.dumps > 1 && window / (seen.dumps - 1) <= threshold.toNanos() / 1e9;
        if (!dumpsSeeTheThreshold && starts != null && !samples.isEmpty() && samples.stream().allMatch(s -> s.queued() != null)) {
            double queued = samples.stream().mapToLong(Sample::queued).average().orElse(0);
            long started = starts.stream().filter(t -> !t.isBefore(seen.start) && !t.isAfter(seen.start.plus(seen.length()))).count();
            double rate = started / window;
            Duration little = queued < 1 ? Duration.ZERO : rate > 0 ? Duration.ofNanos((long) (queued / rate * 1e9)) : seen.length();
            if (wait == null || little.compareTo(wait) > 0) {
                wait = little;
                waitMissesThreads = false;
                basis = rate > 0 || queued < 1
                        ? String.format("about, by Little's law: %.1f queued on average, %.1f virtual threads started a second", queued, rate)
                        : String.format("at least: %.1f queued on average and no virtual thread started in the window", queued);
            }
        }
        boolean starved = wait != null && wait.compareTo(threshold) >= 0 || (wait == null || waitMissesThreads) && saturated >= SATURATED;

        long sightings = seen.mounted.count();
        double pinned;
        double running;
        Cause cause;
        FrameGroups groups;
        if (sightings > 0) {
            running = seen.mounted.of(Cause.CPU_BOUND).count() / (double) sightings;
            pinned = 1 - running;
            cause = seen.mounted.dominant(null).orElseThrow();
            groups = seen.mounted.of(cause);
        } else {
            double pinnedByEvents = Math.min(1, pinnedEvents.total().toNanos() / 1e9 / (window * parallelism));
            // a pin longer than the window ends after it, and JFR records it only then: carriers held idle show it meanwhile
            double heldIdle = samples.size() < 2 ? 0
                    : samples.stream().skip(1).mapToInt(Sample::heldIdle).sum() / (double) ((samples.size() - 1) * parallelism);
            pinned = Math.min(1, Math.max(pinnedByEvents, heldIdle));
            double taken = samples.stream().mapToInt(Verdict::taken).average().orElse(0) / Math.max(1, parallelism);
            running = carrierCpuPerCarrier(samples, parallelism) >= BUSY_CPU || !virtualSamples.isEmpty() ? Math.max(0, taken - pinned) : 0;
            if (pinned >= DOMINANT || pinned > running) {
                cause = pinnedEvents.dominant(Cause.CPU_BOUND).orElse(Cause.PINNED);
                groups = pinnedEvents.of(cause);
            } else {
                cause = running > 0 ? Cause.CPU_BOUND : Cause.UNNAMED;
                groups = virtualSamples;
            }
        }
        if (!starved) {
            return new Verdict(false, Cause.NONE, null, wait, basis, saturated, pinned, running, List.of());
        }
        Optional<FrameGroups.Group> group = top(groups);
        List<String> details = new ArrayList<>();
        group.flatMap(g -> g.mostCommon(g.notes)).ifPresent(details::add);
        group.flatMap(g -> g.mostCommon(g.monitorOwners)).ifPresent(o -> details.add("holds a monitor: " + o + " (from the dumps' owned monitors)"));
        top(pinnedEvents.of(cause)).flatMap(g -> g.mostCommon(g.reasons)).ifPresent(reason -> details.add("the JVM's reason: " + reason));
        Optional<Frame> socket = group.map(g -> g.socketIo);
        socket.ifPresent(s -> details.add("waits on a socket: " + s.qualifiedMethod()));
        if (socket.isPresent() && facts.virtualPollers() && cause != Cause.CPU_BOUND) {
            cause = Cause.POLLER;
        }
        details.add(explain(cause, facts, carrierCpuPerCarrier(samples, parallelism), seen.pollersWaiting));
        String frame = group.map(g -> g.frame).filter(f -> !f.equals(FrameGroups.NO_APPLICATION_FRAME)).orElse(null);
        return new Verdict(true, cause, frame, wait, basis, saturated, pinned, running, List.copyOf(details));
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
            case UNNAMED -> "the carriers were taken, but neither pinned episodes nor running code were seen";
            case NONE -> "";
        };
    }

    private static Optional<FrameGroups.Group> top(FrameGroups groups) {
        return groups.ranked().stream().findFirst();
    }

    /** Carriers taken: mounted by the scheduler's count where there is one, else carrying in {@code Thread.print}. */
    static int taken(Sample sample) {
        return sample.mounted() != null ? Math.max(sample.mounted(), sample.carrying()) : sample.carrying();
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
