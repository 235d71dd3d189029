package io.starvationlab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How findings print the figures a reader compares. */
class FindingTest {

    @Test
    void shouldSayAThroughputCollapsedInsteadOfPrintingInfinity() {
        assertThat(Finding.perSecond(0)).isEqualTo("collapsed to 0/s");
        assertThat(Finding.times(37.8 / 0.0)).doesNotContain("Infinity").contains("collapsed to 0/s");
        assertThat(Finding.times(0.0 / 0.0)).doesNotContain("NaN");
    }

    @Test
    void shouldPrintOrdinaryFiguresInTheRootLocale() {
        assertThat(Finding.perSecond(39.06)).isEqualTo("39.1/s");
        assertThat(Finding.times(75.9412)).isEqualTo("75.94x");
    }
}
