package io.starvationlab.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Every JDK of the shared case file ({@code prediction-cases.json}, "jvms": a release with its OS, flags and properties)
 * has the facts the file says; the predictions of each mode on those facts are judged on its "cases" in Java and in k6.
 */
class JdkFactsTest {

    private static final Path CASES = Plan.caseFile("prediction-cases.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyJdkWithItsFlagsShouldHaveTheFactsTheCasesSay() throws IOException {
        JsonNode jvms = JSON.readTree(CASES.toFile()).path("jvms");
        assertThat(jvms).hasSizeGreaterThan(10);
        for (JsonNode jvm : jvms) {
            List<String> flags = JSON.convertValue(jvm.path("flags"), new TypeReference<List<String>>() { });
            Map<String, String> properties = JSON.convertValue(jvm.path("properties"), new TypeReference<Map<String, String>>() { });
            Optional<JdkFacts> facts = JdkFacts.of(jvm.path("jdk").asInt(), jvm.path("os").asText("Linux"), flags, properties);
            String as = jvm.path("why").asText() + " (" + jvm + ")";
            if (jvm.path("refused").asBoolean(false)) {
                assertThat(facts).as(as).isEmpty();
                continue;
            }
            JsonNode expected = jvm.path("facts");
            assertThat(facts).as(as).hasValueSatisfying(actual -> {
                assertThat(actual.synchronizedPins()).as(as + ": synchronizedPins").isEqualTo(expected.path("synchronizedPins").asBoolean());
                assertThat(actual.nativePinAvailable()).as(as + ": nativePinAvailable").isEqualTo(expected.path("nativePinAvailable").asBoolean());
                assertThat(actual.virtualPollers()).as(as + ": virtualPollers").isEqualTo(expected.path("virtualPollers").asBoolean());
            });
        }
    }

    /** What the service and the diagnosis read off a running JVM: its poller mode and LockingMode, as it reports them. */
    @Test
    void aRunningJvmsPropertiesShouldGiveTheSameFacts() {
        assertThat(JdkFacts.virtualPollers(25, "Linux", "SYSTEM_THREADS")).isFalse();
        assertThat(JdkFacts.virtualPollers(21, "Linux", "2")).as("forced on 21").isTrue();
        assertThat(JdkFacts.virtualPollers(27, "Mac OS X", "vthread_pollers")).isTrue();
        assertThat(JdkFacts.virtualPollers(25, "Mac OS X", null)).as("the default outside Linux").isFalse();
        assertThat(JdkFacts.synchronizedPins(25, 1)).isTrue();
        assertThat(JdkFacts.synchronizedPins(25, 2)).isFalse();
        assertThat(JdkFacts.synchronizedPins(26, null)).as("26 has no LockingMode to report").isFalse();
        assertThat(JdkFacts.feature("21.0.13+9-1-deb13u2-Debian")).isEqualTo(21);
        assertThat(JdkFacts.feature("27-ea+3")).isEqualTo(27);
    }
}
