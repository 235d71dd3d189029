package io.starvationlab.harness.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.starvationlab.harness.Project;
import io.starvationlab.jdk.JdkFacts;

/**
 * The predictions, judged on the cases the k6 suite is judged on too
 * ({@code src/k6-checks/src/test/node/fixtures/prediction-cases.json}): a change to either side that the other does
 * not make fails here or there. The JDKs' facts of the same file are judged by the jdk-facts module's JdkFactsTest.
 */
class PredictionTest {

    private static final Path CASES = Project.caseFile(
            "prediction-cases.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyModeShouldDoOnAJvmsFactsWhatTheCasesSay() throws IOException {
        JsonNode cases = JSON.readTree(CASES.toFile()).path("cases");
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
        JsonNode cases = JSON.readTree(CASES.toFile()).path("cases");
        List<String> covered = new ArrayList<>();
        cases.forEach(example -> covered.add(example.path("mode").asText() + "/" + example.path("downstream").asText()));
        Plan plan = Plan.ofProject();
        plan.phases().forEach(phase -> assertThat(covered).as(phase.name()).contains(phase.mode() + "/" + phase.downstream()));
        plan.matrix().cells(false).forEach(cell -> assertThat(covered).as(cell.name()).contains(cell.mode() + "/" + cell.downstream()));
    }
}
