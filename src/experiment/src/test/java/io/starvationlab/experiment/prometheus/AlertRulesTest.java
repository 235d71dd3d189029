package io.starvationlab.experiment.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.starvationlab.harness.Project;

class AlertRulesTest {

    private static final Path PROJECT = Project.root();

    @Test
    void shouldLoadTheGroupsOfTheProjectsPrometheusRuleAsTheyAre() {
        AlertRules rules = AlertRules.ofProject(PROJECT);

        assertThat(rules.alerts()).extracting(AlertRules.Alert::name).contains("CarrierStarvation", "CarrierStall", "SustainedPinning");
        assertThat(rules.rulesFile()).startsWith("groups:").doesNotContain("apiVersion", "PrometheusRule", "metadata");
        AlertRules.Alert starvation = rules.alerts().stream().filter(a -> a.name().equals("CarrierStarvation")).findFirst().orElseThrow();
        // each condition named, so that an onset can say which held
        assertThat(starvation.branches().stream().map(AlertRules.Alert::summary)).containsExactly(
                "histogram_quantile(virtual_threads_carrier_wait_seconds_bucket{source=\"canary\"}) > 0.1",
                "max_over_time(virtual_threads_carrier_stalled_seconds{source=\"canary\"}) > 0.5",
                "max_over_time(virtual_threads_carrier_stalled_seconds{source=\"task\"}) > 0.5");
    }

    @Test
    void shouldRefuseAFileThatIsNoPrometheusRule(@TempDir Path dir) throws Exception {
        Path serviceMonitor = PROJECT.resolve("kubernetes/base/monitoring/servicemonitor.yaml");
        assertThatThrownBy(() -> AlertRules.read(serviceMonitor)).hasMessageContaining("not a PrometheusRule");

        Path empty = dir.resolve("empty.yaml");
        Files.writeString(empty, "apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nspec: {}\n");
        assertThatThrownBy(() -> AlertRules.read(empty)).hasMessageContaining("no spec.groups");
    }

    @Test
    void shouldReadPrometheusDurations() {
        assertThat(List.of("30s", "1m", "2h", "500ms").stream().map(AlertRules::duration))
                .containsExactly(Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofHours(2), Duration.ofMillis(500));
        assertThatThrownBy(() -> AlertRules.duration("1m30s")).hasMessageContaining("unsupported duration");
    }
}
