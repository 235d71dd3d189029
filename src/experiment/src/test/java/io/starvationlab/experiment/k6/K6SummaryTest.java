package io.starvationlab.experiment.k6;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** What the runner reads of k6's summary.json: the report model's verdicts and the rule's probe per event loop. */
class K6SummaryTest {

    /** The shape lib-report-model.js writes as starvationLab (the fields read here; the rest left out). */
    private static final String SUMMARY = """
            { "metrics": {}, "starvationLab": {
              "rules": { "starved": { "probe": "virtual", "percentile": 50 } },
              "verdicts": [
                { "target": "base", "phase": "native", "observed": "starves", "loadedMs": 1204.5, "perSecond": 38.5 },
                { "target": "base", "phase": "unpinned", "observed": "free", "loadedMs": 2.2, "perSecond": 630.1 } ],
              "coverage": [
                { "target": "base", "window": "native", "probe": "worker", "eventLoops": 4, "answers": { "0": 60 }, "even": false },
                { "target": "base", "window": "native", "probe": "virtual", "eventLoops": 4,
                  "answers": { "0": 70, "1": 66, "2": 68, "3": 66, "other": 0 }, "even": true },
                { "target": "base", "window": "unpinned", "probe": "virtual", "eventLoops": 4,
                  "answers": { "0": 270, "1": 0, "2": 0, "3": 0, "other": 0 }, "even": false } ],
              "thresholds": [ { "metric": "probe_errors{probe:virtual}", "expression": "rate<0.01", "ok": false },
                              { "metric": "work_completed", "expression": "count>0", "ok": true } ],
              "droppedIterations": { "base": 3 } } }
            """;

    @Test
    void shouldReadEachLoadWindowAndTheRulesProbe() throws Exception {
        K6Summary summary = K6Summary.of(new ObjectMapper().readTree(SUMMARY));
        assertThat(summary.phases()).containsOnlyKeys("native", "unpinned");
        K6Summary.Phase nativePhase = summary.phases().get("native");
        assertThat(nativePhase.observed()).isEqualTo("starves");
        assertThat(nativePhase.perSecond()).isEqualTo(38.5);
        assertThat(nativePhase.virtualP50Millis()).isEqualTo(1204.5);
        assertThat(nativePhase.virtualAnswers()).containsEntry("1", 66L);
        assertThat(nativePhase.eventLoops()).isEqualTo(4);
        assertThat(summary.phases().get("unpinned").virtualAnswers()).as("the rule's probe, not the worker's").containsEntry("0", 270L);
        assertThat(summary.thresholdsCrossed()).containsExactly("probe_errors{probe:virtual}: rate<0.01");
        assertThat(summary.droppedIterations()).isEqualTo(3);
    }
}
