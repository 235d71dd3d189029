package io.starvationlab.experiment.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.starvationlab.harness.Project;
import io.starvationlab.harness.junit.Needs;

/** The real server from Debian's prometheus package: loopback, rules loaded, nothing left behind, started or not. */
class PrometheusServerTest {

    @Test
    void shouldServeOnLoopbackWithTheRulesAndLeaveNothingBehind(@TempDir Path logs) throws Exception {
        Path binary = Needs.tool("prometheus", "Debian package prometheus");
        AlertRules rules = AlertRules.ofProject(Project.root());
        Path home;
        ProcessHandle process;
        try (PrometheusServer server = PrometheusServer.start(binary, rules, logs)) {
            home = server.home();
            process = ProcessHandle.of(server.pid()).orElseThrow();
            assertThat(server.baseUri().getHost()).isEqualTo("127.0.0.1");

            // itself as a target: the labels a ServiceMonitor's target carries reach the series
            server.scrape(new PrometheusServer.ScrapeTarget(server.baseUri().getAuthority(), java.util.Map.of("job", "lab-self", "namespace", "starvation-lab",
                    "service", "lab-self", "pod", "lab-self-1")));
            // Prometheus applies new targets every 5 s; its own /metrics is no /q/metrics, so up is 0, but the series has the labels
            String up = "up{job=\"lab-self\", namespace=\"starvation-lab\", service=\"lab-self\", pod=\"lab-self-1\"}";
            await(up).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250)).until(() -> !server.query(up).isEmpty());
            var groups = server.api("/api/v1/rules").path("groups");
            assertThat(groups).hasSize(2);
            assertThat(groups.findValuesAsText("name")).containsAll(rules.alerts().stream().map(AlertRules.Alert::name).toList());
            assertThat(server.peakRssBytes()).isGreaterThan(0);
        }
        assertThat(process.isAlive()).isFalse();
        assertThat(Files.exists(home)).isFalse();
    }

    /** The broken fixture: a "prometheus" that exits at once. The start fails with what it printed and leaves no folder behind. */
    @Test
    void aPrometheusThatExitsShouldFailTheStartWithItsLogAndLeaveNoFolder(@TempDir Path folder) throws Exception {
        Path config = folder.resolve("config-file");
        Path binary = Files.writeString(folder.resolve("prometheus"), "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in --config.file=*) echo \"${a#*=}\" > "
                + config + ";; esac; done\necho 'no such flag: --web.listen-address'\nexit 3\n");
        assertThat(binary.toFile().setExecutable(true)).isTrue();
        assertThatThrownBy(() -> PrometheusServer.start(binary, AlertRules.ofProject(Project.root()), folder.resolve("logs")))
                .hasMessageContaining("Prometheus exited with 3").hasMessageContaining("no such flag: --web.listen-address");
        Path home = Path.of(Files.readString(config).strip()).getParent();
        assertThat(home.getFileName().toString()).startsWith("starvation-lab-prometheus-");
        assertThat(Files.exists(home)).as("its data folder %s", home).isFalse();
    }
}
