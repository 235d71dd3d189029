package io.starvationlab.experiment.run;

import java.util.List;

import io.starvationlab.experiment.k6.K6Suite;

/**
 * The main plan as run: each server JVM with its phases, the server JVMs and phases skipped here, and why no
 * CPU quota can be set here when the plan has server JVMs inside one (null otherwise), on a machine of
 * {@code machineProcessors}; the k6 suite's run on the default server JVM after the runner's phases, or why it
 * did not run ({@code k6NotRun}); and the cold-start runs.
 */
public record MeasuredMainPlan(List<MeasuredServer> servers, List<Skipped> skipped, String cpuQuotaUnavailable, int machineProcessors,
        K6Suite.Run k6, String k6NotRun, List<MeasuredColdStart> coldStarts) {

    /** A server JVM of the plan, or one of its phases, not run here ({@code phase} null for the whole server JVM). */
    public record Skipped(String jvm, String phase, String why) {

        @Override
        public String toString() {
            return (phase == null ? "server JVM " + jvm : "phase " + phase) + " (" + why + ")";
        }
    }
}
