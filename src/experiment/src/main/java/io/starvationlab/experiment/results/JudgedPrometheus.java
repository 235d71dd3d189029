package io.starvationlab.experiment.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonIgnore;

import io.starvationlab.experiment.prometheus.AlertEpisode;
import io.starvationlab.experiment.prometheus.AlertRules;
import io.starvationlab.experiment.prometheus.DashboardPanels;
import io.starvationlab.experiment.prometheus.MeasuredPrometheus;
import io.starvationlab.experiment.prometheus.PhaseWindow;

/**
 * What the run's own Prometheus saw, set against the phases: each alert in each phase, how soon each alert
 * caught a starved phase, the dashboard's panels with the phases they had data in, and the server's own cost.
 * Field names are stable: {@code report.json} carries it as {@code prometheus}; the first four as in {@link MeasuredPrometheus}.
 *
 * @param record what Prometheus recorded, for the findings and the timeline picture
 */
public record JudgedPrometheus(boolean measured, String note, double peakRssMegabytes, double addedSeconds, List<Rule> rules,
        List<AlertRow> alerts, List<PanelRow> panels, @JsonIgnore MeasuredPrometheus record) {

    /** An alert rule and how soon it went pending after each starved phase began (onsets only). */
    public record Rule(String alert, String expr, long forSeconds, List<Double> detectionSeconds) {
    }

    /**
     * An alert in a phase: when it went pending and firing after the phase started and when it resolved after the phase's
     * load ended, in seconds, null where it did not happen; {@code carriedFrom} the phase it was still active from.
     */
    public record AlertRow(String phase, String verdict, String alert, Double pendingAfterStart, Double firingAfterStart,
            Double resolvedAfterLoad, String carriedFrom) {
    }

    /** A dashboard panel: its queries as run, the phases it is meant for, those where it had data. */
    public record PanelRow(String title, String row, List<String> queries, String meantFor, List<String> phasesWithData,
            List<String> meantButEmpty) {
    }

    public static JudgedPrometheus of(MeasuredPrometheus record) {
        if (!record.measured()) {
            return new JudgedPrometheus(false, record.note(), 0, 0, List.of(), List.of(), List.of(), record);
        }
        List<PanelRow> panels = new ArrayList<>();
        for (MeasuredPrometheus.PanelSeries seen : record.panels()) {
            DashboardPanels.Panel panel = seen.panel();
            List<String> withData = record.windows().stream().filter(w -> !w.unjudged())
                    .filter(w -> seen.series().stream().anyMatch(s -> s.hasValueBetween(w.start(), w.end()))).map(PhaseWindow::name).toList();
            List<String> meantButEmpty = record.windows().stream().filter(w -> panel.meantFor(w, record.jdk())).map(PhaseWindow::name)
                    .filter(name -> !withData.contains(name)).toList();
            panels.add(new PanelRow(panel.title(), panel.row(), panel.queries(), panel.meantFor(), withData, meantButEmpty));
        }
        List<Rule> rules = record.alerts().stream().map(alert -> new Rule(alert.name(), alert.expr(), alert.holdFor().toSeconds(),
                detectionSeconds(record, alert.name()))).toList();
        return new JudgedPrometheus(true, record.note(), record.peakRssMegabytes(), record.addedSeconds(), rules, rows(record),
                List.copyOf(panels), record);
    }

    static List<AlertRow> rows(MeasuredPrometheus record) {
        List<AlertRow> rows = new ArrayList<>();
        for (PhaseWindow phase : record.windows()) {
            for (AlertRules.Alert alert : record.alerts()) {
                Optional<AlertEpisode> found = record.episodeDuring(phase, alert.name());
                if (found.isEmpty()) {
                    rows.add(new AlertRow(phase.name(), phase.verdict(), alert.name(), null, null, null, null));
                    continue;
                }
                AlertEpisode episode = found.get();
                boolean carried = episode.pending().isBefore(phase.start());
                rows.add(new AlertRow(phase.name(), phase.verdict(), alert.name(), carried ? null : MeasuredPrometheus.seconds(phase.start(), episode.pending()),
                        episode.firing() == null ? null : MeasuredPrometheus.seconds(phase.start(), episode.firing()),
                        episode.resolved() == null ? null : MeasuredPrometheus.seconds(phase.loadEnd(), episode.resolved()),
                        carried ? record.phaseAt(episode.pod(), episode.pending()).map(PhaseWindow::name).orElse("before the run") : null));
            }
        }
        return rows;
    }

    /** Seconds from each clean onset of {@code alert} to its starved phase's start (not counting alerts carried over). */
    static List<Double> detectionSeconds(MeasuredPrometheus record, String alert) {
        return record.windows().stream().filter(PhaseWindow::starved)
                .flatMap(phase -> record.episodeDuring(phase, alert).filter(e -> !e.pending().isBefore(phase.start()))
                        .map(e -> MeasuredPrometheus.seconds(phase.start(), e.pending())).stream())
                .toList();
    }
}
