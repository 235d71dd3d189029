package io.starvationlab.diagnose;

import java.util.Map;
import java.util.Optional;

/**
 * The scheduler's parallelism (its carriers) and largest pool: the MXBean's on JDK 24+, else the system
 * properties the JDK reads at start-up, else its documented defaults (availableProcessors, and at least 256).
 *
 * @param mxBean whether the JVM has the scheduler MXBean (JDK 24+), which also counts the mounted and queued threads
 */
record SchedulerSettings(int parallelism, String parallelismSource, int maxPoolSize, String maxPoolSizeSource, boolean mxBean) {

    static SchedulerSettings of(TargetJvm.Facts facts, Optional<Map<String, Object>> mxBean) {
        int parallelism;
        String source;
        if (mxBean.isPresent()) {
            parallelism = ((Number) mxBean.get().get("Parallelism")).intValue();
            source = "the scheduler MXBean";
        } else if (facts.parallelismProperty() != null) {
            parallelism = Integer.parseInt(facts.parallelismProperty().strip());
            source = "-Djdk.virtualThreadScheduler.parallelism";
        } else {
            parallelism = facts.availableProcessors();
            source = "availableProcessors(); jdk.virtualThreadScheduler.parallelism not set";
        }
        if (facts.maxPoolSizeProperty() != null) {
            return new SchedulerSettings(parallelism, source, Integer.parseInt(facts.maxPoolSizeProperty().strip()),
                    "-Djdk.virtualThreadScheduler.maxPoolSize", mxBean.isPresent());
        }
        return new SchedulerSettings(parallelism, source, Math.max(parallelism, 256), "the default, max(parallelism, 256)", mxBean.isPresent());
    }
}
