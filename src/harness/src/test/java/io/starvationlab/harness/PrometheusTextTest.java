package io.starvationlab.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final String SCRAPE = """
            # TYPE lab_delay_seconds histogram
            # HELP lab_delay_seconds How long, with a \\\\ backslash
            lab_delay_seconds_bucket{le="0.1"} 10.0
            lab_delay_seconds_bucket{le="1.0"} 90.0
            lab_delay_seconds_bucket{le="+Inf"} 100.0
            lab_delay_seconds_count 100.0
            lab_delay_seconds_sum 42.5
            # TYPE lab_rejected_total counter
            lab_rejected_total{reason="queue-full",note="a \\"quoted\\"\\nline, with {braces}"} 3.0 1700000000000
            lab_gauge NaN
            """;

    @Test
    void shouldReadSamplesLabelsAndTypes() {
        PrometheusText text = PrometheusText.parse(SCRAPE);
        assertThat(text.type("lab_delay_seconds")).contains("histogram");
        assertThat(text.samples("lab_rejected_total")).singleElement().satisfies(sample -> {
            assertThat(sample.label("reason")).isEqualTo("queue-full");
            assertThat(sample.label("note")).isEqualTo("a \"quoted\"\nline, with {braces}");
            assertThat(sample.value()).isEqualTo(3.0);
        });
        assertThat(text.samples("lab_gauge")).singleElement().extracting(PrometheusText.Sample::value).isEqualTo(Double.NaN);
        assertThat(text.buckets("lab_delay_seconds", s -> true)).containsEntry(Double.POSITIVE_INFINITY, 100.0).hasSize(3);
    }

    @Test
    void shouldComputeQuantilesAsPromqlDoes() {
        TreeMap<Double, Double> buckets = PrometheusText.parse(SCRAPE).buckets("lab_delay_seconds", s -> true);
        // rank 50 lies in (0.1, 1.0] which holds 80: 0.1 + 0.9 * (50 - 10) / 80
        assertThat(PrometheusText.quantile(0.5, buckets)).isCloseTo(0.55, within(1e-9));
        // rank 99 lies in the +Inf bucket: the highest finite bound
        assertThat(PrometheusText.quantile(0.99, buckets)).isEqualTo(1.0);
        assertThat(PrometheusText.quantile(0.05, buckets)).isCloseTo(0.05, within(1e-9));
    }

    @Test
    void shouldSubtractCumulativeBuckets() {
        TreeMap<Double, Double> delta = PrometheusText.delta(new TreeMap<>(Map.of(0.1, 5.0, Double.POSITIVE_INFINITY, 5.0)),
                new TreeMap<>(Map.of(0.1, 5.0, Double.POSITIVE_INFINITY, 15.0)));
        assertThat(delta).containsEntry(0.1, 0.0).containsEntry(Double.POSITIVE_INFINITY, 10.0);
        assertThat(PrometheusText.quantile(0.99, delta)).isEqualTo(0.1);
    }

    @Test
    void shouldRejectMalformedLines() {
        assertThatThrownBy(() -> PrometheusText.parse("lab_x{le=\"1\" 3\n")).hasMessageContaining("line 1");
        assertThatThrownBy(() -> PrometheusText.parse("lab_x{le=\"unterminated} 3\n")).hasMessageContaining("unterminated");
        assertThatThrownBy(() -> PrometheusText.parse("lab_x three\n")).hasMessageContaining("not a sample value");
        assertThatThrownBy(() -> PrometheusText.parse("lab_x{a=\"\\q\"} 1\n")).hasMessageContaining("unknown escape");
        assertThatThrownBy(() -> PrometheusText.parse("# TYPE lab_x colour\n")).hasMessageContaining("unknown metric type");
    }
}
