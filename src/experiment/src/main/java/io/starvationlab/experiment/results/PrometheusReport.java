package io.starvationlab.experiment.results;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;

import io.starvationlab.experiment.prometheus.DashboardPanels;
import io.starvationlab.experiment.prometheus.PhaseWindow;
import io.starvationlab.experiment.prometheus.PrometheusRecord;

/**
 * What the run's own Prometheus saw: the alerts against the phases, the dashboard's panels, and the
 * server's own cost. Field names are stable: {@code report.json} carries it as {@code prometheus}.
 *
 * @param measured         false when no Prometheus ran, with the reason in {@code note}
 * @param peakRssMegabytes the Prometheus process's peak resident memory
 * @param addedSeconds     how long the run waited on Prometheus (start, the last alerts resolving, the queries)
 * @param record           what Prometheus recorded, for the findings and the timeline picture
 */
public record PrometheusReport(boolean measured, String note, double peakRssMegabytes, double addedSeconds, List<Rule> rules,
        List<AlertTimeline.Row> alerts, List<PanelRow> panels, @JsonIgnore AlertTimeline timeline, @JsonIgnore PrometheusRecord record) {

    /** An alert rule and how soon it went pending after each starved phase began (onsets only). */
    public record Rule(String alert, String expr, long forSeconds, List<Double> detectionSeconds) {
    }

    /** A dashboard panel: its queries as run, the phases it is meant for, those where it had data. */
    public record PanelRow(String title, String row, List<String> queries, String meantFor, List<String> phasesWithData,
            List<String> meantButEmpty) {
    }

    public static PrometheusReport of(PrometheusRecord record) {
        if (!record.measured()) {
            return new PrometheusReport(false, record.note(), 0, 0, List.of(), List.of(), List.of(), null, record);
        }
        AlertTimeline timeline = new AlertTimeline(record.windows(), record.episodes(), record.alerts());
        List<PanelRow> panels = new ArrayList<>();
        for (PrometheusRecord.PanelSeries seen : record.panels()) {
            DashboardPanels.Panel panel = seen.panel();
            List<String> withData = record.windows().stream().filter(w -> !PhaseWindow.WARM_UP.equals(w.verdict()))
                    .filter(w -> seen.series().stream().anyMatch(s -> s.hasValueBetween(w.start(), w.end()))).map(PhaseWindow::name).toList();
            List<String> meantButEmpty = record.windows().stream().filter(w -> panel.meantFor(w, record.jdk())).map(PhaseWindow::name)
                    .filter(name -> !withData.contains(name)).toList();
            panels.add(new PanelRow(panel.title(), panel.row(), panel.queries(), panel.meantFor(), withData, meantButEmpty));
        }
        List<Rule> rules = record.alerts().stream().map(alert -> new Rule(alert.name(), alert.expr(), alert.holdFor().toSeconds(),
                timeline.detectionSeconds(alert.name()))).toList();
        return new PrometheusReport(true, record.note(), record.peakRssMegabytes(), record.addedSeconds(), rules, timeline.rows(),
                List.copyOf(panels), timeline, record);
    }
}
