package io.starvationlab.experiment.prometheus;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import io.starvationlab.experiment.Finding;

/**
 * The alerts of the run against its phases: for each phase and alert, when the alert went pending
 * and firing after the phase started and when it resolved after the phase's load ended; and the
 * findings the starvation alerts must meet.
 */
public record AlertTimeline(List<PhaseWindow> windows, List<AlertEpisode> episodes, List<AlertRules.Alert> alerts) {

    /** The alerts that claim starvation: they must catch every starved phase and no other. */
    public static final List<String> STARVATION_ALERTS = List.of("CarrierStarvation", "CarrierStall");
    /** How soon after a starved phase starts its starvation alerts must be pending. */
    public static final Duration DETECTION_BOUND = Duration.ofSeconds(5);
    /** The verdict of the runner's warm-up windows. */
    public static final String WARM_UP = "warm-up";

    /** One cell of the phase x alert table; times in seconds, null where it did not happen. */
    public record Row(String phase, String verdict, String alert, Double pendingAfterStart, Double firingAfterStart,
            Double resolvedAfterLoad, String carriedFrom) {
    }

    /** The phase a moment belongs to on a pod: the last phase on that pod that started at or before it. */
    Optional<PhaseWindow> phaseAt(String pod, Instant at) {
        return windows.stream().filter(w -> w.pod().equals(pod) && !w.start().isAfter(at)).max(Comparator.comparing(PhaseWindow::start));
    }

    /** The first episode of {@code alert} on the phase's pod that was active during the phase. */
    Optional<AlertEpisode> episodeDuring(PhaseWindow phase, String alert) {
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

    public List<Finding> findings() {
        List<Finding> findings = new ArrayList<>();
        List<PhaseWindow> starved = windows.stream().filter(PhaseWindow::starved).toList();
        for (String name : STARVATION_ALERTS) {
            Optional<AlertRules.Alert> rule = alerts.stream().filter(a -> a.name().equals(name)).findFirst();
            if (rule.isEmpty()) {
                findings.add(new Finding(name + " exists", "an alert of that name in the PrometheusRule", "missing", false));
                continue;
            }
            findings.add(detection(rule.get(), starved));
            findings.add(firing(rule.get(), starved));
            findings.add(resolution(rule.get()));
        }
        findings.add(falseAlarms());
        return findings;
    }

    private Finding detection(AlertRules.Alert alert, List<PhaseWindow> starved) {
        String claim = alert.name() + " goes pending within " + DETECTION_BOUND.toSeconds() + " s of the start of every starved phase";
        String expected = "pending <= " + DETECTION_BOUND.toSeconds() + " s after the load starts, or still active from the starved phase before";
        if (starved.isEmpty()) {
            return new Finding(claim, expected, "no starved phase in this run", null);
        }
        List<String> measured = new ArrayList<>();
        boolean holds = true;
        for (PhaseWindow phase : starved) {
            Optional<AlertEpisode> episode = episodeDuring(phase, alert.name());
            if (episode.isEmpty()) {
                measured.add(phase.name() + " never");
                holds = false;
            } else if (episode.get().pending().isBefore(phase.start())) {
                Optional<PhaseWindow> from = phaseAt(phase.pod(), episode.get().pending());
                boolean fromStarved = from.map(PhaseWindow::starved).orElse(false);
                measured.add(phase.name() + " still active from " + from.map(PhaseWindow::name).orElse("before the run"));
                holds &= fromStarved;
            } else {
                double latency = seconds(phase.start(), episode.get().pending());
                measured.add(String.format(Locale.ROOT, "%s %.0f s", phase.name(), latency));
                holds &= latency <= DETECTION_BOUND.toSeconds();
            }
        }
        return new Finding(claim, expected, String.join(", ", measured), holds);
    }

    private Finding firing(AlertRules.Alert alert, List<PhaseWindow> starved) {
        long hold = alert.holdFor().toSeconds();
        String claim = alert.name() + " fires in every starved phase that outlasts its for: (" + hold + " s)";
        String expected = "firing before the phase ends, where the phase lasts longer than pending + for: + 2 evaluations";
        List<String> measured = new ArrayList<>();
        boolean holds = true;
        for (PhaseWindow phase : starved) {
            Optional<AlertEpisode> episode = episodeDuring(phase, alert.name());
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
            measured.add(fired ? String.format(Locale.ROOT, "%s firing at %.0f s", phase.name(), seconds(phase.start(), firing))
                    : phase.name() + " not firing");
            holds &= fired;
        }
        if (measured.isEmpty()) {
            return new Finding(claim, expected, "no starved phase outlasts for: " + hold + " s in this run", null);
        }
        return new Finding(claim, expected, String.join(", ", measured), holds);
    }

    private Finding resolution(AlertRules.Alert alert) {
        String claim = alert.name() + " resolves after the starvation";
        String expected = "every episode that began in a starved phase resolves before the run ends";
        List<String> measured = new ArrayList<>();
        boolean holds = true;
        for (AlertEpisode episode : episodes) {
            if (!episode.alert().equals(alert.name())) {
                continue;
            }
            Optional<PhaseWindow> began = phaseAt(episode.pod(), episode.pending()).filter(PhaseWindow::starved);
            if (began.isEmpty()) {
                continue;
            }
            // the last starved phase the episode lasted into is the starvation it resolves from
            PhaseWindow last = windows.stream().filter(w -> w.pod().equals(episode.pod()) && w.starved() && episode.activeAt(w.start()))
                    .max(Comparator.comparing(PhaseWindow::start)).orElse(began.get());
            if (episode.resolved() == null) {
                measured.add(last.name() + " still active when the run ended");
                holds = false;
            } else {
                measured.add(String.format(Locale.ROOT, "%s %.0f s after its load", last.name(), seconds(last.loadEnd(), episode.resolved())));
            }
        }
        if (measured.isEmpty()) {
            return new Finding(claim, expected, "no episode began in a starved phase", null);
        }
        return new Finding(claim, expected, String.join(", ", measured), holds);
    }

    private Finding falseAlarms() {
        String claim = "No false alarms: " + String.join(" and ", STARVATION_ALERTS) + " never go pending in a phase that is not starved";
        String expected = "no onset in a baseline or a not-starved phase (an alert still active from an earlier phase is that phase's)";
        List<String> alarms = new ArrayList<>();
        long warmUps = 0;
        for (AlertEpisode episode : episodes) {
            Optional<PhaseWindow> phase = phaseAt(episode.pod(), episode.pending());
            if (!STARVATION_ALERTS.contains(episode.alert()) || phase.map(PhaseWindow::starved).orElse(false)) {
                continue;
            }
            // the warm-up is the runner's own: a fresh JVM compiling every mode, judged by no claim
            if (phase.map(w -> WARM_UP.equals(w.verdict())).orElse(false)) {
                warmUps++;
            } else {
                alarms.add(episode.alert() + " in " + phase.map(PhaseWindow::name).orElse("no phase"));
            }
        }
        long quiet = windows.stream().filter(w -> !w.starved() && !WARM_UP.equals(w.verdict())).count();
        String aside = warmUps == 0 ? "" : " (" + warmUps + " onset" + (warmUps == 1 ? "" : "s") + " during a warm-up, not judged)";
        return new Finding(claim, expected, (alarms.isEmpty() ? "0 false alarms in " + quiet + " phases that are not starved"
                : alarms.size() + " false alarms: " + String.join(", ", alarms)) + aside, alarms.isEmpty());
    }

    static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toMillis() / 1000.0;
    }
}
