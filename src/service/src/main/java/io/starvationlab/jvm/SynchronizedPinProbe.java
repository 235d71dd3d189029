package io.starvationlab.jvm;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.consumer.RecordingStream;

/**
 * Measures, on this JVM, whether a virtual thread that blocks inside {@code synchronized} pins its
 * carrier: it blocks briefly in a monitor and watches a JFR stream for {@code jdk.VirtualThreadPinned}.
 * A marker event committed afterwards proves the stream has delivered everything before it, so
 * "no pinned event" is an observation, not a timeout.
 */
final class SynchronizedPinProbe {

    private static final String PINNED_EVENT = JvmFacts.PINNED_EVENT;
    private static final String PROBE_THREAD = "lab-synchronized-pin-probe";
    private static final Duration STREAM_WAIT = Duration.ofSeconds(10);

    @Name("io.starvationlab.ProbeMarker")
    @Label("Starvation Lab probe marker")
    @Category("Starvation Lab")
    static final class Marker extends Event {
        @Label("Phase")
        String phase;
    }

    private SynchronizedPinProbe() {
    }

    /** True if blocking in a monitor pinned the carrier; throws if JFR could not tell. */
    static boolean measure() throws Exception {
        AtomicBoolean pinned = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(1);
        try (RecordingStream stream = new RecordingStream()) {
            stream.enable(PINNED_EVENT).withThreshold(Duration.ZERO).withoutStackTrace();
            stream.enable(Marker.class).withoutStackTrace();
            stream.setOrdered(true);
            stream.onEvent(PINNED_EVENT, event -> {
                if (PROBE_THREAD.equals(event.getThread("eventThread").getJavaName())) {
                    pinned.set(true);
                }
            });
            stream.onEvent(Marker.class.getAnnotation(Name.class).value(), event -> {
                ("started".equals(event.getString("phase")) ? started : finished).countDown();
            });
            stream.startAsync();
            awaitMarker("started", started);

            Object monitor = new Object();
            Thread probe = Thread.ofVirtual().name(PROBE_THREAD).start(() -> blockInsideMonitor(monitor));
            probe.join();

            awaitMarker("finished", finished);
            return pinned.get();
        }
    }

    private static void awaitMarker(String phase, CountDownLatch latch) throws InterruptedException {
        Marker marker = new Marker();
        marker.phase = phase;
        marker.commit();
        if (!latch.await(STREAM_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the JFR stream did not deliver its '" + phase + "' marker within " + STREAM_WAIT);
        }
    }

    private static void blockInsideMonitor(Object monitor) {
        synchronized (monitor) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
