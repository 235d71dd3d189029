package io.starvationlab.diagnose;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.management.jfr.RemoteRecordingStream;

/**
 * JFR events streamed from the target over its JMX connection ({@code RemoteRecordingStream}, JDK 16+):
 * {@code jdk.VirtualThreadPinned} above the threshold, with stacks; execution samples of virtual threads
 * (what runs on the carriers); and {@code jdk.VirtualThreadStart}, whose rate is how fast the carriers
 * take new virtual threads. Started only once every carrier is taken with threads queued ({@link #pressed}):
 * nobody waits for a carrier before, and a recording costs both JVMs (its start, the first in a JVM most).
 * Then starts, one event per virtual thread (thousands a second in a busy service), in spans of
 * {@link #STARTS_SPAN} at least {@link #STARTS_REST} apart, and only where something counts the queue that the
 * rate is judged with (the scheduler MXBean, or thread dumps); execution samples only where {@code Thread.print} shows no mounted stacks
 * (before JDK 25), while pressed and for {@code pressure} after. It ends with the sampling, and what it recorded goes into the
 * observation as {@link Recorded}.
 */
final class FlightRecording implements AutoCloseable {

    /**
     * What JFR recorded, fixed once the recording ended.
     *
     * @param started       whether it started (once every carrier was taken with threads queued)
     * @param missing       why it recorded nothing or not all (no recorder, a start or a stream that failed), or null
     * @param pinned        the pinned episodes by what held the carrier
     * @param running       execution samples of virtual threads, by the frame named
     * @param starts        the virtual threads' starts, or null where none were recorded
     * @param pinnedReasons whether this JVM's {@code jdk.VirtualThreadPinned} has {@code pinnedReason} (JDK 24+)
     */
    record Recorded(boolean started, String missing, Holds pinned, FrameGroups running, Starts starts, boolean pinnedReasons) {

        static Recorded none(String why) {
            return new Recorded(false, why, Holds.NONE, FrameGroups.NONE, null, false);
        }
    }

    private static final Duration SAMPLE_PERIOD = Duration.ofMillis(50);
    static final Duration STARTS_SPAN = Duration.ofSeconds(1);
    static final Duration STARTS_REST = Duration.ofSeconds(3);

    /**
     * The virtual threads started while starts were recorded, and when they were, on this machine's clock.
     *
     * @param at    each start's time, including any another recording in the target asked for
     * @param spans when starts were recorded
     */
    record Starts(List<Instant> at, List<Span> spans) {

        record Span(Instant from, Instant to) {
            boolean covers(Instant t) {
                return !t.isBefore(from) && !t.isAfter(to);
            }
        }

        boolean covers(Instant t) {
            return spans.stream().anyMatch(span -> span.covers(t));
        }

        double seconds() {
            return spans.stream().mapToLong(span -> Duration.between(span.from(), span.to()).toNanos()).sum() / 1e9;
        }

        long count() {
            return at.stream().filter(this::covers).count();
        }

        /**
         * Starts a second while recorded; NaN when never recorded. Timed from each span's first start to its end where spans hold two
         * or more: the target applies a setting some time after it is asked to, so a span's own beginning would count time it recorded
         * nothing (measured: a rate a third low).
         */
        double perSecond() {
            if (spans.isEmpty()) {
                return Double.NaN;
            }
            long after = 0;
            long nanos = 0;
            for (Span span : spans) {
                List<Instant> in = at.stream().filter(span::covers).sorted().toList();
                if (in.size() >= 2) {
                    after += in.size() - 1;
                    nanos += Duration.between(in.get(0), span.to()).toNanos();
                }
            }
            return nanos > 0 ? after / (nanos / 1e9) : count() / Math.max(1e-3, seconds());
        }
    }

    /**
     * One pinned episode.
     *
     * @param reason            the JVM's reason (JDK 24+), or null
     * @param blockingOperation what blocked while pinned (JDK 24+), or null
     */
    record PinnedEpisode(Instant end, Duration duration, String reason, String blockingOperation, List<Frame> frames) {

