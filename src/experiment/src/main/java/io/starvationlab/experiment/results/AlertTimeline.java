package io.starvationlab.experiment.results;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import io.starvationlab.experiment.prometheus.AlertEpisode;
import io.starvationlab.experiment.prometheus.AlertRules;
import io.starvationlab.experiment.prometheus.PhaseWindow;

/**
 * The alerts of the run against its phases: for each phase and alert, when the alert went pending
 * and firing after the phase started and when it resolved after the phase's load ended.
 */
public record AlertTimeline(List<PhaseWindow> windows, List<AlertEpisode> episodes, List<AlertRules.Alert> alerts) {

    /** One cell of the phase x alert table; times in seconds, null where it did not happen. */
    public record Row(String phase, String verdict, String alert, Double pendingAfterStart, Double firingAfterStart,
            Double resolvedAfterLoad, String carriedFrom) {
    }

    /** The phase a moment belongs to on a pod: the last phase on that pod that started at or before it. */
    public Optional<PhaseWindow> phaseAt(String pod, Instant at) {
        return windows.stream().filter(w -> w.pod().equals(pod) && !w.start().isAfter(at)).max(Comparator.comparing(PhaseWindow::start));
    }

    /** The first episode of {@code alert} on the phase's pod that was active during the phase. */
    public Optional<AlertEpisode> episodeDuring(PhaseWindow phase, String alert) {
        return episodes.stream()
                .filter(e -> e.alert().equals(alert) && e.pod().equals(phase.pod()))
                .filter(e -> e.pending().isBefore(phase.end()) && (e.resolved() == null || e.resolved().isAfter(phase.start())))
                .findFirst();
    }

    public List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (PhaseWindow phase : windows) {
            for (AlertRules.Alert alert : alerts) {
                Optional<AlertEpisode> found = episodeDuring(phase, alert.name());
                if (found.isEmpty()) {
                    rows.add(new Row(phase.name(), phase.verdict(), alert.name(), null, null, null, null));
                    continue;
                }
                AlertEpisode episode = found.get();
                boolean carried = episode.pending().isBefore(phase.start());
                rows.add(new Row(phase.name(), phase.verdict(), alert.name(), carried ? null : seconds(phase.start(), episode.pending()),
                        episode.firing() == null ? null : seconds(phase.start(), episode.firing()),
                        episode.resolved() == null ? null : seconds(phase.loadEnd(), episode.resolved()),
                        carried ? phaseAt(episode.pod(), episode.pending()).map(PhaseWindow::name).orElse("before the run") : null));
            }
        }
        return rows;
    }

    /** Seconds from each clean onset of {@code alert} to its starved phase's start (not counting alerts carried over). */
    public List<Double> detectionSeconds(String alert) {
        return windows.stream().filter(PhaseWindow::starved)
                .flatMap(phase -> episodeDuring(phase, alert).filter(e -> !e.pending().isBefore(phase.start()))
                        .map(e -> seconds(phase.start(), e.pending())).stream())
                .toList();
    }

    public static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toMillis() / 1000.0;
    }
}
