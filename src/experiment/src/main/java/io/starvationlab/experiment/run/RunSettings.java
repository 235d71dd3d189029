package io.starvationlab.experiment.run;

import java.nio.file.Path;
import java.util.Set;
import java.util.function.Consumer;

import io.starvationlab.model.Plan;

/**
 * What the main plan's run and the JDK matrix share: the plan, quick or full, the phases chosen by name
 * ({@code only}; all when empty), where the run writes, the project the plan belongs to (its manifests,
 * its {@code .ci/fetch-jdks}, its k6 suite), and where progress lines go.
 */
public record RunSettings(Plan plan, boolean quick, Set<String> only, Path out, Path projectDir, Consumer<String> progress) {

    /** Whether the run includes what is named {@code name}: a phase, or {@code cold-start}. */
    public boolean chosen(String name) {
        return only.isEmpty() || only.contains(name);
    }

    public Path logs() {
        return out.resolve("logs");
    }
}