        private static final Pattern INIT_WAIT = Pattern.compile("Waited for initialization of (\\S+) by another thread");

        /** As a mounted thread's stack: JDK 24+ name the class whose initialization it waited for in the reason. */
        Mounted asMounted() {
            Matcher initWait = INIT_WAIT.matcher(reason == null ? "" : reason);
            return new Mounted(frames, List.of(), initWait.find() ? initWait.group(1) : null, false, null, null);
        }
    }

    private final TargetJvm target;
    private final Duration threshold;
    private final Duration pressure;
    private RemoteRecordingStream stream;
    private String notStarted;
    /** The target's clock ahead of this machine's: spans of a second are compared with its events' times. */
    private volatile Duration targetAhead = Duration.ZERO;
    private final List<PinnedEpisode> pinned = new ArrayList<>();
    private final List<List<Frame>> virtualSamples = new ArrayList<>();
    private final List<Instant> starts = new ArrayList<>();
    private final List<Starts.Span> startSpans = new ArrayList<>();
    private final boolean countsStarts;
    private Instant spanFrom;
    private boolean sampling;
    private Instant calmSince;
    private volatile Throwable failure;
    private volatile List<String> pinnedFields = List.of();

    private FlightRecording(TargetJvm target, Duration threshold, boolean countsStarts, Duration pressure) {
        this.target = target;
        this.threshold = threshold;
        this.countsStarts = countsStarts;
        this.pressure = pressure;
    }

    /**
     * A recording of {@code target} to start once pressed; {@code countsStarts}: whether the start rate is judged (the scheduler MXBean,
     * JDK 24+, or thread dumps count the queue); {@code pressure}: how long execution samples go on once the carriers are no longer all taken.
     */
    static FlightRecording of(TargetJvm target, Duration pinnedThreshold, boolean countsStarts, Duration pressure) {
        return new FlightRecording(target, pinnedThreshold, countsStarts, pressure);
    }

    private boolean start() {
        if (notStarted != null) {
            return false;
        }
        try {
            targetAhead = target.clockAhead();
            stream = new RemoteRecordingStream(target.connection());
            stream.enable("jdk.VirtualThreadPinned").withThreshold(threshold).withStackTrace();
            stream.onEvent("jdk.VirtualThreadPinned", this::onPinned);
            stream.onEvent("jdk.ExecutionSample", this::onSample);
            stream.onEvent("jdk.VirtualThreadStart", this::onStart);
            stream.onError(error -> failure = error);
            stream.onMetadata(metadata -> metadata.getEventTypes().stream().filter(type -> type.getName().equals("jdk.VirtualThreadPinned"))
                    .findFirst().ifPresent(type -> pinnedFields = type.getFields().stream().map(f -> f.getName()).toList()));
            stream.startAsync();
            return true;
        } catch (IOException | RuntimeException e) {
            notStarted = "the recording could not start: " + e.getMessage();
            if (stream != null) {
                stream.close(); // its recording in the target goes with it
            }
            stream = null;
            return false;
        }
    }

    private void onPinned(RecordedEvent event) {
        // another recording in the target (its own monitoring, say) may ask for shorter episodes
        if (event.getDuration().compareTo(threshold) < 0) {
            return;
        }
        PinnedEpisode episode = new PinnedEpisode(event.getEndTime(), event.getDuration(), text(event, "pinnedReason"),
                text(event, "blockingOperation"), frames(event.getStackTrace()));
        synchronized (this) {
            pinned.add(episode);
        }
    }

    private void onSample(RecordedEvent event) {
        RecordedThread thread = event.getThread("sampledThread");
        if (thread == null || !thread.isVirtual()) {
            return;
        }
        List<Frame> frames = frames(event.getStackTrace());
        synchronized (this) {
            virtualSamples.add(frames);
        }
    }

