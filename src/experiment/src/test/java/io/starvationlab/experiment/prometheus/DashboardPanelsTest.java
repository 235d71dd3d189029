package io.starvationlab.experiment.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.Project;

class DashboardPanelsTest {

    @Test
    void shouldRunEveryPanelsQueriesWithTheDashboardsDefaults() {
        DashboardPanels dashboard = DashboardPanels.ofProject(Project.root());

        assertThat(dashboard.panels()).hasSizeGreaterThanOrEqualTo(10).allSatisfy(panel -> assertThat(panel.queries()).isNotEmpty());
        assertThat(dashboard.panels()).flatExtracting(DashboardPanels.Panel::queries)
                .allSatisfy(query -> assertThat(query).doesNotContain("$").contains("namespace=\"starvation-lab\""))
                .anySatisfy(query -> assertThat(query).contains("[4s]"));
        assertThat(dashboard.panels()).filteredOn(panel -> panel.title().startsWith("Canary")).isNotEmpty()
                .allSatisfy(panel -> assertThat(panel.meantFor()).isEqualTo(DashboardPanels.STARVED));
    }

    @Test
    void shouldRefuseAVariableWithoutADefault() throws Exception {
        var dashboard = LabClient.json().readTree("""
                {"templating": {"list": [{"name": "namespace", "current": {}}]},
                 "panels": [{"type": "timeseries", "title": "x", "targets": [{"expr": "up{namespace=\\"$namespace\\"}"}]}]}
                """);

        assertThatThrownBy(() -> DashboardPanels.of(dashboard, Duration.ofSeconds(4))).hasMessageContaining("without a default");
    }
}
