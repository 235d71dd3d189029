package io.starvationlab.experiment.findings;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.starvationlab.experiment.prometheus.AlertEpisode;
import io.starvationlab.experiment.prometheus.AlertRules;
import io.starvationlab.experiment.prometheus.MeasuredPrometheus;
import io.starvationlab.experiment.prometheus.PhaseWindow;
import io.starvationlab.experiment.prometheus.PrometheusRun;
import io.starvationlab.experiment.prometheus.PrometheusServer;
import io.starvationlab.experiment.results.JudgedPrometheus;

/**
 * The findings the starvation alerts must meet on the run's own Prometheus (caught in every starved
 * phase, soon, firing, resolving, and silent elsewhere), and the dashboard's panels showing data.
 */
final class AlertFindings {
    /** How soon after a starved phase starts its starvation alerts must be pending. */
    static final Duration DETECTION_BOUND = Duration.ofSeconds(5);

    private AlertFindings() {
    }

    static List<Finding> evaluate(JudgedPrometheus report) {
        if (!report.measured()) {
            return List.of();
        }
        MeasuredPrometheus timeline = report.record();
        List<Finding> findings = new ArrayList<>();
        List<PhaseWindow> starved = timeline.windows().stream().filter(PhaseWindow::starved).toList();
        for (String name : PrometheusRun.STARVATION_ALERTS) {
            Optional<AlertRules.Alert> rule = timeline.alerts().stream().filter(a -> a.name().equals(name)).findFirst();
            if (rule.isEmpty()) {
                findings.add(new Claim(id(name, "exists"), name + " exists", "an alert of that name in the PrometheusRule").judged("missing", false));
                continue;
            }
            findings.add(detection(timeline, rule.get(), starved));
            findings.add(firing(timeline, rule.get(), starved));
            findings.add(resolution(timeline, rule.get()));
        }
        findings.add(falseAlarms(timeline));
        findings.add(panels(report));
        return findings;
    }

    private static Finding detection(MeasuredPrometheus timeline, AlertRules.Alert alert, List<PhaseWindow> starved) {
        Claim claim = new Claim(id(alert.name(), "pending"), alert.name() + " goes pending within " + DETECTION_BOUND.toSeconds() + " s of the start"
                + " of every starved phase", "pending <= " + DETECTION_BOUND.toSeconds() + " s after the load starts, or still active from the starved phase"
                + " before");
        if (starved.isEmpty()) {
            return claim.notJudged("no starved phase in this run");
        }
        Tally tally = new Tally();
        for (PhaseWindow phase : starved) {
            Optional<AlertEpisode> episode = timeline.episodeDuring(phase, alert.name());
            if (episode.isEmpty()) {
                tally.add(phase.name() + " never", false);
            } else if (episode.get().pending().isBefore(phase.start())) {
                Optional<PhaseWindow> from = timeline.phaseAt(phase.pod(), episode.get().pending());
                tally.add(phase.name() + " still active from " + from.map(PhaseWindow::name).orElse("before the run"),
                        from.map(PhaseWindow::starved).orElse(false));
            } else {
                double latency = MeasuredPrometheus.seconds(phase.start(), episode.get().pending());
                tally.add(String.format(Locale.ROOT, "%s %.0f s", phase.name(), latency), latency <= DETECTION_BOUND.toSeconds());
            }
        }
        return tally.judged(claim, ", ");
    }

    private static Finding firing(MeasuredPrometheus timeline, AlertRules.Alert alert, List<PhaseWindow> starved) {
        long hold = alert.holdFor().toSeconds();
        Claim claim = new Claim(id(alert.name(), "fires"), alert.name() + " fires in every starved phase that outlasts its for: (" + hold + " s)",
                "firing before the phase ends, where the phase lasts longer than pending + for: + 2 evaluations");
        Tally tally = new Tally();
        for (PhaseWindow phase : starved) {
            Optional<AlertEpisode> episode = timeline.episodeDuring(phase, alert.name());
            if (episode.isEmpty()) {
                continue;
            }
            Instant pending = episode.get().pending().isBefore(phase.start()) ? phase.start() : episode.get().pending();
            Instant due = pending.plus(alert.holdFor()).plus(PrometheusServer.INTERVAL.multipliedBy(2));
            if (due.isAfter(phase.end())) {
                continue;
            }
            Instant firing = episode.get().firing();
            boolean fired = firing != null && firing.isBefore(phase.end());
            tally.add(fired ? String.format(Locale.ROOT, "%s firing at %.0f s", phase.name(), MeasuredPrometheus.seconds(phase.start(), firing))
                    : phase.name() + " not firing", fired);
        }
        return tally.isEmpty() ? claim.notJudged("no starved phase outlasts for: " + hold + " s in this run") : tally.judged(claim, ", ");
    }

