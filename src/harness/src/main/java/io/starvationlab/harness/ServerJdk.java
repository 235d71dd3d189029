package io.starvationlab.harness;

import java.util.List;
import java.util.Map;

import io.starvationlab.model.JdkFacts;

/**
 * The JDK the service under test runs on, as {@code /lab/info} reports it, and what that JDK does
 * according to {@link JdkFacts}, the place that says it: every expectation that holds
 * on some JDKs only is guarded by one of these, not by the JDK that runs the tests.
 */
public record ServerJdk(int feature) {

    /** From {@code /lab/info}'s {@code javaVersion}, a {@code Runtime.version()} text such as {@code 25.0.1+8-LTS}. */
    public static ServerJdk of(LabClient lab) {
        return new ServerJdk(JdkFacts.feature(lab.info().path("javaVersion").asText()));
    }

    /** What this JDK does with its default flags, on Linux as the lab's JVMs run. */
    private JdkFacts facts() {
        return JdkFacts.of(feature, "Linux", List.of(), Map.of()).orElseThrow();
    }

    public boolean hasFfm() {
        return facts().nativePinAvailable();
    }

    /** JFR's {@code jdk.VirtualThreadPinned} names the reason ("Native or VM frame on stack"). */
    public boolean namesPinnedReason() {
        return facts().pinnedEventReason();
    }

    /** {@code jdk.management}'s virtual-thread scheduler MXBean, behind Micrometer's scheduler gauges. */
    public boolean hasSchedulerMxBean() {
        return facts().schedulerMxBean();
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
