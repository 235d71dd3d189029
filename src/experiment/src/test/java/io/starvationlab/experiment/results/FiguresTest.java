package io.starvationlab.experiment.results;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How figures are written for a reader to compare: in the root locale, and a collapse said, not printed as Infinity. */
class FiguresTest {

    @Test
    void shouldSayAThroughputCollapsedInsteadOfPrintingInfinity() {
        assertThat(Figures.perSecond(0)).isEqualTo("collapsed to 0/s");
        assertThat(Figures.ratio(37.8 / 0.0)).doesNotContain("Infinity").contains("collapsed to 0/s");
        assertThat(Figures.ratio(0.0 / 0.0)).doesNotContain("NaN");
    }
}
