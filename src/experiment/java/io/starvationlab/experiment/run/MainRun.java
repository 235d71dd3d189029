package io.starvationlab.experiment.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

import io.starvationlab.experiment.plan.ColdStart;
import io.starvationlab.experiment.plan.Plan;
import io.starvationlab.experiment.prometheus.PrometheusRun;
import io.starvationlab.experiment.server.CpuQuota;
import io.starvationlab.experiment.server.Jdks;

/**
 * Runs the plan's phases on the JDK running this code, with the one run loop ({@link ServerRun}): each
 * server JVM the plan names in turn, with its phases; a server JVM or phase for other JDKs is skipped and
 * said so, and so is a server JVM inside a CPU quota where none can be set (a failure with {@code CI=true})
 * or where the machine has fewer processors than the quota.
 */
public final class MainRun {

    /**
     * The main plan as run: each server JVM with its phases, the server JVMs and phases skipped here, why no
     * CPU quota can be set here when the plan has server JVMs inside one (null otherwise), and the cold-start runs.
     */
    public record Record(List<ServerRecord> servers, List<Skipped> skipped, String cpuQuotaUnavailable, List<ColdStartRecord> coldStarts) {
    }

    /** A server JVM of the plan, or one of its phases, not run here ({@code phase} null for the whole server JVM). */
    public record Skipped(String jvm, String phase, String why) {

        @Override
        public String toString() {
            return (phase == null ? "server JVM " + jvm : "phase " + phase) + " (" + why + ")";
        }
    }

    private MainRun() {
    }

    /**
     * The phases of {@code plan} in quick or full mode, then its cold-start runs; only those named in {@code only}
     * ({@link ColdStart#NAME} for the cold-start runs) unless it is empty.
     */
    public static Record run(Plan plan, boolean quick, Set<String> only, Path out, PrometheusRun prometheus, Consumer<String> progress) {
        Jdks.Jdk current = Jdks.current();
        List<Skipped> skipped = new ArrayList<>();
        Map<String, List<Plan.Phase>> groups = new LinkedHashMap<>();
        plan.phasesByJvm(quick).forEach((jvm, phases) -> {
            List<Plan.Phase> chosen = phases.stream().filter(phase -> only.isEmpty() || only.contains(phase.name())).toList();
            chosen.stream().filter(phase -> !phase.appliesTo(current.feature()))
                    .forEach(phase -> skipped.add(new Skipped(jvm, phase.name(), phase.jdk() + " only")));
            chosen = chosen.stream().filter(phase -> phase.appliesTo(current.feature())).toList();
            if (!chosen.isEmpty()) {
                groups.put(jvm, chosen);
            }
        });
        String noQuota = groups.keySet().stream().anyMatch(name -> plan.jvms().get(name).cpuQuota() != null)
                ? CpuQuota.unavailableReason().orElse(null) : null;
        if (noQuota != null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new IllegalStateException("No CPU quota can be set here, required in CI for the plan's server JVMs inside one: " + noQuota);
            }
            progress.accept("SKIPPED the server JVMs inside a CPU quota: " + noQuota);
        }
        int total = groups.values().stream().mapToInt(List::size).sum();
        progress.accept(String.format("%s run: %d phases on %d server JVMs, %s", quick ? "Quick" : "Full", total, groups.size(), current.describe()));
        ServerRun loop = new ServerRun(new ServerRun.Settings(plan.probes(), plan.baseline(quick), plan.drain(quick), plan.starved(),
                out.resolve("logs")), prometheus, progress).expecting(total);
        List<ServerRecord> servers = new ArrayList<>();
        groups.forEach((name, phases) -> {
            Plan.Jvm jvm = plan.jvms().get(name);
            Optional<String> why = whyNotHere(jvm, current.feature(), noQuota, Runtime.getRuntime().availableProcessors());
            if (why.isPresent()) {
                skipped.add(new Skipped(name, null, why.get()));
                progress.accept("Skipping server " + name + " (" + why.get() + ")");
                return;
            }
            ServerRecord server = loop.run(new ServerRun.Spec(name, jvm.description(), current, jvm.commandLine(), jvm.http2(), jvm.cpuQuota()),
                    phases, phase -> plan.phaseDuration(phase, quick));
            if (!server.started()) {
                // the plan's own server JVMs must start: unlike the matrix's attempts, a refusal here is a broken run
                throw new IllegalStateException("server JVM " + name + " did not start: " + String.join(" / ", server.jvmSays())
                        + " (see " + out.resolve("logs").resolve(name + ".log") + ")");
            }
            servers.add(server);
        });
        List<ColdStartRecord> coldStarts = plan.coldStart() != null && (only.isEmpty() || only.contains(ColdStart.NAME))
                ? ColdStartRun.run(plan.coldStart(), quick, current, out.resolve("logs"), progress) : List.of();
        return new Record(List.copyOf(servers), List.copyOf(skipped), noQuota, coldStarts);
    }

    /**
     * Why a server JVM of the plan does not run here, if it does not: it is for other JDKs, or it runs inside
     * a CPU quota where none can be set ({@code noQuota}), or of more CPUs than the machine's {@code processors}
     * (the JVM would take the machine's count, and its carriers would not be the quota's).
     */
    static Optional<String> whyNotHere(Plan.Jvm jvm, int feature, String noQuota, int processors) {
        if (!jvm.appliesTo(feature)) {
            return Optional.of(jvm.jdk() + " only; this is JDK " + feature);
        }
        if (jvm.cpuQuota() != null && noQuota != null) {
            return Optional.of("no CPU quota can be set here: " + noQuota);
        }
        if (jvm.cpuQuota() != null && jvm.cpuQuota() > processors) {
            return Optional.of(String.format(Locale.ROOT, "a quota of %s CPUs needs as many processors; this machine has %d",
                    ServerRun.cpus(jvm.cpuQuota()), processors));
        }
        return Optional.empty();
    }
}
