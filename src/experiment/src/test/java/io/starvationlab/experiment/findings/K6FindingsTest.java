package io.starvationlab.experiment.findings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.results.K6Comparison;
import io.starvationlab.experiment.results.ProbeReach;

/** The k6-versus-runner findings on made-up figures: agreement phase by phase, and every event loop reached by both. */
class K6FindingsTest {

    private static final ProbeReach EVEN = ProbeReach.of("p", "x", Map.of("0", 50L, "1", 50L, "2", 50L, "3", 50L), 4, 0.25, null);
    private static final ProbeReach ONE = ProbeReach.of("p", "x", Map.of("0", 200L), 4, 0.25, null);

    @Test
    void shouldHoldWhenBothClientsAgree() {
        Finding agrees = find(comparison(row("native", "starved", "starves", 39.2, 38.6, 1310, 1180),
                row("unpinned", "not starved", "free", 612, 598, 2.1, 5.9), row("native-db", "starved", "collapses", 0, 0.5, 9000, 12000)),
                K6Findings.AGREES);
        assertThat(agrees.holds()).as(agrees.measured()).isTrue();
        assertThat(agrees.measured()).contains("native: starved / starved, 39.2/s / 38.6/s, p50 1310.0 ms / 1180.0 ms");
        assertThat(find(comparison(row("native", "starved", "starves", 39.2, 38.6, 1310, 1180)), K6Findings.REACH).holds()).isTrue();
    }

    /** The broken fixtures: a verdict (k6's word as the runner's, or passed on), a throughput or a p50 out of the band fails it, with both figures printed. */
    @Test
    void shouldFailOnAnyDisagreementAndPrintBothFigures() {
        Finding verdict = find(comparison(row("native", "starved", "free", 39, 39, 1300, 40)), K6Findings.AGREES);
        assertThat(verdict.holds()).isFalse();
        assertThat(verdict.measured()).contains("starved / not starved", "DIFFER: verdict, p50");
        Finding throughput = find(comparison(row("unpinned", "not starved", "free", 620, 550, 2, 2)), K6Findings.AGREES);
        assertThat(throughput.holds()).isFalse();
        assertThat(throughput.measured()).contains("620.0/s / 550.0/s", "DIFFER: throughput");
        assertThat(find(comparison(row("cpu", "starved", "starves", 39, 39, 1100, 2800)), K6Findings.AGREES).holds()).isFalse();
        assertThat(find(comparison(row("cpu", "starved", "no data", 39, 39, 1100, 1100)), K6Findings.AGREES).measured()).contains("starved / no data");
    }

    @Test
    void theBandsShouldBeTheStatedOnes() {
        assertThat(K6Findings.throughputAgrees(100, 90.5)).isTrue();
        assertThat(K6Findings.throughputAgrees(100, 89)).isFalse();
        assertThat(K6Findings.throughputAgrees(0, 0.6)).isTrue();
        assertThat(K6Findings.p50Agrees(15.1, 1.8)).isTrue();
        assertThat(K6Findings.p50Agrees(2, 30)).isFalse();
        assertThat(K6Findings.p50Agrees(1000, 2490)).isTrue();
        assertThat(K6Findings.p50Agrees(1000, 2600)).isFalse();
    }

    @Test
    void shouldFailWhenEitherClientMissesAnEventLoop() {
        Finding k6 = find(comparison(new K6Comparison.Row("native", "starved", "starved", "starves", 39, 39.0, 1300, 1300.0, EVEN, ONE)),
                K6Findings.REACH);
        assertThat(k6.holds()).isFalse();
        assertThat(k6.measured()).contains("k6 native 1 of 4 (200, 0, 0, 0) UNEVEN");
        ProbeReach runner = ProbeReach.of("cpu", "default", Map.of("0", 90L, "1", 90L, "2", 5L, "3", 90L), 4, 0.25, null);
        Finding java = K6Findings.evaluate(K6Comparison.notRun("no k6 on the PATH"), List.of(runner)).get(1);
        assertThat(java.holds()).isFalse();
        assertThat(java.measured()).contains("runner cpu 4 of 4 (90, 90, 5, 90) UNEVEN", "k6: not run, no k6 on the PATH");
    }

    @Test
    void shouldNotJudgeAgreementWithoutK6() {
        Finding agrees = find(K6Comparison.notRun("no k6 on the PATH"), K6Findings.AGREES);
        assertThat(agrees.holds()).as("not run is not failed").isNull();
        assertThat(agrees.measured()).isEqualTo("not run: no k6 on the PATH");
        K6Comparison broken = new K6Comparison(null, "k6 v2.2.0", 107, 3, "k6 exited 107 and wrote no summary.json", List.of(), 0, List.of());
        assertThat(find(broken, K6Findings.AGREES).holds()).isFalse();
    }

    private static Finding find(K6Comparison k6, Claim claim) {
        return K6Findings.evaluate(k6, List.of(EVEN)).stream().filter(f -> f.id().equals(claim.id())).findFirst().orElseThrow();
    }

    private static K6Comparison comparison(K6Comparison.Row... rows) {
        return new K6Comparison(null, "k6 v2.2.0", 0, 90, null, List.of(), 0, List.of(rows));
    }

    /** A phase both clients measured, each reaching every event loop: {@code figures} the runner's and k6's req/s, then their p50s. */
    private static K6Comparison.Row row(String phase, String javaVerdict, String k6Observed, double... figures) {
        return new K6Comparison.Row(phase, javaVerdict, K6Comparison.verdict(k6Observed), k6Observed, figures[0], figures[1], figures[2], figures[3], EVEN, EVEN);
    }
}
