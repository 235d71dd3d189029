package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one rule of the diagnosis. <b>Starved</b> when virtual threads waited for a carrier at least the
 * threshold: the longest wait the thread dumps show (a lower bound), or, without dumps, the mean wait
 * the scheduler's queue and the start rate give by Little's law (JDK 24+). Where the wait cannot be
 * inferred (JDK 21 seen from another machine) or misses threads (JDK 21's dumps show no state, so a
 * thread waiting to continue is not seen), starved also means every carrier taken in most samples.
 * <p>
 * The cause: <b>pinned</b> when mounted threads block on their carriers (thread dumps, JFR's pinned
 * episodes covering most of the carriers' time, or carriers keeping one thread without using CPU);
 * <b>poller</b> when those pins wait on sockets and the I/O pollers are virtual threads (JDK 22+);
 * <b>CPU-bound</b> when the mounted threads run (thread dumps, or busy carriers without pins).
 *
 * @param inferredWait the wait for a carrier the rule judged, or null when none could be inferred
 * @param waitBasis    how that wait was inferred
 * @param frame        the frame named for the cause, or null
 * @param details      what else the stacks say of the cause: the monitor's owner, the native call, the socket
 */
record Verdict(boolean starved, Cause cause, String frame, Duration inferredWait, String waitBasis, double saturatedShare, double pinnedShare,
        double runningShare, List<String> details) {

    enum Cause {
        PINNED("pinned"), POLLER("poller"), CPU_BOUND("CPU-bound"), UNNAMED("cause not named"), NONE("none");

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

    static Verdict judge(Observation seen, FrameGroups pinnedEvents, FrameGroups virtualSamples, List<Instant> starts, int parallelism,
            TargetJvm.Facts facts, Duration threshold) {
        List<Sample> samples = seen.samples;
        double window = Math.max(1e-3, seen.length().toNanos() / 1e9);
        double saturated = samples.isEmpty() ? 0 : samples.stream().filter(s -> taken(s) >= parallelism).count() / (double) samples.size();

        Duration wait = null;
        String basis;
        // JDK 21's dumps show only threads never run as waiting: a thread unparked and waiting to continue is missed
        boolean waitMissesThreads = false;
        if (seen.hasThreadDumps()) {
            CarrierWaits.Longest longest = seen.waits.longest();
            wait = longest.atLeast();
            waitMissesThreads = !seen.dumpsRecordState;
            basis = waitMissesThreads ? "seen waiting in successive thread dumps (a lower bound; these dumps show only threads never run yet)"
                    : "seen waiting in successive thread dumps (a lower bound)";
        } else if (samples.stream().allMatch(s -> s.queued() != null) && !samples.isEmpty()) {
            double queued = samples.stream().mapToLong(Sample::queued).average().orElse(0);
            long started = starts.stream().filter(t -> !t.isBefore(seen.start) && !t.isAfter(seen.start.plus(seen.length()))).count();
            double rate = started / window;
            wait = queued < 1 ? Duration.ZERO : rate > 0 ? Duration.ofNanos((long) (queued / rate * 1e9)) : seen.length();
            basis = rate > 0 || queued < 1
                    ? String.format("about, by Little's law: %.1f queued on average, %.1f virtual threads started a second", queued, rate)
                    : String.format("at least: %.1f queued on average and no virtual thread started in the window", queued);
        } else {
            basis = "no wait can be inferred: no thread dump and no scheduler MXBean here";
        }
        boolean starved = wait != null && wait.compareTo(threshold) >= 0 || (wait == null || waitMissesThreads) && saturated >= SATURATED;

        double pinnedByEvents = Math.min(1, pinnedEvents.total().toNanos() / 1e9 / (window * parallelism));
        // a pin longer than the window ends after it, and JFR records it only then: carriers held idle show it meanwhile
        double heldIdle = samples.size() < 2 ? 0 : samples.stream().skip(1).mapToInt(Sample::heldIdle).sum() / (double) ((samples.size() - 1) * parallelism);
        long sightings = seen.pinnedInDumps.count() + seen.runningInDumps.count();
        double pinnedByDumps = sightings == 0 ? 0 : seen.pinnedInDumps.count() / (double) sightings;
        double pinned = Math.min(1, Math.max(Math.max(pinnedByEvents, pinnedByDumps), heldIdle));
        double running;
        if (sightings > 0) {
            running = seen.runningInDumps.count() / (double) sightings;
        } else {
            double taken = samples.stream().mapToInt(Verdict::taken).average().orElse(0) / Math.max(1, parallelism);
            running = carrierCpuPerCarrier(samples, parallelism) >= BUSY_CPU || !virtualSamples.isEmpty() ? Math.max(0, taken - pinned) : 0;
        }

        Cause cause;
        FrameGroups.Group group = null;
        List<String> details = new ArrayList<>();
        if (!starved) {
            cause = Cause.NONE;
        } else if (pinned >= DOMINANT || pinned > running) {
            group = top(pinnedEvents).or(() -> top(seen.pinnedInDumps)).orElse(null);
            boolean socket = (group != null && group.socketIo != null) || top(seen.pinnedInDumps).map(g -> g.socketIo != null).orElse(false);
            cause = socket && facts.virtualPollers() ? Cause.POLLER : Cause.PINNED;
            describePin(group, seen, details);
            if (cause == Cause.POLLER) {
                details.add("the pinned threads wait on sockets, and the I/O pollers that would wake them are virtual threads (JDK 22+ on Linux)"
                        + " that need a carrier too; -Djdk.pollerMode=1 gives platform pollers"
                        + (seen.pollersWaiting > 0 ? "; poller threads were seen waiting for a carrier " + seen.pollersWaiting + " times" : ""));
            }
        } else if (running > 0) {
            cause = Cause.CPU_BOUND;
            group = top(seen.runningInDumps).or(() -> top(virtualSamples)).orElse(null);
            double cpu = carrierCpuPerCarrier(samples, parallelism);
            details.add((Double.isNaN(cpu) ? "" : String.format("the carriers used %.2f CPU each; ", cpu))
                    + "a virtual thread that computes keeps its carrier until it blocks");
        } else {
            cause = Cause.UNNAMED;
            details.add("the carriers were taken, but neither pinned episodes nor running code were seen");
        }
        String frame = group == null || group.frame.equals(FrameGroups.NO_APPLICATION_FRAME) ? null : group.frame;
        return new Verdict(starved, cause, frame, wait, basis, saturated, pinned, running, List.copyOf(details));
    }

    private static void describePin(FrameGroups.Group group, Observation seen, List<String> details) {
        Optional<FrameGroups.Group> inDumps = top(seen.pinnedInDumps);
        Optional<String> owner = inDumps.flatMap(g -> g.mostCommon(g.monitorOwners));
        owner.ifPresent(o -> details.add("holds a monitor: " + o + " (from the thread dumps' owned monitors)"));
        if (group != null && group.nativeCaller != null) {
            details.add("a native frame is on the stack, below the call from " + group.nativeCaller.qualifiedMethod());
        }
        if (group != null) {
            group.mostCommon(group.reasons).ifPresent(reason -> details.add("the JVM's reason: " + reason));
        }
        FrameGroups.Group socketGroup = group != null && group.socketIo != null ? group : inDumps.filter(g -> g.socketIo != null).orElse(null);
        if (socketGroup != null) {
            details.add("waits on a socket: " + socketGroup.socketIo.qualifiedMethod());
        }
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
