package io.starvationlab.experiment.prometheus;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonIgnore;

import io.starvationlab.experiment.Finding;

/**
 * What the run's own Prometheus saw: the alerts against the phases, the dashboard's panels, and the
 * server's own cost. Field names are stable: {@code report.json} carries it as {@code prometheus}.
 *
 * @param measured         false when no Prometheus ran, with the reason in {@code note}
 * @param peakRssMegabytes the Prometheus process's peak resident memory
 * @param addedSeconds     how long the run waited on Prometheus (start, the last alerts resolving, the queries)
 */
public record PrometheusReport(boolean measured, String note, double peakRssMegabytes, double addedSeconds, List<Rule> rules,
        List<AlertTimeline.Row> alerts, List<PanelRow> panels, @JsonIgnore List<Finding> findings) {

    /** An alert rule and how soon it went pending after each starved phase began (onsets only). */
    public record Rule(String alert, String expr, long forSeconds, List<Double> detectionSeconds) {
    }

    /**
     * A dashboard panel: its queries as run, the phases it is meant for, those where it had data.
     */
    public record PanelRow(String title, String row, List<String> queries, String meantFor, List<String> phasesWithData,
            List<String> meantButEmpty) {
    }

    public static PrometheusReport notMeasured(String why) {
        return new PrometheusReport(false, why, 0, 0, List.of(), List.of(), List.of(), List.of());
    }

    /** The report's section on Prometheus, in Markdown. */
    public String markdown() {
        StringBuilder md = new StringBuilder("\n## Alerts and dashboard on a live Prometheus\n\n");
        if (!measured) {
            return md.append("Not measured: ").append(note).append('\n').toString();
        }
        md.append(note).append(String.format(Locale.ROOT, " Prometheus used at most %.0f MB and added %.1f s to the run.%n%n",
                peakRssMegabytes, addedSeconds));
        md.append("![the run over time](timeline.svg)\n\n");
        md.append("Detection latency (seconds from a starved phase's start to pending; alerts still active from the phase before not counted):\n\n");
        md.append("| alert | for: | detection latency s (min / median / max) | onsets |\n|---|---|---|---|\n");
        for (Rule rule : rules) {
            List<Double> sorted = rule.detectionSeconds().stream().sorted().toList();
            md.append("| ").append(rule.alert()).append(" | ").append(rule.forSeconds()).append(" s | ")
                    .append(sorted.isEmpty() ? "-" : String.format(Locale.ROOT, "%.0f / %.0f / %.0f", sorted.getFirst(),
                            sorted.get(sorted.size() / 2), sorted.getLast()))
                    .append(" | ").append(sorted.size()).append(" |\n");
        }
        md.append("\n### Alerts per phase\n\nSeconds after the phase's load started (pending, firing) and after it ended (resolved); "
                + "'from X': still active from phase X.\n\n| phase | verdict |");
        List<String> names = rules.stream().map(Rule::alert).toList();
        names.forEach(name -> md.append(' ').append(name).append(" |"));
        md.append("\n|---|---|");
        names.forEach(name -> md.append("---|"));
        md.append('\n');
        List<String> phases = alerts.stream().map(AlertTimeline.Row::phase).distinct().toList();
        for (String phase : phases) {
            List<AlertTimeline.Row> cells = alerts.stream().filter(row -> row.phase().equals(phase)).toList();
            md.append("| ").append(phase).append(" | ").append(cells.getFirst().verdict()).append(" |");
            for (String name : names) {
                md.append(' ').append(cells.stream().filter(row -> row.alert().equals(name)).findFirst().map(PrometheusReport::cell).orElse("-"))
                        .append(" |");
            }
            md.append('\n');
        }
        md.append("\n### Dashboard panels\n\nEach panel's queries as Grafana runs them with the dashboard's defaults, and the phases "
                + "in which they returned a number.\n\n| panel | queries | meant for | data in | meant for, no data |\n|---|---|---|---|---|\n");
        for (PanelRow panel : panels) {
            md.append("| ").append(panel.title()).append(" | ")
                    .append(panel.queries().stream().map(q -> "`" + q.replace("|", "\\|") + "`").collect(Collectors.joining("<br>")))
                    .append(" | ").append(panel.meantFor()).append(" | ").append(panel.phasesWithData().size()).append(" phases | ")
                    .append(panel.meantButEmpty().isEmpty() ? "-" : String.join(", ", panel.meantButEmpty())).append(" |\n");
        }
        return md.toString();
    }

    private static String cell(AlertTimeline.Row row) {
        if (row.pendingAfterStart() == null && row.carriedFrom() == null) {
            return "-";
        }
        String pending = row.carriedFrom() != null ? "from " + row.carriedFrom() : String.format(Locale.ROOT, "pending %+.0f", row.pendingAfterStart());
        String firing = row.firingAfterStart() == null ? "" : String.format(Locale.ROOT, ", firing %+.0f", row.firingAfterStart());
        String resolved = row.resolvedAfterLoad() == null ? ", active at the end" : String.format(Locale.ROOT, ", resolved %+.0f", row.resolvedAfterLoad());
        return pending + firing + resolved;
    }
}
