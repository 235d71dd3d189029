package io.starvationlab.experiment.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.starvationlab.harness.Project;
import io.starvationlab.harness.junit.Needs;

/** The real server from Debian's prometheus package: loopback, rules loaded, nothing left behind. */
class PrometheusServerTest {

    @Test
    void shouldServeOnLoopbackWithTheRulesAndLeaveNothingBehind(@TempDir Path logs) throws Exception {
        Path binary = Needs.tool("prometheus", "Debian package prometheus");
        AlertRules rules = AlertRules.ofProject(Project.root());
        Path home;
        ProcessHandle process;
        try (PrometheusServer server = PrometheusServer.launch(binary, rules, logs)) {
            server.awaitReady();
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

    /** The broken fixture: a "prometheus" that starts a child of its own; closing ends them both, not the parent alone. */
    @Test
    void closingShouldEndTheProcessAndWhatItStarted(@TempDir Path folder) throws Exception {
        Path childPid = folder.resolve("child.pid");
        Path binary = Files.writeString(folder.resolve("prometheus"), "#!/bin/sh\nsleep 300 &\necho $! > " + childPid + "\nwait\n");
        assertThat(binary.toFile().setExecutable(true)).isTrue();
        AlertRules rules = AlertRules.ofProject(Project.root());
        ProcessHandle process;
        ProcessHandle child;
        try (PrometheusServer server = PrometheusServer.launch(binary, rules, folder.resolve("logs"))) {
            process = ProcessHandle.of(server.pid()).orElseThrow();
            await("the child's pid").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> Files.exists(childPid) && !Files.readString(childPid).isBlank());
            child = ProcessHandle.of(Long.parseLong(Files.readString(childPid).strip())).orElseThrow();
            assertThat(child.parent().map(ProcessHandle::pid)).contains(process.pid());
        }
        assertThat(process.isAlive()).isFalse();
        assertThat(child.onExit().get(5, java.util.concurrent.TimeUnit.SECONDS).isAlive()).as("its child, ended with it").isFalse();
    }
}
