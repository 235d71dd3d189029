package io.starvationlab.experiment.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.starvationlab.harness.Project;
import io.starvationlab.harness.junit.Needs;

/**
 * The real server from Debian's prometheus package: loopback, rules loaded, nothing left behind, started or not. That a
 * target's labels reach its series, and the peak RSS, the examples' tests and the quick run read from a live one.
 */
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
            var groups = server.api("/api/v1/rules").path("groups");
            assertThat(groups).hasSize(2);
            assertThat(groups.findValuesAsText("name")).containsAll(rules.alerts().stream().map(AlertRules.Alert::name).toList());
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
