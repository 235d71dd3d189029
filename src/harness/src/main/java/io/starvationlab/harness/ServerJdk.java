package io.starvationlab.harness;

import java.util.List;
import java.util.Map;

import io.starvationlab.harness.plan.Prediction;

/**
 * The JDK the service under test runs on, as {@code /lab/info} reports it, and what that JDK does
 * according to {@link Prediction}, the one place that says it: every expectation that holds on some
 * JDKs only is guarded by one of these, not by the JDK that runs the tests.
 */
public record ServerJdk(int feature) {

    private static final List<String> LEGACY_LOCKING = List.of("-XX:LockingMode=1");

    public static ServerJdk of(LabClient lab) {
        return parse(lab.info().path("javaVersion").asText());
    }

    /** From a {@code Runtime.version()} text such as {@code 25.0.1+8-LTS} or {@code 21.0.13+11-Debian-1}. */
    public static ServerJdk parse(String javaVersion) {
        return new ServerJdk(Integer.parseInt(javaVersion.split("[^0-9]", 2)[0]));
    }

    /** What this JDK does with its default flags. */
    public Prediction.Facts facts() {
        return Prediction.facts(feature, List.of(), Map.of()).orElseThrow();
    }

    /** What {@code mode} on {@code downstream} does on this JDK with its default flags. */
    public Prediction.Outcome outcome(String mode, String downstream) {
        return Prediction.of(feature, mode, downstream, List.of(), Map.of()).outcome();
    }

    /** Whether {@code mode} on {@code downstream} starves this JDK's service by the plan's rule (a collapse included). */
    public boolean starves(String mode, String downstream) {
        return outcome(mode, downstream).starved();
    }

    public boolean hasFfm() {
        return facts().nativePinAvailable();
    }

    public boolean synchronizedPins() {
        return facts().synchronizedPins();
    }

    /** Whether {@code -XX:LockingMode=1} brings back the pinning this JDK's default no longer has. */
    public boolean legacyLockingPins() {
        return !synchronizedPins() && Prediction.facts(feature, LEGACY_LOCKING, Map.of()).map(Prediction.Facts::synchronizedPins).orElse(false);
    }

    /** JFR's {@code jdk.VirtualThreadPinned} names the reason ("Native or VM frame on stack") from JDK 24. */
    public boolean namesPinnedReason() {
        return feature >= 24;
    }

    /** {@code jdk.management}'s virtual-thread scheduler MXBean, behind Micrometer's scheduler gauges, exists from JDK 24. */
    public boolean hasSchedulerMxBean() {
        return feature >= 24;
    }

    /** A mode that holds carriers on this JDK: native where there is FFM, cpu everywhere. */
    public String starvingMode() {
        return hasFfm() ? "native" : "cpu";
    }

    @Override
    public String toString() {
        return "JDK " + feature;
    }
}
