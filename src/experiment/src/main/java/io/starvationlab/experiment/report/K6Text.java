package io.starvationlab.experiment.report;

import java.util.List;
import java.util.Locale;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.K6Comparison;
import io.starvationlab.experiment.results.ProbeReach;

/** The report's section on the k6 suite beside the Java runner, and how the runner's probes came through the event loops. */
final class K6Text {

    private K6Text() {
    }

    static String markdown(K6Comparison k6, List<ProbeReach> reach) {
        StringBuilder md = new StringBuilder("\n## k6 beside the Java runner\n\n");
        if (!k6.ran()) {
            md.append("Not run: ").append(k6.notRun()).append(".\n\n");
        } else if (k6.failure() != null) {
            md.append("`").append(k6.version()).append("` ran and gave no figures: ").append(k6.failure()).append(".\n\n");
        } else {
            md.append(String.format(Locale.ROOT, "`k6 run k6/starvation.js` (%s) on the default server JVM after the runner's phases, the runner's"
                    + " probes stopped: exit %d after %.0f s, %s, %s. Each cell is runner / k6; throughput is over each load's steady state (k6's: the"
                    + " answers inside its window over the window less one request's wait, its VUs all starting at once); the p50 of the probes sent while the load ran; event loops:"
                    + " reached of the server's (answers of each: the runner's over the phase and its drain, k6's over the load window).%n%n", k6.version(), k6.exitCode(), k6.seconds(),
                    k6.thresholdsCrossed().isEmpty() ? "every threshold as expected" : "thresholds crossed: " + String.join(", ", k6.thresholdsCrossed()),
                    k6.droppedIterations() == 0 ? "no probe dropped" : k6.droppedIterations() + " probes dropped"));
            md.append("| phase | verdict | req/s | /probe/virtual p50 ms | event loops reached by /probe/virtual |\n|---|---|---|---|---|\n");
            for (K6Comparison.Row row : k6.rows()) {
                md.append("| ").append(row.phase()).append(" | ").append(row.javaVerdict()).append(" / ").append(row.k6Verdict())
                        .append(" | ").append(Figures.fixed(row.javaPerSecond())).append(" / ").append(row.k6PerSecond() == null ? "-" : Figures.fixed(row.k6PerSecond()))
                        .append(" | ").append(Figures.fixed(row.javaP50Millis())).append(" / ").append(row.k6P50Millis() == null ? "-" : Figures.fixed(row.k6P50Millis()))
                        .append(" | ").append(row.javaReach() == null ? "-" : row.javaReach().describe()).append(" / ")
                        .append(row.k6Reach() == null ? "-" : row.k6Reach().describe()).append(" |\n");
            }
            md.append('\n');
        }
        List<ProbeReach> notEven = reach.stream().filter(r -> !Boolean.TRUE.equals(r.even())).toList();
        md.append(String.format(Locale.ROOT, "The runner's /probe/virtual reached every event loop evenly in %d of %d phases",
                reach.stream().filter(r -> Boolean.TRUE.equals(r.even())).count(), reach.size()));
        md.append(notEven.isEmpty() ? ".\n" : "; not in: " + String.join("; ", notEven.stream()
                .map(r -> r.phase() + " " + r.describe() + (r.why() == null ? "" : " (" + r.why() + ")")).toList()) + ".\n");
        return md.toString();
    }
}
