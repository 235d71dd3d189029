package io.starvationlab.diagnose;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.starvationlab.jdk.JdkFacts;

/** The diagnosis as text for a person and as JSON for a program; both say what this JVM let it see. */
final class Report {

    private static final int STACK_DEPTH = 8;
    private static final int MAX_STACK_DEPTH = 20;
    private static final int MAX_ROWS = 30;

    private final Options options;
    private final TargetJvm.Facts facts;
    private final String address;
    private final SchedulerSettings scheduler;
    private final Observation seen;
    private final Holds pinnedEvents;
    private final FrameGroups virtualSamples;
    private final double startsPerSecond;
    private final Verdict verdict;
    private final List<Visibility> visibility;
    private final List<String> skipped;

    /** One thing the diagnosis could or could not see on this JVM, and why. */
    record Visibility(boolean sees, String what) {
    }

    Report(Options options, TargetJvm.Facts facts, String address, SchedulerSettings scheduler, Observation seen, Holds pinnedEvents,
            FrameGroups virtualSamples, double startsPerSecond, Verdict verdict, List<Visibility> visibility, List<String> skipped) {
        this.options = options;
        this.facts = facts;
        this.address = address;
        this.scheduler = scheduler;
        this.seen = seen;
        this.pinnedEvents = pinnedEvents;
        this.virtualSamples = virtualSamples;
        this.startsPerSecond = startsPerSecond;
        this.verdict = verdict;
        this.visibility = visibility;
        this.skipped = skipped;
    }

