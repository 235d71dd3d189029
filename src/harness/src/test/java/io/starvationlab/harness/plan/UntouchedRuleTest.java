package io.starvationlab.harness.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.Project;

/**
 * The plan's rule for "untouched", judged on the cases the k6 report and thresholds are judged on too
 * ({@code src/k6-checks/src/test/node/fixtures/untouched-rule-cases.json}): the runner and k6 cannot disagree.
 */
class UntouchedRuleTest {

    private static final Path CASES = Project.caseFile("untouched-rule-cases.json");

    @Test
    void shouldJudgeEveryCaseAsTheK6SuiteDoes() throws IOException {
        UntouchedRule rule = Plan.ofProject().untouched();
        JsonNode fixture = LabClient.json().readTree(CASES.toFile());
        JsonNode assumes = fixture.path("assumes");
        List<String> probes = new ArrayList<>();
        assumes.path("probes").forEach(probe -> probes.add(probe.asText()));
        assertThat(rule).as("the cases were written for these numbers: update them with the plan's rule")
                .isEqualTo(new UntouchedRule(probes, assumes.path("percentile").asDouble(), assumes.path("maximumMillis").asDouble()));
        assertThat(rule.describe()).isEqualTo(fixture.path("text").asText());
        assertThat(fixture.path("cases")).isNotEmpty();
        for (JsonNode example : fixture.path("cases")) {
            assertThat(rule.untouched(example.path("loadedMillis").asDouble())).as(example.path("why").asText())
                    .isEqualTo(example.path("untouched").asBoolean());
        }
    }

    @Test
    void shouldReadTheRulesPercentileOfAProbe() {
        assertThat(new UntouchedRule(List.of("worker"), 99, 250).figure(1.5, 40)).isEqualTo(40);
        assertThat(new UntouchedRule(List.of("worker"), 50, 250).figure(1.5, 40)).isEqualTo(1.5);
        assertThat(new UntouchedRule(List.of("worker"), 50, 20).describe()).isEqualTo("untouched when the worker probe keeps its p50 under 20 ms");
    }

    @Test
    void shouldRefuseARuleThatCannotJudge() {
        assertThatThrownBy(() -> new UntouchedRule(List.of(), 99, 250)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UntouchedRule(List.of("worker"), 90, 250)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UntouchedRule(List.of("worker"), 99, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
