package io.starvationlab.experiment.prometheus;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One alert on one pod from the moment it went pending until it resolved, read from Prometheus'
 * {@code ALERTS} series at the evaluation interval.
 *
 * @param firing  when it first fired, or null if it resolved while pending
 * @param resolved the first evaluation at which it was no longer active, or null if it still was when the run ended
 * @param onset    which of the rule's conditions held when it went pending, with their values; empty where not read
 */
public record AlertEpisode(String alert, String pod, Instant pending, Instant firing, Instant resolved, Instant lastActive, List<String> onset) {

    /**
     * The episodes in {@code ALERTS} range-query series (labels alertname, alertstate, pod), sampled every
     * {@code step} up to {@code end}: an alert still active at {@code end} has not resolved.
     */
    public static List<AlertEpisode> of(List<Series> alerts, Duration step, Instant end) {
        Map<String, TreeMap<Instant, Boolean>> byAlertAndPod = new TreeMap<>();
        for (Series series : alerts) {
            boolean firing = "firing".equals(series.label("alertstate"));
            TreeMap<Instant, Boolean> states = byAlertAndPod.computeIfAbsent(series.label("alertname") + "\u0000" + series.label("pod"),
                    key -> new TreeMap<>());
            for (Series.Sample sample : series.samples()) {
                states.merge(sample.at(), firing, Boolean::logicalOr);
            }
        }
        List<AlertEpisode> episodes = new ArrayList<>();
        byAlertAndPod.forEach((key, states) -> {
            String[] parts = key.split("\u0000", -1);
            Instant start = null;
            Instant firing = null;
            Instant previous = null;
            for (Map.Entry<Instant, Boolean> state : states.entrySet()) {
                // a gap longer than a step and a half is an evaluation at which the alert was inactive
                if (start != null && Duration.between(previous, state.getKey()).compareTo(step.multipliedBy(3).dividedBy(2)) > 0) {
                    episodes.add(new AlertEpisode(parts[0], parts[1], start, firing, previous.plus(step), previous, List.of()));
                    start = null;
                    firing = null;
                }
                if (start == null) {
                    start = state.getKey();
                }
                if (state.getValue() && firing == null) {
                    firing = state.getKey();
                }
                previous = state.getKey();
            }
            if (start != null) {
                boolean open = previous.plus(step).isAfter(end);
                episodes.add(new AlertEpisode(parts[0], parts[1], start, firing, open ? null : previous.plus(step), previous, List.of()));
            }
        });
        episodes.sort(Comparator.comparing(AlertEpisode::pending));
        return episodes;
    }

    public AlertEpisode withOnset(List<String> held) {
        return new AlertEpisode(alert, pod, pending, firing, resolved, lastActive, List.copyOf(held));
    }

    public boolean activeAt(Instant at) {
        return !at.isBefore(pending) && (resolved == null ? !at.isAfter(lastActive) : at.isBefore(resolved));
    }
}
