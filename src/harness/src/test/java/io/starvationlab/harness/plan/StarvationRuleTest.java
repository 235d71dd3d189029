package io.starvationlab.harness.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.starvationlab.harness.Project;

/**
 * The plan's rule for "starved", judged on the cases the k6 report is judged on too
 * ({@code src/k6-checks/src/test/node/fixtures/starvation-rule-cases.json}): the runner and k6 cannot disagree.
 */
class StarvationRuleTest {

    private static final Path CASES = Project.caseFile("starvation-rule-cases.json");

    @Test
    void shouldJudgeEveryCaseAsTheK6ReportDoes() throws IOException {
        StarvationRule rule = Plan.ofProject().starved();
        JsonNode fixture = new ObjectMapper().readTree(CASES.toFile());
        JsonNode assumes = fixture.path("assumes");
        assertThat(rule).as("the cases were written for these numbers: update them with the plan's rule")
                .isEqualTo(new StarvationRule(assumes.path("probe").asText(), assumes.path("percentile").asDouble(),
                        assumes.path("baselineFactor").asDouble(), assumes.path("minimumMillis").asDouble()));
        assertThat(fixture.path("cases")).isNotEmpty();
        for (JsonNode example : fixture.path("cases")) {
            assertThat(rule.starved(example.path("loadedMillis").asDouble(), example.path("baselineMillis").asDouble()))
                    .as(example.path("why").asText()).isEqualTo(example.path("starved").asBoolean());
        }
    }

    @Test
    void shouldStateItselfWithThePlansNumbers() {
        assertThat(new StarvationRule("virtual", 50, 20, 50).describe())
                .isEqualTo("starved when /probe/virtual's p50 is at least 20x its baseline on the same JVM and at least 50 ms");
    }

    @Test
    void shouldRefuseARuleThatCannotJudge() {
        assertThatThrownBy(() -> new StarvationRule("virtual", 100, 20, 50)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StarvationRule("virtual", 50, 0.5, 50)).isInstanceOf(IllegalArgumentException.class);
    }
}
