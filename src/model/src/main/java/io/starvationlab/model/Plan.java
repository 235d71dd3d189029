package io.starvationlab.model;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The experiment as data ({@code k6/plan.json}), shared with the k6 suite; {@code matrix}, the
 * cross-JDK matrix ({@link MatrixPlan}), and {@code coldStart}, fresh JVMs starved at once ({@link ColdStart}),
 * are the Java runner's only.
 */
public record Plan(int version, int carriers, StarvationRule starved, UntouchedRule untouched, ProbeSettings probes, double baselineSeconds, double drainSeconds,
        Quick quick, Map<String, Jvm> jvms, List<Phase> phases, MatrixPlan matrix, ColdStart coldStart) {

    private static final ObjectMapper JSON = new ObjectMapper().addMixIn(Object.class, Commented.class);

    /** Any object of the plan may say why in a {@code $comment}, which is no setting. */
    @JsonIgnoreProperties({ "$comment" })
    private interface Commented {
    }

    /**
     * {@code ratePerSecondByProbe} overrides {@code ratePerSecond} for the probes it names;
     * {@code leastEventLoopShare}: the least share of its even part of a probe's answers each event loop must serve.
     */
    public record ProbeSettings(double ratePerSecond, long timeoutMillis, Map<String, String> endpoints,
            Map<String, Double> ratePerSecondByProbe, double leastEventLoopShare) {

        /** Each endpoint's rate, by probe name. */
        public Map<String, Double> rates() {
            Map<String, Double> rates = new LinkedHashMap<>();
            endpoints.keySet().forEach(name -> rates.put(name,
                    ratePerSecondByProbe == null ? ratePerSecond : ratePerSecondByProbe.getOrDefault(name, ratePerSecond)));
            return rates;
        }
    }

    /**
     * A quick run: its baseline and drain, and the phases it runs, each for the seconds it gives; {@code k6Phases},
     * those of them the main job also runs on k6.
     */
    public record Quick(double baselineSeconds, double drainSeconds, Map<String, Double> phases, List<String> k6Phases) {
    }

    /**
     * A server JVM: flags, system properties, and the JDK feature versions it applies to; with
     * {@code http2}, its loads and probes share one HTTP/2 connection; with {@code cpuQuota}, it runs
     * inside a cgroup with a quota of that many CPUs and takes its carriers from it (null: 4 carriers by
     * {@code -XX:ActiveProcessorCount}).
     */
    public record Jvm(String description, List<String> flags, Map<String, String> properties, JdkRange jdk, boolean http2, Double cpuQuota)
            implements ServerJvm {
    }

    /** Something of the plan that holds on the JDKs of {@code jdk} only, on every one when it is null. */
    public interface OnJdks {

        JdkRange jdk();

        default boolean appliesTo(int feature) {
            return jdk() == null || jdk().includes(feature);
        }
    }

    /** A server JVM of the plan or of its matrix: its flags and system properties. */
    public interface ServerJvm extends OnJdks {

        List<String> flags();

        Map<String, String> properties();

        default List<String> commandLine() {
            List<String> line = new ArrayList<>(flags());
            properties().forEach((key, value) -> line.add("-D" + key + "=" + value));
            return line;
        }
    }

    public record JdkRange(Integer min, Integer max) {
        public boolean includes(int feature) {
            return (min == null || feature >= min) && (max == null || feature <= max);
        }

        @Override
        public String toString() {
            return "JDK " + (min == null ? "" : min) + "-" + (max == null ? "" : max);
        }
    }

    /** A phase of the plan; with {@code jdk}, it runs only on those JDKs (null: on every one). */
    public record Phase(String name, String jvm, String mode, String downstream, String lock, int ms, int concurrency,
            @JsonProperty("seconds") double seconds, JdkRange jdk) implements OnJdks {

        public String workPath() {
            return "/work/" + mode + "?ms=" + ms + "&downstream=" + downstream + "&lock=" + lock;
        }

        /** Whether a load of this phase holds its carriers: cpu work, native where a native frame pins, pinned where synchronized pins. */
        public boolean holdsCarriers(boolean nativePins, boolean synchronizedPins) {
            return "cpu".equals(mode) || "native".equals(mode) && nativePins || "pinned".equals(mode) && synchronizedPins;
        }
    }

    /** The project's own plan: {@code k6/plan.json} under {@code starvationlab.root} (the build sets it), else the working directory. */
    public static Path file() {
        return Path.of(System.getProperty("starvationlab.root", ".")).toAbsolutePath().normalize().resolve("k6/plan.json");
    }

    public static Plan ofProject() {
        return read(file());
    }

    /** A case file the rules and predictions are judged on in Java and in k6's Node checks: {@code k6/cases/}, beside the plan. */
    public static Path caseFile(String name) {
        return file().resolveSibling("cases").resolve(name);
    }

    public static Plan read(Path file) {
        try {
            return JSON.readValue(file.toFile(), Plan.class);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the plan " + file + ": " + e.getMessage(), e);
        }
    }

    /** The phases to run in the given mode, grouped by server JVM in order of first appearance. */
    public Map<String, List<Phase>> phasesByJvm(boolean quickMode) {
        List<String> unknown = quick.phases().keySet().stream().filter(name -> phases.stream().noneMatch(p -> p.name().equals(name))).toList();
        if (!unknown.isEmpty()) {
            throw new IllegalStateException("quick.phases names no phase of the plan: " + unknown);
        }
        List<String> notQuick = quick.k6Phases().stream().filter(name -> !quick.phases().containsKey(name)).toList();
        if (!notQuick.isEmpty()) {
            throw new IllegalStateException("quick.k6Phases names no phase of quick.phases: " + notQuick);
        }
        Map<String, List<Phase>> grouped = new LinkedHashMap<>();
        for (Phase phase : phases) {
            if (quickMode && !quick.phases().containsKey(phase.name())) {
                continue;
            }
            if (!jvms.containsKey(phase.jvm())) {
                throw new IllegalStateException("phase " + phase.name() + " names an unknown jvm " + phase.jvm());
            }
            grouped.computeIfAbsent(phase.jvm(), jvm -> new ArrayList<>()).add(phase);
        }
        return grouped;
    }

    public Duration phaseDuration(Phase phase, boolean quickMode) {
        double seconds = quickMode ? quick.phases().get(phase.name()) : phase.seconds();
        return Duration.ofMillis((long) (seconds * 1000));
    }

    public Duration baseline(boolean quickMode) {
        return Duration.ofMillis((long) ((quickMode ? quick.baselineSeconds() : baselineSeconds) * 1000));
    }

    public Duration drain(boolean quickMode) {
        return Duration.ofMillis((long) ((quickMode ? quick.drainSeconds() : drainSeconds) * 1000));
    }
}
