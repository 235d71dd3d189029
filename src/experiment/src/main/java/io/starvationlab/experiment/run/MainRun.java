package io.starvationlab.experiment.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.starvationlab.experiment.k6.K6Suite;
import io.starvationlab.experiment.prometheus.PrometheusRun;
import io.starvationlab.harness.CpuQuota;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.K6Binary;
import io.starvationlab.harness.Machine;
import io.starvationlab.model.ColdStart;
import io.starvationlab.model.Plan;

/**
 * Runs the plan's phases on the JDK running this code, with the one run loop ({@link ServerRun}): each
 * server JVM the plan names in turn, with its phases; a server JVM or phase for other JDKs is skipped and
 * said so, and so is a server JVM inside a CPU quota where none can be set (a failure with {@code CI=true})
 * or where the machine has fewer processors than the quota.
 */
public final class MainRun {

    /** The server JVM the k6 suite runs against: it cannot restart a server, so it runs the plan's phases of this one. */
    public static final String K6_SERVER = "default";

    private final RunSettings run;
    private final ServerStarts starts;
    private final Jdks.Jdk current = Jdks.current();
    private final int processors = Runtime.getRuntime().availableProcessors();
    private final List<MeasuredMainPlan.Skipped> skipped = new ArrayList<>();
    /** The server JVMs to run, in order, each a fresh process with its phases. */
    private final Map<ServerRun.Spec, List<Plan.Phase>> servers = new LinkedHashMap<>();
    private final String noQuota;
    private List<ColdStartRun.Turn> coldStarts = List.of();

    /** The chosen phases of the plan in quick or full mode, by server JVM, each server JVM planned into {@code starts} in the order they will run. */
    public MainRun(RunSettings run, ServerStarts starts) {
        this.run = run;
        this.starts = starts;
        Plan plan = run.plan();
        Map<String, List<Plan.Phase>> groups = new LinkedHashMap<>();
        plan.phasesByJvm(run.quick()).forEach((jvm, phases) -> {
            List<Plan.Phase> chosen = phases.stream().filter(phase -> run.chosen(phase.name())).toList();
            chosen.stream().filter(phase -> !phase.appliesTo(current.feature()))
                    .forEach(phase -> skipped.add(new MeasuredMainPlan.Skipped(jvm, phase.name(), phase.jdk() + " only")));
            chosen = chosen.stream().filter(phase -> phase.appliesTo(current.feature())).toList();
            if (!chosen.isEmpty()) {
                groups.put(jvm, chosen);
            }
        });
        this.noQuota = groups.keySet().stream().anyMatch(name -> plan.jvms().get(name).cpuQuota() != null)
                ? CpuQuota.unavailableReason().orElse(null) : null;
        if (noQuota != null) {
            if (Machine.inCi()) {
                throw new IllegalStateException("No CPU quota can be set here, required in CI for the plan's server JVMs inside one: " + noQuota);
            }
            run.progress().accept("SKIPPED the server JVMs inside a CPU quota: " + noQuota);
        }
        groups.forEach((name, phases) -> {
            Plan.Jvm jvm = plan.jvms().get(name);
            Optional<String> why = whyNotHere(jvm, current.feature(), noQuota, processors);
            if (why.isPresent()) {
                skipped.add(new MeasuredMainPlan.Skipped(name, null, why.get()));
                run.progress().accept("Skipping server " + name + " (" + why.get() + ")");
                return;
            }
            ServerRun.Spec spec = new ServerRun.Spec(name, jvm.description(), current, jvm.commandLine(), jvm.http2(), jvm.cpuQuota());
            starts.plan(spec);
            servers.put(spec, phases);
        });
    }

    /**
     * Plans the cold starts' fresh JVMs into {@code starts}, after whatever was planned before: the matrix's JVMs go first,
     * since the cold starts' lazy races hold windows of their own for the JVMs after them and the matrix's short cells none.
     */
    public void planColdStarts() {
        Plan plan = run.plan();
        coldStarts = plan.coldStart() != null && run.chosen(ColdStart.NAME) ? ColdStartRun.plan(plan.coldStart(), run.quick(), current, starts)
                : List.of();
    }

    /**
     * Runs the planned server JVMs' phases, scraped by {@code prometheus}; then {@code k6} (when found) on the default
     * server JVM's phases (in quick mode those of the plan's {@code quick.k6Phases}); then the cold-start runs; the time on {@code clock}.
     */
    public MeasuredMainPlan run(PrometheusRun prometheus, Optional<K6Suite> k6, RunClock clock) {
        Plan plan = run.plan();
        boolean quick = run.quick();
        int total = servers.values().stream().mapToInt(List::size).sum();
        run.progress().accept(String.format("%s run: %d phases on %d server JVMs, %s", quick ? "Quick" : "Full", total, servers.size(),
                current.describe()));
        List<String> k6Phases = servers.entrySet().stream().filter(server -> server.getKey().name().equals(K6_SERVER))
                .flatMap(server -> server.getValue().stream()).map(Plan.Phase::name).filter(name -> !quick || plan.quick().k6Phases().contains(name)).toList();
        K6Suite.Run[] k6Run = new K6Suite.Run[1];
        ServerRun loop = new ServerRun(new ServerRun.Settings(plan.probes(), plan.baseline(quick), plan.drain(quick), plan.starved(), run.logs()),
                prometheus, starts, clock, run.progress(), total, k6.isEmpty() || k6Phases.isEmpty() ? null : (spec, server) -> {
                    if (spec.name().equals(K6_SERVER)) {
                        run.progress().accept("  k6 beside the runner: starvation.js on " + String.join(", ", k6Phases) + (quick ? " (quick)" : ""));
                        k6Run[0] = k6.get().run(server.baseUri(), k6Phases, quick, run.out().resolve("k6"), run.logs().resolve("k6.log"));
                        run.progress().accept(String.format(Locale.ROOT, "  k6: exit %d after %.0f s%s", k6Run[0].exitCode(), k6Run[0].seconds(),
                                k6Run[0].failure() == null ? "" : ": " + k6Run[0].failure()));
                    }
                });
        List<MeasuredServer> measured = new ArrayList<>();
        servers.forEach((spec, phases) -> {
            MeasuredServer server = loop.run(spec, phases, phase -> plan.phaseDuration(phase, quick), "phases: " + spec.name());
            if (!server.started()) {
                // the plan's own server JVMs must start: unlike the matrix's attempts, a refusal here is a broken run
                throw new IllegalStateException("server JVM " + spec.name() + " did not start: " + String.join(" / ", server.jvmSays())
                        + " (see " + run.logs().resolve(spec.name() + ".log") + ")");
            }
            measured.add(server);
        });
        String k6NotRun = k6.isEmpty() ? K6Binary.NOT_FOUND : k6Phases.isEmpty() ? "no phase of the default server JVM in this run"
                : k6Run[0] == null ? "the default server JVM did not run its phases" : null;
        List<MeasuredColdStart> cold = coldStarts.isEmpty() ? List.of()
                : ColdStartRun.run(plan.coldStart(), quick, coldStarts, starts, clock, run.progress());
        return new MeasuredMainPlan(List.copyOf(measured), List.copyOf(skipped), noQuota, processors, k6Run[0], k6NotRun, cold);
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
