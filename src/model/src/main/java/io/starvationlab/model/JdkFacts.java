package io.starvationlab.model;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a JDK does with virtual threads, from its release, its OS, its flags and system properties: the one statement
 * of it in Java, from the JEPs and the JDK's sources, read by the service ({@code /lab/info}), the diagnosis, the
 * harness and the experiment. Judged on the shared case file {@code prediction-cases.json} ("jvms").
 *
 * @param feature            the feature release, e.g. 25
 * @param synchronizedPins   a virtual thread blocking inside {@code synchronized} keeps its carrier: before JEP 491
 *                           (JDK 24), and on 24-25 with {@code -XX:LockingMode=1}
 * @param nativePinAvailable FFM is final (JDK 22, JEP 454): the lab's native mode, an upcall, exists
 * @param virtualPollers     the I/O pollers are virtual threads (JDK 22+ on Linux, unless {@code -Djdk.pollerMode=1}), so a
 *                           carrier pinned on a socket read waits for a poller that itself needs a carrier
 * @param schedulerMxBean    {@code jdk.management:type=VirtualThreadScheduler} exists (JDK 24)
 * @param pinnedEventReason  JFR's {@code jdk.VirtualThreadPinned} names its reason, e.g. "Native or VM frame on stack" (JDK 24)
 * @param lockingModeFlag    HotSpot has {@code -XX:LockingMode} (JDK 21-25; obsolete and ignored in 26, refused from 27)
 * @param why                the documented behaviour behind the facts, for a report
 */
public record JdkFacts(int feature, boolean synchronizedPins, boolean nativePinAvailable, boolean virtualPollers, boolean schedulerMxBean,
        boolean pinnedEventReason, boolean lockingModeFlag, String why) {

    /** The flag that brings back the monitor implementation that pins (JDK 24-25). */
    public static final String LEGACY_LOCKING = "-XX:LockingMode=1";
    /** The system property that chooses the pollers: 1 or SYSTEM_THREADS platform threads, 2 or VTHREAD_POLLERS virtual threads. */
    public static final String POLLER_MODE = "jdk.pollerMode";

    /**
     * The facts of JDK {@code feature} on {@code osName} started with {@code flags} and system {@code properties}; empty when
     * the JVM refuses to start with them (LockingMode is gone from JDK 27: an unrecognized option).
     */
    public static Optional<JdkFacts> of(int feature, String osName, List<String> flags, Map<String, String> properties) {
        boolean legacyLocking = flags.contains(LEGACY_LOCKING);
        if (legacyLocking && feature >= 27) {
            return Optional.empty();
        }
        boolean pins = synchronizedPins(feature, legacyLocking ? 1 : null);
        boolean pollers = virtualPollers(feature, osName, properties.get(POLLER_MODE));
        String locking = feature <= 23 ? "synchronized pins before JEP 491 (JDK 24)"
                : pins ? "-XX:LockingMode=1 brings back synchronized pinning on JDK 24-25"
                : legacyLocking ? "JDK 26 ignores LockingMode (obsolete): JEP 491 applies" : "JEP 491: synchronized does not pin from JDK 24";
        String poller = pollers ? "the I/O pollers are virtual threads (JDK 22+ on Linux)"
                : feature < 22 ? "JDK 21's I/O pollers are platform threads" : "platform-thread pollers (" + pollerReason(osName, properties) + ")";
        return Optional.of(new JdkFacts(feature, pins, feature >= 22, pollers, feature >= 24, feature >= 24, feature <= 25,
                locking + "; " + (feature >= 22 ? "FFM final" : "no final FFM before JDK 22") + "; " + poller));
    }

    /** The facts of this JVM, with the flags and properties it was started with. */
    public static JdkFacts current(List<String> flags) {
        return of(Runtime.version().feature(), System.getProperty("os.name", ""), flags,
                System.getProperty(POLLER_MODE) == null ? Map.of() : Map.of(POLLER_MODE, System.getProperty(POLLER_MODE))).orElseThrow();
    }

    /**
     * Whether blocking inside {@code synchronized} pins on JDK {@code feature} with HotSpot's {@code LockingMode} as the JVM
     * reports it ({@code null}: not set, or a JDK without the flag): on every JDK before 24 (JEP 491), and on 24-25 with
     * the legacy mode 1; JDK 26 ignores the flag and 27 refuses it.
     */
    public static boolean synchronizedPins(int feature, Integer lockingMode) {
        return feature <= 23 || (feature <= 25 && Integer.valueOf(1).equals(lockingMode));
    }

    /**
     * Whether the I/O pollers are virtual threads, as the JDK decides at its first blocking socket call:
     * {@code jdk.pollerMode} 1 (SYSTEM_THREADS) platform threads, 2 (VTHREAD_POLLERS) virtual threads; unset, virtual
     * threads from JDK 22 on Linux, whose poller provider defaults to them (sun.nio.ch.DefaultPollerProvider), and
     * platform threads elsewhere and before 22.
     */
    public static boolean virtualPollers(int feature, String osName, String pollerMode) {
        if (pollerMode != null && !pollerMode.isBlank()) {
            return pollerMode.equals("2") || pollerMode.equalsIgnoreCase("VTHREAD_POLLERS");
        }
        return feature >= 22 && osName != null && osName.toLowerCase(Locale.ROOT).startsWith("linux");
    }

    /** The feature release of a {@code java.runtime.version} such as {@code 25.0.1+8-LTS} or {@code 21.0.13+9-1-deb13u2-Debian}; 0 if none. */
    public static int feature(String version) {
        String digits = version == null ? "" : version.split("[^0-9]", 2)[0];
        return digits.isEmpty() ? 0 : Integer.parseInt(digits);
    }

    private static String pollerReason(String osName, Map<String, String> properties) {
        return properties.containsKey(POLLER_MODE) ? POLLER_MODE + "=" + properties.get(POLLER_MODE) : "the default on " + osName;
    }
}
