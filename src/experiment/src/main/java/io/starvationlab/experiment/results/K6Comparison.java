package io.starvationlab.experiment.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.starvationlab.experiment.k6.K6Suite;
import io.starvationlab.experiment.k6.K6Summary;

/**
 * The k6 suite beside the Java runner on the same server JVM, phase by phase: the verdict, the throughput,
 * {@code /probe/virtual}'s p50 and the event loops it reached, as each client measured them. The Java
 * runner ran first, k6 after it, on the same server.
 *
 * @param notRun            why k6 did not run (not found, or no phase of the default server JVM); null when it ran
 * @param failure           why k6's figures are missing though it ran (it wrote no summary); null otherwise
 * @param thresholdsCrossed the k6 thresholds that went other than expected
 */
public record K6Comparison(String notRun, String version, int exitCode, double seconds, String failure, List<String> thresholdsCrossed,
        long droppedIterations, List<Row> rows) {

    /**
     * One phase as both clients measured it.
     *
     * @param k6Observed    k6's own word: starves, collapses, free, skipped or no data
     * @param javaPerSecond the runner's throughput in the load's steady state; {@code k6PerSecond}: k6's, its window's answers
     *                      over the window less one request's wait ({@link #steady})
     * @param javaP50Millis the runner's {@code /probe/virtual} p50 over the probes sent while the load ran, as k6 counts its own
     */
    public record Row(String phase, String javaVerdict, String k6Verdict, String k6Observed, double javaPerSecond, Double k6PerSecond,
            double javaP50Millis, Double k6P50Millis, ProbeReach javaReach, ProbeReach k6Reach) {
    }

    public static K6Comparison notRun(String why) {
        return new K6Comparison(why, null, 0, 0, null, List.of(), 0, List.of());
    }

    /**
     * k6's {@code run} beside the Java runner's {@code phases}, the runner's {@code /probe/virtual} p50 over the probes sent
     * while each phase's load ran ({@code p50WhileLoaded}: k6's window, without the drain) and their {@code reach}, judged by
     * the plan's event-loop rule.
     */
    static K6Comparison of(K6Suite.Run run, List<JudgedPhase> phases, Map<String, Double> p50WhileLoaded, Map<String, Double> windowSeconds,
            List<ProbeReach> reach, double leastShare) {
        if (run.summary() == null) {
            return new K6Comparison(null, run.version(), run.exitCode(), run.seconds(), run.failure(), List.of(), 0, List.of());
        }
        K6Summary summary = run.summary();
        List<Row> rows = new ArrayList<>();
        for (String name : run.phases()) {
            Optional<JudgedPhase> java = phases.stream().filter(p -> p.name().equals(name)).findFirst();
            K6Summary.Phase k6 = summary.phases().get(name);
            if (java.isEmpty()) {
                continue;
            }
            ProbeReach javaReach = reach.stream().filter(r -> r.phase().equals(name)).findFirst().orElse(null);
            ProbeReach k6Reach = null;
            if (k6 != null) {
                Map<String, Long> numbered = new LinkedHashMap<>(k6.virtualAnswers());
                numbered.remove("other");
                k6Reach = ProbeReach.of(name, "k6", numbered, k6.eventLoops() == null ? 0 : k6.eventLoops(), leastShare, null);
            }
            rows.add(new Row(name, java.get().verdict(), k6 == null ? "no data" : verdict(k6.observed()), k6 == null ? "no data" : k6.observed(),
                    java.get().throughputPerSecond(), k6 == null || k6.perSecond() == null ? null
                            : steady(k6.perSecond(), windowSeconds.getOrDefault(name, Double.NaN), java.get().ms()),
                    p50WhileLoaded.getOrDefault(name, java.get().probes().get("virtual").p50Millis()),
                    k6 == null ? null : k6.virtualP50Millis(), javaReach, k6Reach));
        }
        return new K6Comparison(null, run.version(), run.exitCode(), run.seconds(), null, summary.thresholdsCrossed(), summary.droppedIterations(),
                List.copyOf(rows));
    }

    /**
     * k6's window rate as a rate over its steady state: all its VUs start with the window, so no answer comes in the
     * first request's wait ({@code ms}); the whole window where the rest is under a quarter of it, as {@code ClosedLoad.SteadyState}.
     */
    static double steady(double perSecond, double seconds, int ms) {
        double steadySeconds = seconds - ms / 1000.0;
        return Double.isNaN(seconds) || steadySeconds < seconds / 4 ? perSecond : perSecond * seconds / steadySeconds;
    }

    /** k6's word as the Java runner's verdict: starves and collapses are starved by the plan's rule, free is not. */
    public static String verdict(String observed) {
        return switch (observed) {
            case "starves", "collapses" -> JudgedPhase.STARVED;
            case "free" -> JudgedPhase.NOT_STARVED;
            default -> observed;
        };
    }

    public boolean ran() {
        return notRun == null;
    }
}
