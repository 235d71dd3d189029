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
 * take new virtual threads. The recording ends with the diagnosis.
 */
final class FlightRecording implements AutoCloseable {

    private static final Duration SAMPLE_PERIOD = Duration.ofMillis(50);

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
            return new Mounted(frames, List.of(), initWait.find() ? initWait.group(1) : null, false);
        }
    }

    private final RemoteRecordingStream stream;
    private final Duration threshold;
    private final List<PinnedEpisode> pinned = new ArrayList<>();
    private final List<List<Frame>> virtualSamples = new ArrayList<>();
    private final List<Instant> starts = new ArrayList<>();
    private volatile Throwable failure;
    private volatile List<String> pinnedFields = List.of();

    private FlightRecording(RemoteRecordingStream stream, Duration threshold) {
        this.stream = stream;
        this.threshold = threshold;
    }

    static FlightRecording start(TargetJvm target, Duration pinnedThreshold) throws IOException {
        RemoteRecordingStream stream = new RemoteRecordingStream(target.connection());
        FlightRecording recording = new FlightRecording(stream, pinnedThreshold);
        stream.enable("jdk.VirtualThreadPinned").withThreshold(pinnedThreshold).withStackTrace();
        stream.enable("jdk.ExecutionSample").withPeriod(SAMPLE_PERIOD);
        // thousands a second where many threads live: their times are needed, not their stacks
        stream.enable("jdk.VirtualThreadStart").withoutStackTrace();
        stream.onEvent("jdk.VirtualThreadPinned", recording::onPinned);
        stream.onEvent("jdk.ExecutionSample", recording::onSample);
        stream.onEvent("jdk.VirtualThreadStart", recording::onStart);
        stream.onError(error -> recording.failure = error);
        stream.onMetadata(metadata -> metadata.getEventTypes().stream().filter(type -> type.getName().equals("jdk.VirtualThreadPinned"))
                .findFirst().ifPresent(type -> recording.pinnedFields = type.getFields().stream().map(f -> f.getName()).toList()));
        stream.startAsync();
        return recording;
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

    private void onStart(RecordedEvent event) {
        synchronized (this) {
            starts.add(event.getStartTime());
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

    /** Ends the recording once every event recorded so far has arrived. */
    void finish() {
        stream.stop();
    }

    synchronized List<PinnedEpisode> pinned() {
        return List.copyOf(pinned);
    }

    synchronized List<List<Frame>> virtualSamples() {
        return List.copyOf(virtualSamples);
    }

    synchronized List<Instant> starts() {
        return List.copyOf(starts);
    }

    /** The fields of this JVM's {@code jdk.VirtualThreadPinned}: {@code pinnedReason} and {@code blockingOperation} from JDK 24. */
    List<String> pinnedFields() {
        return pinnedFields;
    }

    Throwable failure() {
        return failure;
    }

    @Override
    public void close() {
        stream.close();
    }
}
