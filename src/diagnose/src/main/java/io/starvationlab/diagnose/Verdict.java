package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The one rule of the diagnosis. <b>Starved</b> when virtual threads waited for a carrier at least the
 * threshold: the longest wait the thread dumps show (a lower bound), or, where there are none or they are
 * further apart than the threshold, the mean wait the scheduler's queue and the start rate give by Little's
 * law (JDK 24+ with JFR) while every carrier was taken with threads queued, whichever is longer. Where no
 * wait can be inferred (JDK 21 seen from another machine) or the dumps miss threads (JDK 21's show no state,
 * so a thread waiting to continue is not seen), starved also means every carrier taken most of the time.
 * Each sample weighs the time until the next: they come faster while every carrier is taken ({@link Sampler}).
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

    /** Share of the time every carrier was taken, past which a JDK 21 seen from afar counts as starved. */
    static final double SATURATED = 0.8;
    /** Share of the carriers' mounted time that decides a cause. */
    static final double DOMINANT = 0.5;
    /** Carriers' CPU per carrier past which taken carriers count as running, not blocked. */
    static final double BUSY_CPU = 0.1;

    /** {@code starts} is null where JFR recorded none (no recording). */
    static Verdict judge(Observation seen, Holds pinnedEvents, FrameGroups virtualSamples, FlightRecording.Starts starts, int parallelism,
            TargetJvm.Facts facts, Duration threshold) {
        List<Sample> samples = seen.samples;
        Instant end = seen.start.plus(seen.length());
        double window = Math.max(1e-3, seen.length().toNanos() / 1e9);
        double saturated = samples.isEmpty() ? 0 : mean(samples, end, s -> true, s -> taken(s) >= parallelism ? 1 : 0);

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
            Duration little = Duration.ZERO;
            String littleBasis = "none, by the scheduler MXBean: never every carrier taken with virtual threads queued";
            if (!starts.spans().isEmpty()) {
                double queued = mean(samples, end, s -> starts.covers(s.at()), Sample::queued);
                double rate = starts.perSecond();
                little = !(queued >= 1) ? Duration.ZERO : rate > 0 ? Duration.ofNanos((long) (queued / rate * 1e9)) : Duration.ofNanos((long) (starts.seconds() * 1e9));
                littleBasis = rate > 0 || !(queued >= 1)
                        ? String.format("about, by Little's law: %.1f queued on average, %.1f virtual threads started a second, over %.1f s of"
                                + " starts recorded while every carrier was taken with threads queued", queued, rate, starts.seconds())
                        : String.format("at least: %.1f queued on average and no virtual thread started in %.1f s recorded while every carrier was taken",
                                queued, starts.seconds());
            }
            if (wait == null || little.compareTo(wait) > 0) {
                wait = little;
                waitMissesThreads = false;
                basis = littleBasis;
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
            pinned = Math.min(1, Math.max(pinnedByEvents, heldIdle(samples, parallelism)));
            double taken = samples.isEmpty() ? 0 : mean(samples, end, s -> true, Verdict::taken) / Math.max(1, parallelism);
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
        return sample.mounted() != null ? Math.max(sample.mounted(), sample.carrying() == null ? 0 : sample.carrying()) : sample.carrying();
    }

    /**
     * The mean of {@code value} over the samples {@code which} keeps, each weighing the time until the next sample (the last:
     * until {@code end}); NaN when it keeps none.
     */
    static double mean(List<Sample> samples, Instant end, Predicate<Sample> which, ToDoubleFunction<Sample> value) {
        double sum = 0;
        double time = 0;
        for (int i = 0; i < samples.size(); i++) {
            Sample sample = samples.get(i);
            if (which.test(sample)) {
                double weight = Math.max(1e-6, Duration.between(sample.at(), i + 1 < samples.size() ? samples.get(i + 1).at() : end).toNanos() / 1e9);
                sum += weight * value.applyAsDouble(sample);
                time += weight;
            }
        }
        return time == 0 ? Double.NaN : sum / time;
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
