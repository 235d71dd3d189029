package io.starvationlab.experiment.prometheus;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/** One series of a range query: its labels and its samples, oldest first. */
public record Series(Map<String, String> labels, List<Sample> samples) {

    public record Sample(Instant at, double value) {
    }

    public String label(String name) {
        return labels.getOrDefault(name, "");
    }

    /** The sample within half a step of {@code at}, if any. */
    public OptionalDouble valueAt(Instant at, Duration step) {
        long halfStep = step.toMillis() / 2;
        return samples.stream().filter(s -> Math.abs(Duration.between(at, s.at()).toMillis()) <= halfStep)
                .mapToDouble(Sample::value).findFirst();
    }

    /** Whether a sample between {@code from} and {@code to} (inclusive) is a finite number. */
    public boolean hasValueBetween(Instant from, Instant to) {
        return samples.stream().anyMatch(s -> !s.at().isBefore(from) && !s.at().isAfter(to) && Double.isFinite(s.value()));
    }
}
