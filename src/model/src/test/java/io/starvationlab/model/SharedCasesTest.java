package io.starvationlab.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The plan's rules for "starved" and "untouched" and the predictions, judged on the cases the k6 suite is judged on
 * too ({@code k6/cases/*-cases.json}): a change to either side that the other does not make fails here or there. The
 * JDKs' facts of {@code prediction-cases.json} are judged by JdkFactsTest.
 */
class SharedCasesTest {

    private static JsonNode cases(String name) throws IOException {
        return new ObjectMapper().readTree(Plan.caseFile(name).toFile());
    }

    @Test
    void theStarvationRuleShouldJudgeEveryCaseAsTheK6ReportDoes() throws IOException {
        StarvationRule rule = Plan.ofProject().starved();
        JsonNode fixture = cases("starvation-rule-cases.json");
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
    void theUntouchedRuleShouldJudgeEveryCaseAsTheK6SuiteDoes() throws IOException {
        UntouchedRule rule = Plan.ofProject().untouched();
        JsonNode fixture = cases("untouched-rule-cases.json");
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
    void theRulesShouldStateThemselvesWithTheirNumbersAndReadTheirPercentile() {
        assertThat(new StarvationRule("virtual", 50, 20, 50).describe())
                .isEqualTo("starved when /probe/virtual's p50 is at least 20x its baseline on the same JVM and at least 50 ms");
        assertThat(new UntouchedRule(List.of("worker"), 50, 20).describe()).isEqualTo("untouched when the worker probe keeps its p50 under 20 ms");
        assertThat(new UntouchedRule(List.of("worker"), 99, 250).figure(1.5, 40)).isEqualTo(40);
        assertThat(new UntouchedRule(List.of("worker"), 50, 250).figure(1.5, 40)).isEqualTo(1.5);
    }

    @Test
    void shouldRefuseARuleThatCannotJudge() {
        List<Runnable> unjudging = List.of(() -> new StarvationRule("virtual", 100, 20, 50), () -> new StarvationRule("virtual", 50, 0.5, 50),
                () -> new UntouchedRule(List.of(), 99, 250), () -> new UntouchedRule(List.of("worker"), 90, 250),
                () -> new UntouchedRule(List.of("worker"), 99, 0));
        unjudging.forEach(rule -> assertThatThrownBy(rule::run).isInstanceOf(IllegalArgumentException.class));
    }

    @Test
    void everyModeShouldDoOnAJvmsFactsWhatTheCasesSay() throws IOException {
        JsonNode cases = cases("prediction-cases.json").path("cases");
        assertThat(cases).isNotEmpty();
        for (JsonNode example : cases) {
            JsonNode facts = example.path("facts");
            Prediction prediction = Prediction.of(example.path("mode").asText(), example.path("downstream").asText(),
                    new JdkFacts(0, facts.path("synchronizedPins").asBoolean(), facts.path("nativePinAvailable").asBoolean(),
                            facts.path("virtualPollers").asBoolean(), false, false, false, ""));
            assertThat(prediction.outcome().label()).as(example.path("why").asText() + " (" + example + ")")
                    .isEqualTo(example.path("outcome").asText());
        }
    }

    /** Every mode of the plan and its matrix, on every JDK of the matrix, has a case: nothing is predicted unseen. */
    @Test
    void theCasesShouldCoverEveryModeAndDownstreamThePlanRuns() throws IOException {
        List<String> covered = new ArrayList<>();
        cases("prediction-cases.json").path("cases").forEach(example -> covered.add(example.path("mode").asText() + "/" + example.path("downstream").asText()));
        Plan plan = Plan.ofProject();
        plan.phases().forEach(phase -> assertThat(covered).as(phase.name()).contains(phase.mode() + "/" + phase.downstream()));
        plan.matrix().cells(false).forEach(cell -> assertThat(covered).as(cell.name()).contains(cell.mode() + "/" + cell.downstream()));
    }
}