    private static Finding resolution(MeasuredPrometheus timeline, AlertRules.Alert alert) {
        Claim claim = new Claim(id(alert.name(), "resolves"), alert.name() + " resolves after the starvation",
                "every episode that began in a starved phase resolves before the run ends");
        Tally tally = new Tally();
        for (AlertEpisode episode : timeline.episodes().stream().filter(e -> e.alert().equals(alert.name())).toList()) {
            Optional<PhaseWindow> began = timeline.phaseAt(episode.pod(), episode.pending()).filter(PhaseWindow::starved);
            if (began.isEmpty()) {
                continue;
            }
            // the last starved phase the episode lasted into is the starvation it resolves from
            PhaseWindow last = timeline.windows().stream().filter(w -> w.pod().equals(episode.pod()) && w.starved() && episode.activeAt(w.start()))
                    .max(Comparator.comparing(PhaseWindow::start)).orElse(began.get());
            tally.add(episode.resolved() == null ? last.name() + " still active when the run ended" : String.format(Locale.ROOT,
                    "%s %.0f s after its load", last.name(), MeasuredPrometheus.seconds(last.loadEnd(), episode.resolved())), episode.resolved() != null);
        }
        return tally.isEmpty() ? claim.notJudged("no episode began in a starved phase") : tally.judged(claim, ", ");
    }

    /**
     * An alert that fires (pages) in a phase that is not starved is a false alarm. One that only went
     * pending there is listed with the conditions that held: its {@code for:} is there to absorb such
     * spans (on this machine, a canary p99 above 100 ms while the load generator saturates the CPU).
     */
    private static Finding falseAlarms(MeasuredPrometheus timeline) {
        Claim claim = new Claim("no-false-alarms", "No false alarms: " + String.join(" and ", PrometheusRun.STARVATION_ALERTS) + " never fire in a phase that is"
                + " not starved", "no alert that went pending in a baseline or a not-starved phase fires before a starved phase begins (one still "
                + "active from an earlier phase is that phase's); a pending onset there is listed with the conditions that held");
        List<String> alarms = new ArrayList<>();
        List<String> pendingOnly = new ArrayList<>();
        long warmUps = 0;
        for (AlertEpisode episode : timeline.episodes()) {
            Optional<PhaseWindow> phase = timeline.phaseAt(episode.pod(), episode.pending());
            if (!PrometheusRun.STARVATION_ALERTS.contains(episode.alert()) || phase.map(PhaseWindow::starved).orElse(false)) {
                continue;
            }
            // the warm-up is the runner's own (a fresh JVM compiling every mode), a disturbed attempt measured again: judged by no claim
            if (phase.map(PhaseWindow::unjudged).orElse(false)) {
                warmUps++;
                continue;
            }
            String onset = episode.alert() + " in " + phase.map(PhaseWindow::name).orElse("no phase")
                    + (episode.onset().isEmpty() ? "" : " (at onset " + String.join("; ", episode.onset()) + ")");
            boolean firedUnstarved = episode.firing() != null
                    && !timeline.phaseAt(episode.pod(), episode.firing()).map(PhaseWindow::starved).orElse(false);
            (firedUnstarved ? alarms : pendingOnly).add(onset);
        }
        long quiet = timeline.windows().stream().filter(w -> !w.starved() && !w.unjudged()).count();
        return claim.judged((alarms.isEmpty() ? "0 false alarms in " + quiet + " phases that are not starved"
                : alarms.size() + " false alarms: " + String.join(", ", alarms))
                + (pendingOnly.isEmpty() ? "" : "; pending, never fired: " + String.join(", ", pendingOnly))
                + (warmUps == 0 ? "" : " (" + warmUps + " onset" + (warmUps == 1 ? "" : "s") + " during a warm-up or a disturbed attempt, not judged)"), alarms.isEmpty());
    }

    private static Finding panels(JudgedPrometheus report) {
        List<String> empty = report.panels().stream().filter(p -> p.phasesWithData().isEmpty()).map(JudgedPrometheus.PanelRow::title).toList();
        return new Claim("dashboard-panels-have-data", "Every dashboard panel shows data in at least one phase",
                "each panel's queries return a number in some phase").judged(empty.isEmpty() ? report.panels().size() + " of " + report.panels().size()
                        + " panels" : "no data: " + String.join(", ", empty), empty.isEmpty());
    }

    /** "CarrierStarvation", "pending" → "carrier-starvation-pending". */
    static String id(String alert, String what) {
        return alert.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT) + "-" + what;
    }
}
