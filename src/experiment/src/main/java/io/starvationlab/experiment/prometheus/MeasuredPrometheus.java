package io.starvationlab.experiment.prometheus;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

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
public record MeasuredPrometheus(boolean measured, String note, int jdk, double peakRssMegabytes, double addedSeconds, Range range,
        List<PhaseWindow> windows, List<AlertEpisode> episodes, List<AlertRules.Alert> alerts, List<PanelSeries> panels, Timeline timeline) {

    /** The span of the range queries, and their step. */
    public record Range(Instant start, Instant end, Duration step) {
    }

    /** A dashboard panel and what its queries returned over the run. */
    public record PanelSeries(DashboardPanels.Panel panel, List<Series> series) {
    }

    /**
     * The run over time as the dashboard shows it, each from one range query: probe p99 per URI, the canary's and the
     * oldest request's wait for a carrier in flight, and throughput per mode.
     */
    public record Timeline(List<Series> probeP99, List<Series> stalled, List<Series> requestStalled, List<Series> throughput) {

        static final String PROBE_P99 = "histogram_quantile(0.99, sum by (uri, le) (rate(http_server_requests_seconds_bucket{uri=~\"/probe/.+|/q/health/live\"}[%s])))";
        static final String STALLED = "max(virtual_threads_carrier_stalled_seconds{source=\"canary\"})";
        static final String REQUEST_STALLED = "max(virtual_threads_carrier_stalled_seconds{source=\"task\"})";
        static final String THROUGHPUT = "sum by (mode) (rate(lab_downstream_call_seconds_count[%s]))";
    }

    static MeasuredPrometheus notMeasured(String why) {
        return new MeasuredPrometheus(false, why, 0, 0, 0, null, List.of(), List.of(), List.of(), List.of(), null);
    }

    /** The phase a moment belongs to on a pod: the last phase on that pod that started at or before it. */
    public Optional<PhaseWindow> phaseAt(String pod, Instant at) {
        return windows.stream().filter(w -> w.pod().equals(pod) && !w.start().isAfter(at)).max(Comparator.comparing(PhaseWindow::start));
    }

    /** The first episode of {@code alert} on the phase's pod that was active during the phase. */
    public Optional<AlertEpisode> episodeDuring(PhaseWindow phase, String alert) {
        return episodes.stream().filter(e -> e.alert().equals(alert) && e.pod().equals(phase.pod()))
                .filter(e -> e.pending().isBefore(phase.end()) && (e.resolved() == null || e.resolved().isAfter(phase.start()))).findFirst();
    }

    public static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toMillis() / 1000.0;
    }
}
