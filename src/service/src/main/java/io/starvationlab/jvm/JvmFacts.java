package io.starvationlab.jvm;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import javax.management.ObjectName;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import com.sun.management.HotSpotDiagnosticMXBean;

import io.quarkus.runtime.ImageMode;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;
import io.starvationlab.model.JdkFacts;

/**
 * What this JVM does with virtual threads, read from the JVM itself rather than guessed from its version.
 */
@Startup
@ApplicationScoped
public class JvmFacts {

    /** The JFR event of a virtual thread that could not unmount while it blocked. */
    public static final String PINNED_EVENT = "jdk.VirtualThreadPinned";
    private static final Logger LOG = Logger.getLogger(JvmFacts.class);
    private static final String SCHEDULER_BEAN = "jdk.management:type=VirtualThreadScheduler";

    private final CompletableFuture<Boolean> synchronizedPins = new CompletableFuture<>();

    void onStart(@Observes StartupEvent event) {
        if (ImageMode.current() == ImageMode.NATIVE_RUN) {
            // the probe watches a JFR stream, which a native image cannot open: unknown, not guessed
            LOG.info("Not measured whether synchronized pins: JFR event streaming is not available in a native image");
            synchronizedPins.complete(null);
            return;
        }
        // JFR needs a second or two to answer; start-up does not wait for it
        Thread.ofPlatform().daemon().name("lab-synchronized-pin-probe-runner").start(() -> {
            try {
                boolean pins = SynchronizedPinProbe.measure();
                LOG.infof("Measured: a virtual thread blocking inside synchronized %s its carrier on this JVM",
                        pins ? "PINS" : "does not pin");
                synchronizedPins.complete(pins);
            } catch (Throwable e) {
                LOG.warnf("Could not measure whether synchronized pins: %s", e.toString());
                synchronizedPins.completeExceptionally(e);
            }
        });
    }

    /** Whether blocking inside {@code synchronized} pins, as measured at start-up; null if it could not be measured. */
    public Boolean synchronizedPins() {
        try {
            return synchronizedPins.get(15, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    public String javaVersion() {
        return Runtime.version().toString();
    }

    public int availableProcessors() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** Carriers the default scheduler aims for: the scheduler's own figure on JDK 24+, else its documented default. */
    public int carrierParallelism() {
        Integer fromScheduler = schedulerAttribute("Parallelism");
        if (fromScheduler != null) {
            return fromScheduler;
        }
        return Integer.getInteger("jdk.virtualThreadScheduler.parallelism", availableProcessors());
    }

    /** Most carriers the scheduler may start to compensate for blocked ones (never for pinned ones). */
    public int carrierMaxPoolSize() {
        return Integer.getInteger("jdk.virtualThreadScheduler.maxPoolSize", Math.max(carrierParallelism(), 256));
    }

    /** HotSpot's LockingMode (1 legacy, 2 lightweight), or null on a JVM without the option (JDK 26+, native image). */
    public Integer lockingMode() {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotspot == null ? null : Integer.valueOf(hotspot.getVMOption("LockingMode").getValue());
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * The garbage collector this JVM runs, by the flag HotSpot set ({@code G1}, {@code Serial},
     * {@code Parallel}, {@code ZGC}, {@code Shenandoah}, {@code Epsilon}): chosen on the command line or,
     * without one, by the JVM's ergonomics, which pick Serial below 2 CPUs or 1792 MiB of memory.
     * Elsewhere (a native image) the names of the collector's beans.
     */
    public String garbageCollector() {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (hotspot != null) {
                for (String collector : List.of("G1", "Serial", "Parallel", "Z", "Shenandoah", "Epsilon")) {
                    if (flagSet(hotspot, "Use" + collector + "GC")) {
                        return collector.equals("Z") ? "ZGC" : collector;
                    }
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // no HotSpot flags here: name the beans below
        }
        return ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName)
                .collect(Collectors.joining(", "));
    }

    private static boolean flagSet(HotSpotDiagnosticMXBean hotspot, String flag) {
        try {
            return Boolean.parseBoolean(hotspot.getVMOption(flag).getValue());
        } catch (IllegalArgumentException e) {
            return false; // a collector this JVM was built without
        }
    }

    /** Whether this JVM's I/O pollers are virtual threads, as {@link JdkFacts#virtualPollers} says of it. */
    public boolean virtualPollers() {
        return JdkFacts.virtualPollers(Runtime.version().feature(), System.getProperty("os.name"), System.getProperty(JdkFacts.POLLER_MODE));
    }

    public List<String> jvmArguments() {
        try {
            return ManagementFactory.getRuntimeMXBean().getInputArguments();
        } catch (RuntimeException | LinkageError e) {
            return List.of();
        }
    }

    private static Integer schedulerAttribute(String name) {
        try {
            Object value = ManagementFactory.getPlatformMBeanServer().getAttribute(new ObjectName(SCHEDULER_BEAN), name);
            return value instanceof Number number ? number.intValue() : null;
        } catch (Exception | LinkageError e) {
            return null; // JDK 21-23 have no scheduler MXBean
        }
    }
}