    /** A virtual thread's first mount, the end of its first wait: the meter's canary probes left out, as from the waits. */
    private void onStart(RecordedEvent event) {
        RecordedThread thread = event.getThread();
        if (thread != null && CarrierWaits.CANARY.equals(thread.getJavaName())) {
            return;
        }
        Instant here = event.getStartTime().minus(targetAhead);
        synchronized (this) {
            starts.add(here);
        }
    }

    private static String text(RecordedEvent event, String field) {
        return event.hasField(field) ? event.getString(field) : null;
    }

    private static List<Frame> frames(RecordedStackTrace stackTrace) {
        if (stackTrace == null) {
            return List.of();
        }
        List<Frame> frames = new ArrayList<>();
        for (RecordedFrame frame : stackTrace.getFrames()) {
            frames.add(new Frame(frame.getMethod().getType().getName(), frame.getMethod().getName(), frame.getLineNumber(),
                    "Native".equals(frame.getType())));
        }
        return List.copyOf(frames);
    }

    /**
     * Whether the carriers are all taken with threads queued now, and whether execution samples are wanted (no stacks of mounted
     * threads in {@code Thread.print}): starts the recording, and a span of starts or the samples, as above (the settings of a
     * running recording, changed over the connection).
     */
    void pressed(boolean pressed, Instant at, boolean samples) {
        if ((stream == null && (!pressed || !start())) || failure != null) {
            return;
        }
        try {
            adjust(pressed, at, samples);
        } catch (RuntimeException e) {
            failure = e; // a settings change the target refused: reported as the stream's failure, the sampling goes on
        }
    }

    private void adjust(boolean pressed, Instant at, boolean samples) {
        if (spanFrom != null && !at.isBefore(spanFrom.plus(STARTS_SPAN))) {
            endSpan(at);
            stream.disable("jdk.VirtualThreadStart");
        } else if (pressed && countsStarts && spanFrom == null && (startSpans.isEmpty() || !at.isBefore(startSpans.getLast().to().plus(STARTS_REST)))) {
            // their times are needed, not their stacks; counted from when they surely are (a recording's first start takes a while)
            stream.enable("jdk.VirtualThreadStart").withoutStackTrace();
            spanFrom = Instant.now();
        }
        calmSince = pressed ? null : calmSince == null ? at : calmSince;
        if (pressed && samples && !sampling) {
            stream.enable("jdk.ExecutionSample").withPeriod(SAMPLE_PERIOD);
            sampling = true;
        } else if (sampling && (!samples || calmSince != null && !Duration.between(calmSince, at).minus(pressure).isNegative())) {
            stream.disable("jdk.ExecutionSample");
            sampling = false;
        }
    }

    private synchronized void endSpan(Instant end) {
        if (spanFrom != null) {
            startSpans.add(new Starts.Span(spanFrom, end));
            spanFrom = null;
        }
    }

    /** Ends the recording once every event recorded so far has arrived, and returns what it recorded; {@code stacks} read them. */
    Recorded finish(Stacks stacks) {
        endSpan(Instant.now());
        if (stream == null) {
            return notStarted != null ? Recorded.none(notStarted) : new Recorded(false, null, Holds.NONE, FrameGroups.NONE, null, false);
        }
        stream.stop();
        List<FrameGroups.Sighting> episodes;
        List<FrameGroups.Sighting> samples;
        Starts recordedStarts;
        synchronized (this) {
            episodes = pinned.stream().map(e -> new FrameGroups.Sighting(stacks.hold(e.asMounted(), true), e.frames(), e.duration(), e.reason(), List.of()))
                    .toList();
            samples = virtualSamples.stream().map(frames -> new FrameGroups.Sighting(new Stacks.Hold(Cause.CPU_BOUND, stacks.named(frames), null), frames))
                    .toList();
            recordedStarts = new Starts(List.copyOf(starts), List.copyOf(startSpans));
        }
        return new Recorded(true, failure == null ? null : "the JFR stream failed: " + failure, new Holds(episodes), new FrameGroups(samples),
                recordedStarts, pinnedFields.contains("pinnedReason"));
    }

    @Override
    public void close() {
        if (stream != null) {
            stream.close();
        }
    }
}
