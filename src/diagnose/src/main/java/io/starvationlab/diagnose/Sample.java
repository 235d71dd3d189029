package io.starvationlab.diagnose;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The carriers at one moment. What a source could not give, or was not asked (no {@code Thread.print} while a
 * carrier is free, {@link Sampler}), is null.
 *
 * @param poolSize       the scheduler's platform threads (its MXBean on JDK 24+, else the carriers {@code Thread.print} lists)
 * @param carrying       carriers carrying a virtual thread ({@code Thread.print}, every JDK)
 * @param carrierCpuMillis the carriers' CPU time so far, summed ({@code Thread.print}); NaN before any carrier was seen carrying, or without it
 * @param mounted        mounted virtual threads (scheduler MXBean, JDK 24+)
 * @param queued         virtual threads queued to start or continue (scheduler MXBean, JDK 24+)
 * @param waiting        virtual threads waiting for a carrier (thread dump)
 * @param pinned         mounted virtual threads whose stacks show them holding the carrier blocked ({@link Stacks#hold})
 * @param running        mounted virtual threads whose stacks show them computing
 * @param longestWait    the longest wait for a carrier of the work (not the meter's canary) seen so far, a lower bound (thread dumps)
 * @param heldIdle       carriers carrying the same virtual thread as at the last {@code Thread.print} and using almost no CPU since:
 *                       blocked while mounted, seen without a stack ({@code Thread.print})
 */
record Sample(Instant at, int poolSize, Integer carrying, double carrierCpuMillis, Integer mounted, Long queued, Integer waiting, Integer pinned,
        Integer running, Duration longestWait, Integer heldIdle) {

    /** Carriers taken: mounted by the scheduler's count where there is one, else carrying in {@code Thread.print}. */
    int taken() {
        return mounted != null ? Math.max(mounted, carrying == null ? 0 : carrying) : carrying;
    }

    /**
     * The mean of {@code value} over the samples {@code which} keeps, each weighing the time until the next sample (the last:
     * until {@code end}): they come faster while every carrier is taken; NaN when it keeps none.
     */
    static double mean(List<Sample> samples, Instant end, Predicate<Sample> which, ToDoubleFunction<Sample> value) {
        double sum = 0;
        double time = 0;
        for (int i = 0; i < samples.size(); i++) {
            Sample sample = samples.get(i);
            if (which.test(sample)) {
                double weight = Math.max(1e-6, Duration.between(sample.at(), i + 1 < samples.size() ? samples.get(i + 1).at() : end).toNanos() / 1e9);
                sum += weight * value.applyAsDouble(sample);
                time += weight;
            }
        }
        return time == 0 ? Double.NaN : sum / time;
    }
}
