package io.starvationlab.experiment.prometheus;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The run over time as the dashboard shows it, each from one range query: probe p99 per URI, the
 * canary's and the oldest request's wait for a carrier in flight, and throughput per mode.
 */
public record TimelineSeries(List<Series> probeP99, List<Series> stalled, List<Series> requestStalled, List<Series> throughput) {

    static final String PROBE_P99 = "histogram_quantile(0.99, sum by (uri, le) (rate(http_server_requests_seconds_bucket{uri=~\"/probe/.+|/q/health/live\"}[%s])))";
    static final String STALLED = "max(virtual_threads_carrier_stalled_seconds{source=\"canary\"})";
    static final String REQUEST_STALLED = "max(virtual_threads_carrier_stalled_seconds{source=\"task\"})";
    static final String THROUGHPUT = "sum by (mode) (rate(lab_downstream_call_seconds_count[%s]))";

    /** Each query over {@code server}'s range, rates over {@code rateInterval}. */
    static TimelineSeries query(PrometheusServer server, PrometheusRecord.Range range, Duration rateInterval) {
        String window = rateInterval.toSeconds() + "s";
        return new TimelineSeries(server.queryRange(String.format(Locale.ROOT, PROBE_P99, window), range.start(), range.end(), range.step()),
                server.queryRange(STALLED, range.start(), range.end(), range.step()),
                server.queryRange(REQUEST_STALLED, range.start(), range.end(), range.step()),
                server.queryRange(String.format(Locale.ROOT, THROUGHPUT, window), range.start(), range.end(), range.step()));
    }
}