    String text() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Starvation diagnosis of %s, %s: watched %.1f s, a sample every %d ms (Thread.print every %d ms"
                + " while a carrier was free)%n%n", address, facts.describe(), seen.length().toNanos() / 1e9, options.interval().toMillis(),
                Sampler.printPeriod(options.interval()).toMillis()));
        out.append(verdict.starved() ? "STARVED" : "NOT STARVED");
        if (verdict.starved()) {
            out.append(" - ").append(verdict.cause().words);
            if (verdict.frame() != null) {
                out.append(": ").append(verdict.frame());
            }
        }
        out.append('\n');
        out.append("  wait for a carrier: ").append(verdict.inferredWait() == null ? "not inferred" : millis(verdict.inferredWait()))
                .append(" (threshold ").append(millis(options.threshold())).append("), ").append(verdict.waitBasis()).append('\n');
        out.append(String.format(Locale.ROOT, "  every carrier taken %.0f %% of the time; %s %.0f %% blocked, %.0f %% running%n",
                100 * verdict.saturatedShare(), seen.mounted.count() > 0 ? "of the mounted threads' stacks," : "of the carriers' time,",
                100 * verdict.pinnedShare(), 100 * verdict.runningShare()));
        verdict.details().forEach(detail -> out.append("  ").append(detail).append('\n'));

        out.append(String.format(Locale.ROOT, "%nCarriers: parallelism %d (%s), pool %s, max pool %d (%s)%n", scheduler.parallelism(),
                scheduler.parallelismSource(), seen.samples.isEmpty() ? "?" : seen.samples.get(seen.samples.size() - 1).poolSize(),
                scheduler.maxPoolSize(), scheduler.maxPoolSizeSource()));
        out.append("  I/O pollers: ").append(facts.virtualPollers() ? "virtual threads (JDK 22+ on Linux)" : "platform threads")
                .append("; synchronized pins: ").append(synchronizedPins()).append('\n');
        timeline(out);
        pinned(out);
        running(out);
        out.append(String.format(Locale.ROOT, "%nVirtual threads started: %s%n", Double.isNaN(startsPerSecond)
                ? "not recorded (JFR records them only while every carrier is taken with threads queued, where the scheduler MXBean counts the queue)"
                : String.format(Locale.ROOT, "%.1f a second while every carrier was taken with threads queued (JFR jdk.VirtualThreadStart, in spans"
                        + " of %d s at least %d s apart)", startsPerSecond, FlightRecording.STARTS_SPAN.toSeconds(), FlightRecording.STARTS_REST.toSeconds())));
        out.append(String.format(Locale.ROOT, "%nThe diagnosis took %d Thread.prints and %d thread dumps%s.%n", seen.prints, seen.dumps,
                seen.ownCpu == null ? "" : " and used " + millis(seen.ownCpu) + " of CPU in its own JVM"));
        out.append("\nWhat this JVM lets the diagnosis see:\n");
        for (Visibility v : visibility) {
            out.append(v.sees() ? "  yes  " : "  no   ").append(v.what()).append('\n');
        }
        out.append("\nThe frame named is the innermost one outside the JDK, common frameworks and --skip (")
                .append(options.skip().isEmpty() ? "none given" : String.join(",", options.skip())).append(").\n");
        return out.toString();
    }

    private String synchronizedPins() {
        if (!JdkFacts.synchronizedPins(facts.feature(), facts.lockingMode())) {
            return "no (JEP 491, JDK 24+)";
        }
        return facts.feature() <= 23 ? "yes (JDK 21-23)" : "yes (-XX:LockingMode=1 on JDK 24-25)";
    }

    private void timeline(StringBuilder out) {
        List<Map<String, Object>> rows = rows();
        boolean mx = seen.samples.stream().anyMatch(s -> s.queued() != null);
        boolean dumps = seen.samples.stream().anyMatch(s -> s.waiting() != null);
        out.append("\nOver time (the most in each step; taken = carriers carrying a virtual thread")
                .append(mx ? ", mounted and queued from the scheduler MXBean" : "")
                .append(dumps ? ", waiting from thread dumps" : "")
                .append(seen.mounted.count() > 0 ? ", blocked and running from the mounted threads' stacks" : "").append("):\n");
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
        if (seen.samples.isEmpty()) {
            return rows;
        }
        long seconds = Math.max(1, (long) Math.ceil(seen.length().toNanos() / 1e9));
        long step = Math.max(1, (seconds + MAX_ROWS - 1) / MAX_ROWS);
        Map<Long, List<Sample>> byStep = new LinkedHashMap<>();
        for (Sample s : seen.samples) {
            byStep.computeIfAbsent(Duration.between(seen.start, s.at()).toSeconds() / step, k -> new ArrayList<>()).add(s);
        }
        byStep.forEach((index, samples) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("t", (double) index * step);
            row.put("taken", samples.stream().mapToInt(Verdict::taken).max().orElse(0));
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
        out.append(String.format(Locale.ROOT, "%nPinned episodes (JFR jdk.VirtualThreadPinned, at least %d ms): %d, %s pinned in all%n",
                options.pinnedThreshold().toMillis(), pinnedEvents.count(), millis(pinnedEvents.total())));
        for (Verdict.Cause cause : pinnedEvents.causes()) {
            for (FrameGroups.Group group : pinnedEvents.of(cause).ranked()) {
                out.append(String.format(Locale.ROOT, "  %d x %s, %s: median %s, max %s%s%n", group.count, cause.words, group.frame, millis(group.median()),
                        millis(group.max()), group.mostCommon(group.reasons).map(r -> ", " + r).orElse("")));
                stack(out, group);
            }
        }
    }

    /** What held the carriers, from the stacks of mounted threads; without any, what JFR's execution samples saw running. */
    private void running(StringBuilder out) {
        if (seen.mounted.count() > 0) {
            out.append("\nWhat held the carriers, in the stacks of mounted virtual threads (Thread.print from JDK 25, thread dumps; sightings):\n");
            for (Verdict.Cause cause : seen.mounted.causes()) {
                for (FrameGroups.Group group : seen.mounted.of(cause).ranked().stream().limit(3).toList()) {
                    out.append(String.format(Locale.ROOT, "  %d x %s, %s%s%n", group.count, cause.words, group.frame,
                            group.mostCommon(group.monitorOwners).map(o -> ", monitor held by " + o).orElse("")));
                    stack(out, group);
                }
            }
        } else if (!virtualSamples.isEmpty()) {
            out.append("\nRunning on the carriers (JFR execution samples of virtual threads):\n");
            for (FrameGroups.Group group : virtualSamples.ranked().stream().limit(5).toList()) {
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
        root.put("target", address);
        root.put("jdk", Map.of("version", facts.version(), "vendor", facts.vendor(), "feature", facts.feature()));
        root.put("watchedSeconds", seen.length().toMillis() / 1000.0);
        root.put("intervalMillis", options.interval().toMillis());
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("starved", verdict.starved());
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
        carriers.put("pool", seen.carrierPool);
        carriers.put("virtualPollers", facts.virtualPollers());
        root.put("carriers", carriers);
        root.put("timeline", rows());
        root.put("pinnedEpisodes", groups(pinnedEvents));
        root.put("mounted", groups(seen.mounted));
        root.put("runningSamples", groups(null, virtualSamples));
        root.put("virtualThreadsStartedPerSecond", Double.isNaN(startsPerSecond) ? null : startsPerSecond);
        root.put("threadDumps", seen.dumps);
        Map<String, Object> sampling = new LinkedHashMap<>();
        sampling.put("meanDumpMillis", seen.dumps == 0 ? null : seen.dumpTime.toMillis() / (double) seen.dumps);
        sampling.put("dumpThreads", seen.dumpThreads);
        sampling.put("threadPrints", seen.prints);
        sampling.put("ownCpuMillis", seen.ownCpu == null ? null : seen.ownCpu.toMillis());
        sampling.put("summary", sampling(seen));
        root.put("sampling", sampling);
        root.put("visibility", visibility.stream().map(x -> Map.of("sees", x.sees(), "what", x.what())).toList());
        root.put("skipped", skipped);
        return Json.write(root) + "\n";
    }

    private static List<Map<String, Object>> groups(Holds holds) {
        List<Map<String, Object>> list = new ArrayList<>();
        holds.causes().forEach(cause -> list.addAll(groups(cause, holds.of(cause))));
        return list;
    }

    private static List<Map<String, Object>> groups(Verdict.Cause cause, FrameGroups groups) {
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
        double each = seen.dumpTime.toMillis() / (double) seen.dumps;
        double apart = seen.dumps < 2 ? seen.length().toMillis() : seen.length().toMillis() / (double) (seen.dumps - 1);
        return String.format(Locale.ROOT, "%d thread dumps of up to %,d threads, %.0f ms each, one every %s (at most %.0f %% of the time): a wait"
                + " shorter than that is not seen in two dumps; the scheduler MXBean and JFR carry the wait between them where the JVM has them",
                seen.dumps, seen.dumpThreads, each, millis(Duration.ofMillis((long) apart)), 100 * Sampler.DUMP_SHARE);
    }

    private static String dash(Object value) {
        return value == null ? "-" : value.toString();
    }

    static String millis(Duration duration) {
        long ms = duration.toMillis();
        return ms >= 10_000 ? String.format(Locale.ROOT, "%.1f s", ms / 1000.0)
                : ms >= 1000 ? String.format(Locale.ROOT, "%.2f s", ms / 1000.0) : ms + " ms";
    }

    /** What this JVM lets the diagnosis see, from what it answered, not from its version. */
    static List<Visibility> visibility(Observation seen, boolean schedulerMxBean, FlightRecording recording, String noRecording) {
        List<Visibility> list = new ArrayList<>();
        list.add(seen.carrierPool != null
                ? new Visibility(true, "carriers and the virtual thread each carries (jcmd Thread.print, every JDK): pool " + seen.carrierPool + "*")
                : new Visibility(false, "which threads are carriers: none carried a virtual thread while watched"));
        list.add(new Visibility(seen.printShowsMounted, seen.printShowsMounted
                ? "the stack of each mounted virtual thread in every sample (jcmd Thread.print, JDK 25+)"
                : "the stacks of mounted virtual threads in Thread.print (JDK 25+ shows them): only where a thread dump is taken"));
        list.add(schedulerMxBean
                ? new Visibility(true, "the scheduler's parallelism, pool, mounted and queued virtual threads (jdk.management:type=VirtualThreadScheduler, JDK 24+)")
                : new Visibility(false, "the scheduler's queue: this JVM has no VirtualThreadScheduler MXBean (JDK 24+); queued threads are not counted"));
        if (!seen.hasThreadDumps()) {
            list.add(new Visibility(false, "thread dumps: " + (seen.noThreadDumps == null
                    ? "none needed: the carriers were never all taken, with threads queued, for " + Sampler.PRESSURE.toSeconds()
                            + " s (a dump costs the target time in proportion to its threads)"
                    : seen.noThreadDumps) + "; no thread's own wait for a carrier"));
        } else if (seen.dumpsRecordState) {
            list.add(new Visibility(true, "thread dumps with each thread's state, carrier and owned monitors (JDK 25+): "
                    + "waits for a carrier, what mounted threads do, which frame holds a monitor: " + sampling(seen)));
        } else {
            list.add(new Visibility(true, "thread dumps that list every virtual thread: " + sampling(seen)));
            list.add(new Visibility(false, "thread states: this JVM's dumps record none (JDK 25+ do), so only threads never run yet count as waiting"
                    + " (a lower bound) and the frame holding a monitor is not named"));
        }
        if (recording == null) {
            list.add(new Visibility(false, "JFR: " + noRecording + "; no pinned episodes, no samples of running code"));
        } else if (!recording.started()) {
            list.add(new Visibility(false, "JFR: not started, as every carrier was never taken with threads queued (it records only from then);"
                    + " no pinned episodes, no samples of running code"));
        } else {
            list.add(new Visibility(true, "pinned episodes with their stacks, virtual thread starts and, without stacks of mounted threads in"
                    + " Thread.print, execution samples, from when every carrier was taken with threads queued (JFR over JMX)"));
            boolean reasons = recording.pinnedFields().contains("pinnedReason");
            list.add(new Visibility(reasons, reasons ? "why a thread pinned and what blocked (JFR pinnedReason, blockingOperation: JDK 24+)"
                    : "why a thread pinned: this JVM's jdk.VirtualThreadPinned has no pinnedReason (JDK 24+)"));
        }
        return list;
    }
}
