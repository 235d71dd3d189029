package io.starvationlab.experiment.report;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.starvationlab.experiment.results.AlertTimeline;
import io.starvationlab.experiment.results.PrometheusReport;

/** The report's section on the alerts and the dashboard on the run's own Prometheus. */
final class AlertText {

    private AlertText() {
    }

    static String markdown(PrometheusReport report) {
        StringBuilder md = new StringBuilder("\n## Alerts and dashboard on a live Prometheus\n\n");
        if (!report.measured()) {
            return md.append("Not measured: ").append(report.note()).append('\n').toString();
        }
        md.append(report.note()).append(String.format(Locale.ROOT, " Prometheus used at most %.0f MB and added %.1f s to the run.%n%n",
                report.peakRssMegabytes(), report.addedSeconds()));
        md.append("![the run over time](" + TimelineChart.FILE + ")\n\n");
        md.append("Detection latency (seconds from a starved phase's start to pending; alerts still active from the phase before not counted):\n\n");
        md.append("| alert | for: | detection latency s (min / median / max) | onsets |\n|---|---|---|---|\n");
        for (PrometheusReport.Rule rule : report.rules()) {
            List<Double> sorted = rule.detectionSeconds().stream().sorted().toList();
            md.append("| ").append(rule.alert()).append(" | ").append(rule.forSeconds()).append(" s | ")
                    .append(sorted.isEmpty() ? "-" : String.format(Locale.ROOT, "%.0f / %.0f / %.0f", sorted.getFirst(),
                            sorted.get(sorted.size() / 2), sorted.getLast()))
                    .append(" | ").append(sorted.size()).append(" |\n");
        }
        md.append("\n### Alerts per phase\n\nSeconds after the phase's load started (pending, firing) and after it ended (resolved); "
                + "'from X': still active from phase X.\n\n| phase | verdict |");
        List<String> names = report.rules().stream().map(PrometheusReport.Rule::alert).toList();
        names.forEach(name -> md.append(' ').append(name).append(" |"));
        md.append("\n|---|---|");
        names.forEach(name -> md.append("---|"));
        md.append('\n');
        List<String> phases = report.alerts().stream().map(AlertTimeline.Row::phase).distinct().toList();
        for (String phase : phases) {
            List<AlertTimeline.Row> cells = report.alerts().stream().filter(row -> row.phase().equals(phase)).toList();
            md.append("| ").append(phase).append(" | ").append(cells.getFirst().verdict()).append(" |");
            for (String name : names) {
                md.append(' ').append(cells.stream().filter(row -> row.alert().equals(name)).findFirst().map(AlertText::cell).orElse("-"))
                        .append(" |");
            }
            md.append('\n');
        }
        md.append("\n### Dashboard panels\n\nEach panel's queries as Grafana runs them with the dashboard's defaults, and the phases "
                + "in which they returned a number.\n\n| panel | queries | meant for | data in | meant for, no data |\n|---|---|---|---|---|\n");
        for (PrometheusReport.PanelRow panel : report.panels()) {
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
