package io.starvationlab.experiment.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** k6's window throughput as a steady rate: its VUs all start with the window, so only the first request's wait is lost. */
class K6ComparisonTest {

    @Test
    void shouldLeaveOutTheFirstWaitOfK6sWindow() {
        // 3 s quick window, 100 ms work, 38/s steady: 38 x 2.9 answers in the window read 36.7/s over all of it
        assertThat(K6Comparison.steady(38 * 2.9 / 3, 3, 100)).isCloseTo(38, within(1e-9));
        assertThat(K6Comparison.steady(500, 6, 100)).isCloseTo(500 * 6 / 5.9, within(1e-9));
    }

    @Test
    void shouldKeepTheWholeWindowWhenTheSteadyPartIsUnderAQuarterOrTheWindowUnknown() {
        assertThat(K6Comparison.steady(100, 1.2, 1000)).isEqualTo(100);
        assertThat(K6Comparison.steady(100, Double.NaN, 100)).isEqualTo(100);
    }
}
