package io.starvationlab.experiment.prometheus;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the run's own Prometheus recorded, read back once the run's phases are done: when each phase ran
 * and with what verdict, every alert's episodes, each dashboard panel's series, the run over time, and
 * Prometheus' own cost. Nothing here is judged yet.
 *
 * @param measured         false when no Prometheus ran, with the reason in {@code note}
 * @param jdk              the feature version of the JDK the scraped servers ran
 * @param peakRssMegabytes the Prometheus process's peak resident memory
 * @param addedSeconds     how long the run waited on Prometheus (start, the last alerts resolving, the queries)
 */
public record PrometheusRecord(boolean measured, String note, int jdk, double peakRssMegabytes, double addedSeconds, Range range,
        List<PhaseWindow> windows, List<AlertEpisode> episodes, List<AlertRules.Alert> alerts, List<PanelSeries> panels,
        TimelineSeries timeline) {

    /** The span of the range queries, and their step. */
    public record Range(Instant start, Instant end, Duration step) {
    }

    /** A dashboard panel and what its queries returned over the run. */
    public record PanelSeries(DashboardPanels.Panel panel, List<Series> series) {
    }

    static PrometheusRecord notMeasured(String why) {
        return new PrometheusRecord(false, why, 0, 0, 0, null, List.of(), List.of(), List.of(), List.of(), null);
    }
}
