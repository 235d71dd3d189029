package io.starvationlab.observe;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ImageMode;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;
import io.starvationlab.config.LabConfig;
import io.starvationlab.jvm.JvmFacts;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingStream;

/**
 * Names the code that pins carriers: a JFR stream of {@code jdk.VirtualThreadPinned} events, grouped
 * by the innermost application frame (the first frame, from the top of the stack, outside the JDK,
 * the frameworks, the drivers and the lab's own downstream clients) and the JVM's pinned reason.
 * Memory is bounded: past {@code max-groups}, the least-seen group is dropped.
 */
@Startup
@ApplicationScoped
public class PinningMonitor {

    private static final Logger LOG = Logger.getLogger(PinningMonitor.class);
    private static final String PINNED_EVENT = JvmFacts.PINNED_EVENT;
    static final String NO_APPLICATION_FRAME = "(no application frame)";

    private final LabConfig.Pinning settings;
    private final MeterRegistry registry;
    private final Map<String, FrameGroup> groups = new LinkedHashMap<>();
    private volatile RecordingStream stream;
    private volatile Thread rotation;
    private volatile String unavailableReason = "the pinning monitor has not started";
    private long eventsSinceReset;
    private long droppedGroups;

    public PinningMonitor(LabConfig config, MeterRegistry registry) {
        this.settings = config.pinning();
        this.registry = registry;
    }

    void start(@Observes StartupEvent event) {
        if (!settings.enabled()) {
            unavailableReason = "disabled by lab.pinning.enabled=false";
            return;
        }
        if (ImageMode.current() == ImageMode.NATIVE_RUN) {
            unavailableReason = "JFR event streaming is not available in a native image; run the JVM image to see pinned frames";
            return;
        }
        try {
            RecordingStream recording = new RecordingStream();
            recording.enable(PINNED_EVENT).withThreshold(settings.threshold()).withStackTrace();
            recording.onEvent(PINNED_EVENT, this::record);
            recording.startAsync();
            stream = recording;
            unavailableReason = null;
            rotation = Thread.ofPlatform().daemon().name("lab-jfr-chunk-rotation").start(this::rotateChunks);
        } catch (RuntimeException | LinkageError e) {
            unavailableReason = "JFR is not available on this JVM: " + e;
            LOG.warn(unavailableReason);
        }
    }

    void stop(@Observes ShutdownEvent event) {
        RecordingStream recording = stream;
        stream = null;
        if (rotation != null) {
            rotation.interrupt();
        }
        if (recording != null) {
            recording.close();
        }
    }

    /**
     * Starting a recording makes JFR end its current chunk, and every stream then drops the chunk's
     * constant pools, including one entry per thread seen. Each request runs on a new virtual thread,
     * so without this the streams' memory grows with every pinned request.
     */
    private void rotateChunks() {
        while (stream != null) {
            try {
                Thread.sleep(settings.chunkRotation());
                try (Recording marker = new Recording()) {
                    marker.setName("lab-chunk-rotation");
                    marker.start();
                    marker.stop();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.debugf("JFR chunk rotation failed: %s", e);
            }
        }
    }

    /** The groups seen so far, most total pinned time first; optionally cleared after reading. */
    public synchronized PinningReport report(boolean reset) {
        List<PinningReport.Group> sorted = groups.values().stream()
                .sorted(Comparator.comparingLong(FrameGroup::totalNanos).reversed())
                .map(FrameGroup::view)
                .toList();
        PinningReport report = new PinningReport(unavailableReason == null, unavailableReason,
                settings.threshold().toMillis(), eventsSinceReset, droppedGroups, sorted);
        if (reset) {
            groups.clear();
            eventsSinceReset = 0;
            droppedGroups = 0;
        }
        return report;
    }

    private void record(RecordedEvent event) {
        RecordedStackTrace stackTrace = event.getStackTrace();
        List<RecordedFrame> frames = stackTrace == null ? List.of() : stackTrace.getFrames();
        String frame = applicationFrame(frames);
        String reason = event.hasField("pinnedReason") ? event.getString("pinnedReason") : null;
        Counter.builder("lab.pinning.events")
                .description("Pinned episodes longer than lab.pinning.threshold, by the JVM's reason (JDK 24+)")
                .tag("reason", reason == null ? "unknown" : reason)
                .register(registry)
                .increment();
        synchronized (this) {
            eventsSinceReset++;
            String key = frame + '\u0000' + reason;
            FrameGroup group = groups.get(key);
            if (group == null) {
                if (groups.size() >= settings.maxGroups()) {
                    evictLeastSeen();
                }
                group = new FrameGroup(frame, reason, trimmed(frames));
                groups.put(key, group);
            }
            group.add(event.getDuration(), event.getEndTime());
        }
    }

    private void evictLeastSeen() {
        groups.values().stream().min(Comparator.comparingLong(FrameGroup::count))
                .ifPresent(least -> groups.remove(least.frame + '\u0000' + least.reason));
        droppedGroups++;
    }

    private String applicationFrame(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            if (frame.isJavaFrame() && isApplication(frame.getMethod().getType().getName())) {
                return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
            }
        }
        return NO_APPLICATION_FRAME;
    }

    private boolean isApplication(String className) {
        return settings.skipPackages().stream().noneMatch(className::startsWith);
    }

    /** The stack from its first frame outside the JDK (the park machinery on top says nothing), cut to depth. */
    private List<String> trimmed(List<RecordedFrame> frames) {
        return frames.stream()
                .dropWhile(frame -> isJdk(frame.getMethod().getType().getName()))
                .limit(settings.stackDepth())
                .map(PinningMonitor::describe)
                .toList();
    }

    private static boolean isJdk(String className) {
        return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.");
    }

    private static String describe(RecordedFrame frame) {
        String method = frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
        return frame.isJavaFrame() && frame.getLineNumber() > 0 ? method + ":" + frame.getLineNumber() : method + " [" + frame.getType() + "]";
    }

    private static final class FrameGroup {
        private final String frame;
        private final String reason;
        private final List<String> stack;
        private long count;
        private long totalNanos;
        private long maxNanos;
        private Instant lastSeen;

        FrameGroup(String frame, String reason, List<String> stack) {
            this.frame = frame;
            this.reason = reason;
            this.stack = stack;
        }

        void add(Duration duration, Instant at) {
            count++;
            totalNanos += duration.toNanos();
            maxNanos = Math.max(maxNanos, duration.toNanos());
            lastSeen = at;
        }

        long count() {
            return count;
        }

        long totalNanos() {
            return totalNanos;
        }

        PinningReport.Group view() {
            return new PinningReport.Group(frame, reason == null ? "unknown (the JVM records no reason before JDK 24)" : reason,
                    count, totalNanos / 1e6, maxNanos / 1e6, lastSeen.toString(), stack);
        }
    }
}
