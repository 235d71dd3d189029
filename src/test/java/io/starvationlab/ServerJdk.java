package io.starvationlab;

import io.starvationlab.experiment.server.LabClient;

/**
 * The JDK the service under test runs on, as {@code /lab/info} reports it, and what that JDK does:
 * every expectation that holds on some JDKs only is guarded by one of these, not by the JDK that
 * runs the tests.
 */
record ServerJdk(int feature) {

    static ServerJdk of(LabClient lab) {
        return parse(lab.info().path("javaVersion").asText());
    }

    /** From a {@code Runtime.version()} text such as {@code 25.0.1+8-LTS} or {@code 21.0.13+11-Debian-1}. */
    static ServerJdk parse(String javaVersion) {
        return new ServerJdk(Integer.parseInt(javaVersion.split("[^0-9]", 2)[0]));
    }

    /** FFM is final from JDK 22; before, {@code /work/native} answers 501. */
    boolean hasFfm() {
        return feature >= 22;
    }

    /** A virtual thread blocking inside {@code synchronized} pins its carrier before JDK 24 (JEP 491). */
    boolean synchronizedPins() {
        return feature < 24;
    }

    /** JFR's {@code jdk.VirtualThreadPinned} names the reason ("Native or VM frame on stack") from JDK 24. */
    boolean namesPinnedReason() {
        return feature >= 24;
    }

    /** {@code jdk.management}'s virtual-thread scheduler MXBean, behind Micrometer's scheduler gauges, exists from JDK 24. */
    boolean hasSchedulerMxBean() {
        return feature >= 24;
    }

    /** {@code -XX:LockingMode=1} brings back pinning in {@code synchronized} on JDK 24 and 25; JDK 26 removed the flag. */
    boolean legacyLockingPins() {
        return feature == 24 || feature == 25;
    }

    /** The mode that holds carriers: native where FFM is final, cpu everywhere. */
    String starvingMode() {
        return hasFfm() ? "native" : "cpu";
    }

    @Override
    public String toString() {
        return "JDK " + feature;
    }
}
