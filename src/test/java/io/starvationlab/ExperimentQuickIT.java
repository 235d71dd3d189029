package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.ExperimentReport;
import io.starvationlab.experiment.ExperimentRunner;
import io.starvationlab.experiment.PhaseReport;

/**
 * The experiment in quick mode, end to end: the verdicts, not the absolute times, and the files a
 * reader gets.
 */
class ExperimentQuickIT {

    @Test
    void quickExperimentShouldReachTheExpectedVerdictsAndWriteItsReport() throws Exception {
        Path out = Path.of("target", "experiment-quick");
        Path plan = Path.of(System.getProperty("lab.project.dir", "."), "k6", "plan.json");
        ExperimentReport report = new ExperimentRunner(plan, true, out, line -> System.out.println("[quick] " + line)).run();

        ServerJdk jdk = ServerJdk.parse(report.servers().get("default").javaVersion());
        List<String> starved = jdk.hasFfm() ? List.of("native", "cpu") : List.of("cpu");
        for (String phase : starved) {
            assertThat(verdict(report, phase)).as(phase).isEqualTo(PhaseReport.STARVED);
        }
        for (String phase : List.of("unpinned", "reentrant")) {
            assertThat(verdict(report, phase)).as(phase).isEqualTo(PhaseReport.NOT_STARVED);
        }
        if (jdk.synchronizedPins()) {
            assertThat(verdict(report, "pinned")).as("synchronized pins before JDK 24").isEqualTo(PhaseReport.STARVED);
        } else {
            assertThat(verdict(report, "pinned")).as("JEP 491: synchronized no longer pins").isEqualTo(PhaseReport.NOT_STARVED);
        }
        if (jdk.legacyLockingPins()) {
            assertThat(verdict(report, "pinned-legacy-locking")).as("LockingMode=1").isEqualTo(PhaseReport.STARVED);
        }

        assertThat(out.resolve("report.json")).exists();
        String markdown = Files.readString(out.resolve("report.md"));
        assertThat(markdown).contains("## Environment", "## Phases", "## Findings", report.verdictRule(), "probe-p99.svg");
        String chart = Files.readString(out.resolve("probe-p99.svg"));
        assertThat(chart).startsWith("<svg").contains("native", "unpinned").contains("<rect");
        assertThat(report.phases()).filteredOn(phase -> !phase.isBaseline())
                .allSatisfy(phase -> assertThat(chart).contains(phase.name()));
        assertAlertsOnALivePrometheus(report, out, markdown);
    }

    /** The starvation alerts on the run's own Prometheus: caught in every starved phase, silent in the others. */
    private static void assertAlertsOnALivePrometheus(ExperimentReport report, Path out, String markdown) throws Exception {
        if (ExternalTool.find("prometheus", "Debian package prometheus").isEmpty()) {
            assertThat(report.prometheus().measured()).isFalse();
            assertThat(markdown).contains("Not measured: prometheus is not on the PATH");
            return;
        }
        assertThat(report.prometheus().measured()).as(report.prometheus().note()).isTrue();
        List<String> claims = List.of("CarrierStarvation goes pending within 5 s", "CarrierStall goes pending within 5 s",
                "CarrierStarvation resolves", "CarrierStall resolves", "No false alarms", "Every dashboard panel shows data");
        for (String claim : claims) {
            assertThat(report.findings()).filteredOn(finding -> finding.claim().startsWith(claim)).singleElement()
                    .satisfies(finding -> assertThat(finding.holds()).as(finding.claim() + ": " + finding.measured()).isTrue());
        }
        assertThat(report.findings()).filteredOn(finding -> finding.claim().contains(" fires in every starved phase"))
                .hasSize(2).allSatisfy(finding -> assertThat(finding.holds()).as(finding.measured()).isNotEqualTo(Boolean.FALSE));
        assertThat(report.prometheus().peakRssMegabytes()).isBetween(1.0, 300.0);
        assertThat(markdown).contains("## Alerts and dashboard on a live Prometheus", "### Alerts per phase", "### Dashboard panels",
                "timeline.svg");
        String timeline = Files.readString(out.resolve("timeline.svg"));
        assertThat(timeline).startsWith("<svg").contains("CarrierStarvation", "CarrierStall", "native", "/probe/virtual", "<path");
    }

    private static String verdict(ExperimentReport report, String phase) {
        return report.phase(phase).orElseThrow(() -> new AssertionError("no phase " + phase)).verdict();
    }
}
