package io.starvationlab.diagnose;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.starvationlab.model.JdkFacts;

/** The diagnosis as text for a person and as JSON for a program, from the verdict and what was observed; both say what this JVM let it see. */
final class Report {

    private static final int STACK_DEPTH = 8;
    private static final int MAX_STACK_DEPTH = 20;
    private static final int MAX_ROWS = 30;

    private final Options options;
    private final Observation seen;
    private final Verdict verdict;
    private final TargetJvm.Facts facts;
    private final SchedulerSettings scheduler;

    /** One thing the diagnosis could or could not see on this JVM, and why. */
    record Visibility(boolean sees, String what) {
    }

    Report(Options options, Observation seen, Verdict verdict) {
        this.options = options;
        this.seen = seen;
        this.verdict = verdict;
        this.facts = seen.facts();
        this.scheduler = seen.scheduler();
    }

    String text() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Starvation diagnosis of %s, %s: watched %.1f s, a sample every %d ms (Thread.print every %d ms"
                + " while a carrier was free)%n%n", seen.target(), facts.describe(), seen.length().toNanos() / 1e9, options.interval().toMillis(),
                Sampler.printPeriod(options.interval()).toMillis()));
        out.append(verdict.stuck() ? "STUCK" : verdict.starved() ? "STARVED" : "NOT STARVED");
        if (verdict.starved() || verdict.stuck()) {
            out.append(" - ").append(verdict.cause().words);
            if (verdict.frame() != null) {
                out.append(": ").append(verdict.frame());
            }
        }
        out.append('\n');
        if (verdict.stuck()) {
            out.append("  ").append(verdict.waitBasis()).append('\n');
        }
        waits().forEach(line -> out.append("  ").append(line).append('\n'));
        if (!verdict.stuck()) {
            out.append("  the verdict's wait: ").append(verdict.inferredWait() == null ? verdict.waitBasis()
                    : millis(verdict.inferredWait()) + " (threshold " + millis(options.threshold()) + "), " + verdict.waitBasis()).append('\n');
        }
        out.append(String.format(Locale.ROOT, "  every carrier taken %.0f %% of the time; %s %.0f %% blocked, %.0f %% running%n",
                100 * verdict.saturatedShare(), seen.mounted().count() > 0 ? "of the mounted threads' stacks," : "of the carriers' time,",
                100 * verdict.pinnedShare(), 100 * verdict.runningShare()));
        verdict.details().forEach(detail -> out.append("  ").append(detail).append('\n'));

        out.append(String.format(Locale.ROOT, "%nCarriers: parallelism %d (%s), pool %s, max pool %d (%s)%n", scheduler.parallelism(),
                scheduler.parallelismSource(), seen.samples().isEmpty() ? "?" : seen.samples().get(seen.samples().size() - 1).poolSize(),
                scheduler.maxPoolSize(), scheduler.maxPoolSizeSource()));
        out.append("  I/O pollers: ").append(facts.virtualPollers() ? "virtual threads (JDK 22+ on Linux)" : "platform threads")
                .append("; synchronized pins: ").append(synchronizedPins()).append('\n');
        timeline(out);
        pinned(out);
        running(out);
        double startsPerSecond = startsPerSecond();
        out.append(String.format(Locale.ROOT, "%nVirtual threads started: %s%n", Double.isNaN(startsPerSecond)
                ? "not recorded (JFR records them only while every carrier is taken with threads queued, where the scheduler MXBean or thread dumps count the queue)"
                : String.format(Locale.ROOT, "%.1f a second while every carrier was taken with threads queued (JFR jdk.VirtualThreadStart, in spans"
                        + " of %d s at least %d s apart)", startsPerSecond, FlightRecording.STARTS_SPAN.toSeconds(), FlightRecording.STARTS_REST.toSeconds())));
        Observation.Sampling sampling = seen.sampling();
        out.append(String.format(Locale.ROOT, "%nThe diagnosis took %d Thread.prints and %d thread dumps%s.%n", sampling.prints(), seen.dumps(),
                sampling.ownCpu() == null ? "" : " and used " + millis(sampling.ownCpu()) + " of CPU in its own JVM"));
        out.append("\nWhat this JVM lets the diagnosis see:\n");
        for (Visibility v : visibility()) {
            out.append(v.sees() ? "  yes  " : "  no   ").append(v.what()).append('\n');
        }
        out.append("\nThe frame named is the innermost one outside the JDK, common frameworks, the starvation meter and --skip (")
                .append(options.skip().isEmpty() ? "none given" : String.join(",", options.skip())).append(").\n");
        return out.toString();
    }

    /** What was measured of the wait for a carrier, a line each, saying what it measures: the work's mean, the longest, the canary's. */
    private List<String> waits() {
        List<String> lines = new ArrayList<>();
        seen.meanWait().ifPresent(mean -> lines.add("the work's mean wait for a carrier: " + (mean.mean() == null ? "" : millis(mean.mean()) + ", ") + mean.describe()
                + (mean.counted().contains("thread dump") ? "; the meter's canary left out" : "")));
        CarrierWaits.Seen waits = seen.waits();
        if (seen.hasThreadDumps()) {
            lines.add(!waits.timed() ? "the longest wait for a carrier: not timed: one thread dump, which saw " + waits.work().size()
                    + " virtual threads waiting, and a wait takes two"
                    : waits.work().isEmpty() ? "the longest wait for a carrier: no virtual thread seen waiting in " + waits.dumps() + " thread dumps"
                    : String.format(Locale.ROOT, "the longest wait for a carrier: at least %s, a virtual thread seen waiting from one thread dump to a later"
                            + " one (%d seen waiting in %d dumps%s; the meter's canary left out)", millis(waits.longestAtLeast()), waits.work().size(),
                            waits.dumps(), seen.sampling().dumpsRecordState() ? "" : ", which show only threads never run yet"));
        }
        waits.canary().stream().max(Comparator.comparing(CarrierWaits.Wait::atLeast)).ifPresent(w -> lines.add("the meter's canary probe ("
                + CarrierWaits.CANARY + ") " + (!waits.timed() ? "seen waiting" : "waited at least " + millis(w.atLeast()))
                + (w.ongoing() ? ", still waiting at the last dump" : "") + ": one probe at a time, queued on its own, not the work's wait"));
        return lines;
    }

    private double startsPerSecond() {
        return seen.recorded().starts() == null ? Double.NaN : seen.recorded().starts().perSecond();
    }

    private String synchronizedPins() {
        if (!JdkFacts.synchronizedPins(facts.feature(), facts.lockingMode())) {
            return "no (JEP 491, JDK 24+)";
        }
        return facts.feature() <= 23 ? "yes (JDK 21-23)" : "yes (-XX:LockingMode=1 on JDK 24-25)";
    }

    private void timeline(StringBuilder out) {
        List<Map<String, Object>> rows = rows();
        boolean mx = seen.samples().stream().anyMatch(s -> s.queued() != null);
        boolean dumps = seen.samples().stream().anyMatch(s -> s.waiting() != null);
        out.append("\nOver time (the most in each step; taken = carriers carrying a virtual thread")
                .append(mx ? ", mounted and queued from the scheduler MXBean" : "")
                .append(dumps ? ", waiting from thread dumps" : "")
                .append(seen.mounted().count() > 0 ? ", blocked and running from the mounted threads' stacks" : "").append("):\n");
        out.append(String.format(Locale.ROOT, "  %7s %7s %8s %7s %8s %7s %8s %13s%n", "t", "taken", "mounted", "queued", "waiting", "blocked", "running",
                "longest wait"));
        for (Map<String, Object> row : rows) {
            out.append(String.format(Locale.ROOT, "  %6.1fs %7s %8s %7s %8s %7s %8s %13s%n", (Double) row.get("t"), row.get("taken") + "/" + scheduler.parallelism(),
                    dash(row.get("mounted")), dash(row.get("queued")), dash(row.get("waiting")), dash(row.get("pinned")), dash(row.get("running")),
                    row.get("longestWaitMillis") == null ? "-" : millis(Duration.ofMillis((Long) row.get("longestWaitMillis")))));
        }
    }

    /** The samples in at most {@link #MAX_ROWS} steps of whole seconds, each the most seen in it. */
    private List<Map<String, Object>> rows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        if (seen.samples().isEmpty()) {
            return rows;
        }
        long seconds = Math.max(1, (long) Math.ceil(seen.length().toNanos() / 1e9));
        long step = Math.max(1, (seconds + MAX_ROWS - 1) / MAX_ROWS);
        Map<Long, List<Sample>> byStep = new LinkedHashMap<>();
        for (Sample s : seen.samples()) {
            byStep.computeIfAbsent(Duration.between(seen.start(), s.at()).toSeconds() / step, k -> new ArrayList<>()).add(s);
        }
        byStep.forEach((index, samples) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("t", (double) index * step);
            row.put("taken", samples.stream().mapToInt(Sample::taken).max().orElse(0));
            row.put("mounted", max(samples.stream().map(Sample::mounted).toList()));
            row.put("queued", max(samples.stream().map(Sample::queued).toList()));
            row.put("waiting", max(samples.stream().map(Sample::waiting).toList()));
            row.put("pinned", max(samples.stream().map(Sample::pinned).toList()));
            row.put("running", max(samples.stream().map(Sample::running).toList()));
            Duration longest = samples.get(samples.size() - 1).longestWait();
            row.put("longestWaitMillis", longest == null ? null : longest.toMillis());
            rows.add(row);
        });
        return rows;
    }

    private static Long max(List<? extends Number> values) {
        return values.stream().filter(v -> v != null).map(Number::longValue).max(Long::compare).orElse(null);
    }

    private void pinned(StringBuilder out) {
        Holds pinnedEvents = seen.recorded().pinned();
        out.append(String.format(Locale.ROOT, "%nPinned episodes (JFR jdk.VirtualThreadPinned, at least %d ms): %d, %s pinned in all%n",
                options.pinnedThreshold().toMillis(), pinnedEvents.count(), millis(pinnedEvents.total())));
        for (Cause cause : pinnedEvents.causes()) {
            for (FrameGroups.Group group : pinnedEvents.of(cause).ranked()) {
                out.append(String.format(Locale.ROOT, "  %d x %s, %s: median %s, max %s%s%n", group.count, cause.words, group.frame, millis(group.median()),
                        millis(group.max()), group.mostCommon(group.reasons).map(r -> ", " + r).orElse("")));
                stack(out, group);
            }
        }
    }

    /** What held the carriers, from the stacks of mounted threads; without any, what JFR's execution samples saw running. */
    private void running(StringBuilder out) {
        if (seen.mounted().count() > 0) {
            out.append("\nWhat held the carriers, in the stacks of mounted virtual threads (Thread.print from JDK 25, thread dumps; sightings):\n");
            for (Cause cause : seen.mounted().causes()) {
                for (FrameGroups.Group group : seen.mounted().of(cause).ranked().stream().limit(3).toList()) {
                    out.append(String.format(Locale.ROOT, "  %d x %s, %s%s%s%n", group.count, cause.words, group.frame,
                            group.mostCommon(group.monitorOwners).map(o -> ", monitor held by " + o).orElse(""),
                            group.mostCommon(group.waitsFor).map(w -> ", waits for " + w).orElse("")));
                    stack(out, group);
                }
            }
        } else if (!seen.recorded().running().isEmpty()) {
            out.append("\nRunning on the carriers (JFR execution samples of virtual threads):\n");
            for (FrameGroups.Group group : seen.recorded().running().ranked().stream().limit(5).toList()) {
                out.append(String.format(Locale.ROOT, "  %d x %s%n", group.count, group.frame));
                stack(out, group);
            }
        }
    }

    private static void stack(StringBuilder out, FrameGroups.Group group) {
        for (Frame frame : shown(group)) {
            out.append("      at ").append(frame.describe()).append('\n');
        }
    }

    /** The top of a group's stack down to two frames past the frame it is named by, or {@link #STACK_DEPTH} frames. */
    private static List<Frame> shown(FrameGroups.Group group) {
        List<Frame> top = Stacks.top(group.example, MAX_STACK_DEPTH);
        int named = top.stream().map(Frame::qualifiedMethod).toList().indexOf(group.frame);
        return top.subList(0, Math.min(top.size(), named < 0 ? STACK_DEPTH : Math.max(STACK_DEPTH, named + 3)));
    }

    String json() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("target", seen.target());
        root.put("jdk", Map.of("version", facts.version(), "vendor", facts.vendor(), "feature", facts.feature()));
        root.put("watchedSeconds", seen.length().toMillis() / 1000.0);
        root.put("intervalMillis", options.interval().toMillis());
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("starved", verdict.starved());
        v.put("stuck", verdict.stuck());
        v.put("cause", verdict.cause().name());
        v.put("frame", verdict.frame());
        v.put("inferredWaitMillis", verdict.inferredWait() == null ? null : verdict.inferredWait().toMillis());
        v.put("waitBasis", verdict.waitBasis());
        v.put("thresholdMillis", options.threshold().toMillis());
        v.put("saturatedShare", verdict.saturatedShare());
        v.put("pinnedShare", verdict.pinnedShare());
        v.put("runningShare", verdict.runningShare());
        v.put("details", verdict.details());
        root.put("verdict", v);
        Map<String, Object> carriers = new LinkedHashMap<>();
        carriers.put("parallelism", scheduler.parallelism());
        carriers.put("parallelismSource", scheduler.parallelismSource());
        carriers.put("maxPoolSize", scheduler.maxPoolSize());
        carriers.put("pool", seen.carrierPool());
        carriers.put("virtualPollers", facts.virtualPollers());
        root.put("carriers", carriers);
        root.put("timeline", rows());
        root.put("waits", waitsJson());
        root.put("pinnedEpisodes", groups(seen.recorded().pinned()));
        root.put("mounted", groups(seen.mounted()));
        root.put("runningSamples", groups(null, seen.recorded().running()));
        double startsPerSecond = startsPerSecond();
        root.put("virtualThreadsStartedPerSecond", Double.isNaN(startsPerSecond) ? null : startsPerSecond);
        root.put("threadDumps", seen.dumps());
        Observation.Sampling s = seen.sampling();
        Map<String, Object> sampling = new LinkedHashMap<>();
        sampling.put("meanDumpMillis", seen.dumps() == 0 ? null : s.dumpTime().toMillis() / (double) seen.dumps());
        sampling.put("dumpThreads", s.dumpThreads());
        sampling.put("threadPrints", s.prints());
        sampling.put("ownCpuMillis", s.ownCpu() == null ? null : s.ownCpu().toMillis());
        sampling.put("summary", sampling(seen));
        root.put("sampling", sampling);
        root.put("visibility", visibility().stream().map(x -> Map.of("sees", x.sees(), "what", x.what())).toList());
        root.put("skipped", new Stacks(options.skip()).skipped());
        return Json.write(root) + "\n";
    }

    /** What was measured of the wait: the work's mean and the longest seen, and the meter's canary's apart; null where nothing was. */
    private Map<String, Object> waitsJson() {
        CarrierWaits.Seen waits = seen.waits();
        Optional<Observation.MeanWait> mean = seen.meanWait();
        if (mean.isEmpty() && !seen.hasThreadDumps()) {
            return null;
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("meanMillis", mean.map(Observation.MeanWait::mean).map(Duration::toMillis).orElse(null));
        json.put("meanBasis", mean.map(Observation.MeanWait::describe).orElse(null));
        json.put("waitingOnAverage", mean.map(Observation.MeanWait::waiting).filter(Double::isFinite).orElse(null));
        json.put("startedPerSecond", mean.map(Observation.MeanWait::perSecond).filter(Double::isFinite).orElse(null));
        json.put("dumps", waits.dumps());
        json.put("threadsSeenWaiting", waits.work().size());
        json.put("longestAtLeastMillis", waits.timed() ? waits.longestAtLeast().toMillis() : null);
        json.put("canaryLongestAtLeastMillis", waits.timed() ? waits.canary().stream().map(w -> w.atLeast().toMillis()).max(Long::compare).orElse(null) : null);
        return json;
    }

    private static Long millisOrNull(Duration duration) {
        return duration == null ? null : duration.toMillis();
    }

    private static List<Map<String, Object>> groups(Holds holds) {
        List<Map<String, Object>> list = new ArrayList<>();
        holds.causes().forEach(cause -> list.addAll(groups(cause, holds.of(cause))));
        return list;
    }

    private static List<Map<String, Object>> groups(Cause cause, FrameGroups groups) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (FrameGroups.Group group : groups.ranked()) {
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("cause", cause == null ? null : cause.name());
            g.put("frame", group.frame);
            g.put("count", group.count);
            g.put("totalMillis", group.total().toMillis());
            g.put("medianMillis", group.median().toMillis());
            g.put("reason", group.mostCommon(group.reasons).orElse(null));
            g.put("monitorOwner", group.mostCommon(group.monitorOwners).orElse(null));
            g.put("note", group.mostCommon(group.notes).orElse(null));
            g.put("socket", group.socketIo == null ? null : group.socketIo.qualifiedMethod());
            g.put("stack", shown(group).stream().map(Frame::describe).toList());
            list.add(g);
        }
        return list;
    }

    /** How often the thread dumps came, what they cost, and what a wait between them may hide. */
    static String sampling(Observation seen) {
        if (!seen.hasThreadDumps()) {
            return "no thread dumps";
        }
        if (seen.dumps() == 1) {
            return String.format(Locale.ROOT, "one thread dump of %,d threads, %d ms: it times no wait, which takes two", seen.sampling().dumpThreads(),
                    seen.sampling().dumpTime().toMillis());
        }
        double each = seen.sampling().dumpTime().toMillis() / (double) seen.dumps();
        double apart = seen.length().toMillis() / (double) (seen.dumps() - 1);
        return String.format(Locale.ROOT, "%d thread dumps of up to %,d threads, %.0f ms each, one every %s (at most %.0f %% of the time): a wait"
                + " shorter than that is not seen in two dumps; the scheduler MXBean and JFR carry the wait between them where the JVM has them",
                seen.dumps(), seen.sampling().dumpThreads(), each, millis(Duration.ofMillis((long) apart)), 100 * Sampler.DUMP_SHARE);
    }

    private static String dash(Object value) {
        return value == null ? "-" : value.toString();
    }

    private static String millis(Duration duration) {
        return Verdict.millis(duration);
    }

    /** What this JVM lets the diagnosis see, from what it answered, not from its version. */
    List<Visibility> visibility() {
        Observation.Sampling sampling = seen.sampling();
        FlightRecording.Recorded recorded = seen.recorded();
        List<Visibility> list = new ArrayList<>();
        list.add(seen.carrierPool() != null
                ? new Visibility(true, "carriers and the virtual thread each carries (jcmd Thread.print, every JDK): pool " + seen.carrierPool() + "*")
                : new Visibility(false, "which threads are carriers: none carried a virtual thread while watched"));
        list.add(new Visibility(sampling.printShowsMounted(), sampling.printShowsMounted()
                ? "the stack of each mounted virtual thread in every sample (jcmd Thread.print, JDK 25+)"
                : "the stacks of mounted virtual threads in Thread.print (JDK 25+ shows them): only where a thread dump is taken"));
        list.add(scheduler.mxBean()
                ? new Visibility(true, "the scheduler's parallelism, pool, mounted and queued virtual threads (jdk.management:type=VirtualThreadScheduler, JDK 24+)")
                : new Visibility(false, "the scheduler's queue: this JVM has no VirtualThreadScheduler MXBean (JDK 24+); queued threads are not counted"));
        if (!seen.hasThreadDumps()) {
            list.add(new Visibility(false, "thread dumps: " + (sampling.noThreadDumps() == null
                    ? "none needed: the carriers were never all taken, with threads queued, for " + Sampler.PRESSURE.toSeconds()
                            + " s (a dump costs the target time in proportion to its threads)"
                    : sampling.noThreadDumps()) + "; no thread's own wait for a carrier"));
        } else if (sampling.dumpsRecordState()) {
            list.add(new Visibility(true, "thread dumps with each thread's state, carrier and owned monitors (JDK 25+): "
                    + "waits for a carrier, what mounted threads do, which frame holds a monitor: " + sampling(seen)));
        } else {
            list.add(new Visibility(true, "thread dumps that list every virtual thread: " + sampling(seen)));
            list.add(new Visibility(false, "thread states: this JVM's dumps record none (JDK 25+ do), so only threads never run yet count as waiting"
                    + " (a lower bound) and the frame holding a monitor is not named"));
        }
        if (!recorded.started()) {
            list.add(new Visibility(false, "JFR: " + (recorded.missing() != null ? recorded.missing()
                    : "not started, as every carrier was never taken with threads queued (it records only from then)")
                    + "; no pinned episodes, no samples of running code"));
        } else {
            list.add(new Visibility(true, "pinned episodes with their stacks, virtual thread starts and, without stacks of mounted threads in"
                    + " Thread.print, execution samples, from when every carrier was taken with threads queued (JFR over JMX)"));
            list.add(new Visibility(recorded.pinnedReasons(), recorded.pinnedReasons() ? "why a thread pinned and what blocked (JFR pinnedReason, blockingOperation: JDK 24+)"
                    : "why a thread pinned: this JVM's jdk.VirtualThreadPinned has no pinnedReason (JDK 24+)"));
            if (recorded.missing() != null) {
                list.add(new Visibility(false, "all of JFR's events: " + recorded.missing()));
            }
        }
        return list;
    }
}
