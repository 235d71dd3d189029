package io.starvationlab.experiment.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import io.starvationlab.experiment.plan.Plan;
import io.starvationlab.experiment.prometheus.PrometheusRun;
import io.starvationlab.experiment.server.Jdks;

/**
 * Runs the plan's phases on the JDK running this code, with the one run loop ({@link ServerRun}): each
 * server JVM the plan names in turn, with its phases; a server JVM for other JDKs is skipped and said so.
 */
public final class MainRun {

    /** The main plan as run: each server JVM with its phases, and the server JVMs skipped on this JDK. */
    public record Record(List<ServerRecord> servers, List<String> skipped) {
    }

    private MainRun() {
    }

    /** The phases of {@code plan} in quick or full mode, only those named in {@code only} unless it is empty. */
    public static Record run(Plan plan, boolean quick, Set<String> only, Path out, PrometheusRun prometheus, Consumer<String> progress) {
        Jdks.Jdk current = Jdks.current();
        Map<String, List<Plan.Phase>> groups = new LinkedHashMap<>();
        plan.phasesByJvm(quick).forEach((jvm, phases) -> {
            List<Plan.Phase> chosen = phases.stream().filter(phase -> only.isEmpty() || only.contains(phase.name())).toList();
            if (!chosen.isEmpty()) {
                groups.put(jvm, chosen);
            }
        });
        int total = groups.values().stream().mapToInt(List::size).sum();
        progress.accept(String.format("%s run: %d phases on %d server JVMs, %s", quick ? "Quick" : "Full", total, groups.size(), current.describe()));
        ServerRun loop = new ServerRun(new ServerRun.Settings(plan.probes(), plan.baseline(quick), plan.drain(quick), plan.starved(),
                out.resolve("logs")), prometheus, progress).expecting(total);
        List<ServerRecord> servers = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        groups.forEach((name, phases) -> {
            Plan.Jvm jvm = plan.jvms().get(name);
            if (!jvm.appliesTo(current.feature())) {
                skipped.add(name + " (" + jvm.jdk() + " only)");
                progress.accept("Skipping server " + name + " (" + jvm.jdk() + " only; this is JDK " + current.feature() + ")");
                return;
            }
            ServerRecord server = loop.run(new ServerRun.Spec(name, jvm.description(), current, jvm.commandLine(), jvm.http2()), phases,
                    phase -> plan.phaseDuration(phase, quick));
            if (!server.started()) {
                // the plan's own server JVMs must start: unlike the matrix's attempts, a refusal here is a broken run
                throw new IllegalStateException("server JVM " + name + " did not start: " + String.join(" / ", server.jvmSays())
                        + " (see " + out.resolve("logs").resolve(name + ".log") + ")");
            }
            servers.add(server);
        });
        return new Record(List.copyOf(servers), List.copyOf(skipped));
    }
}
