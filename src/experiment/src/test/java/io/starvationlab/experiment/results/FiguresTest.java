package io.starvationlab.experiment.results;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How figures are written for a reader to compare. */
class FiguresTest {

    @Test
    void shouldSayAThroughputCollapsedInsteadOfPrintingInfinity() {
        assertThat(Figures.perSecond(0)).isEqualTo("collapsed to 0/s");
        assertThat(Figures.ratio(37.8 / 0.0)).doesNotContain("Infinity").contains("collapsed to 0/s");
        assertThat(Figures.ratio(0.0 / 0.0)).doesNotContain("NaN");
    }

    @Test
    void shouldPrintOrdinaryFiguresInTheRootLocale() {
        assertThat(Figures.perSecond(39.06)).isEqualTo("39.1/s");
        assertThat(Figures.ratio(75.9412)).isEqualTo("75.94x");
        assertThat(Figures.fixed(123.4)).isEqualTo("123");
        assertThat(Figures.seconds(1534)).isEqualTo("1.53 s");
    }
}
