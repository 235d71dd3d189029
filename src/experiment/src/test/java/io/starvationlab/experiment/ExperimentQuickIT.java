package io.starvationlab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.findings.Finding;
import io.starvationlab.experiment.report.ExperimentReport;
import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.JudgedQuota;
import io.starvationlab.experiment.results.K6Comparison;
import io.starvationlab.experiment.run.MeasuredColdStart;
import io.starvationlab.harness.CpuQuota;
import io.starvationlab.harness.K6Binary;
import io.starvationlab.harness.Project;
import io.starvationlab.harness.junit.Needs;
import io.starvationlab.model.Plan;

/**
 * The experiment in quick mode, end to end: every finding it can judge holds, each phase starves
 * exactly where the one prediction says ({@code phases-as-predicted}), the server JVM inside a CPU quota
 * runs the quota's carriers, a fresh JVM starved at once blocks its event loops only with the bean left
 * lazy, no other server JVM's event loop is reported blocked, and the files a reader gets.
 */
class ExperimentQuickIT {

    /** The alert findings a quick run with a live Prometheus must judge, and hold. */
    private static final String[] ALERT_FINDINGS = {"carrier-starvation-pending", "carrier-stall-pending",
            "carrier-starvation-resolves", "carrier-stall-resolves", "no-false-alarms", "dashboard-panels-have-data"};

    @Test
    void quickExperimentShouldHoldEveryFindingItJudgesAndWriteItsReport() throws Exception {
        Path out = Path.of("target", "experiment-quick");
        Path plan = Project.resolve("k6/plan.json");
        ExperimentReport report = new ExperimentRunner(plan, true, out, line -> System.out.println("[quick] " + line), Set.of()).run();

        assertThat(report.run().phases()).as("phases that starve and phases that do not, so that the predictions are put to the test")
                .extracting(JudgedPhase::verdict).contains(JudgedPhase.STARVED, JudgedPhase.NOT_STARVED);
        assertHolds(report, "phases-as-predicted");
        assertThat(report.findings()).filteredOn(finding -> finding.holds() != null)
                .allSatisfy(finding -> assertThat(finding.holds()).as(describe(finding)).isTrue());

        assertThat(out.resolve("report.json")).exists();
        String markdown = Files.readString(out.resolve("report.md"));
        assertThat(markdown).contains("## Environment", "## Phases", "## Findings", report.verdictRule(), "probe-p99.svg", "## How long this run took");
        String chart = Files.readString(out.resolve("probe-p99.svg"));
        assertThat(chart).startsWith("<svg").contains("<rect");
        assertThat(report.run().phases()).filteredOn(phase -> !phase.isBaseline())
                .allSatisfy(phase -> assertThat(chart).contains(phase.name()));
        assertAlertsOnALivePrometheus(report, out, markdown);
        assertCarriersFromACpuQuota(report, markdown);
        assertK6BesideTheRunner(report, markdown);
        assertColdStartsAndNoEventLoopBlocked(report, markdown);
    }

    /**
     * k6 on the plan's quick.k6Phases, after the runner's, on the same server: both clients' figures
     * side by side and agreeing ({@code k6-agrees-with-java-runner}, held above with every judged finding). Where
     * k6 is not found the report marks the comparison "not run", not failed, and judges the rest.
     */
    private static void assertK6BesideTheRunner(ExperimentReport report, String markdown) {
        assertThat(markdown).contains("## k6 beside the Java runner");
        if (K6Binary.find().isEmpty()) {
            System.out.println("SKIPPED: ExperimentQuickIT's k6 comparison (k6-agrees-with-java-runner, k6's part of "
                    + "probes-reach-every-event-loop); " + K6Binary.NOT_FOUND + " (get " + K6Binary.HOW_TO_GET + ")");
            assertThat(report.run().k6().notRun()).isEqualTo(K6Binary.NOT_FOUND);
            assertThat(markdown).contains("Not run: " + K6Binary.NOT_FOUND);
            assertThat(report.finding("k6-agrees-with-java-runner").holds()).isNull();
            assertThat(report.finding("k6-agrees-with-java-runner").measured()).isEqualTo("not run: " + K6Binary.NOT_FOUND);
            assertThat(report.finding("probes-reach-every-event-loop").measured()).contains("k6: not run, " + K6Binary.NOT_FOUND);
            return;
        }
        assertThat(report.run().k6().failure()).isNull();
        assertThat(report.run().k6().rows()).extracting(K6Comparison.Row::phase).containsExactlyElementsOf(Plan.ofProject().quick().k6Phases());
        assertHolds(report, "k6-agrees-with-java-runner", "probes-reach-every-event-loop");
    }

    /** The quick run's one repeat of the cold start, lazy and eager, and the blocked-thread checker over every server JVM. */
    private static void assertColdStartsAndNoEventLoopBlocked(ExperimentReport report, String markdown) {
        assertThat(report.run().coldStarts()).extracting(MeasuredColdStart::server).containsExactly("cold-start-eager-1", "cold-start-lazy-1");
        assertHolds(report, "lazy-bean-blocks-event-loops", "no-event-loop-blocked");
        assertThat(report.run().eventLoopsBlocked()).as("every server JVM of the main plan read for the checker's warnings")
                .containsOnlyKeys(report.run().servers().keySet());
        assertThat(markdown).contains("## A fresh JVM starved at once", "| 1 | lazy |", "| 1 | eager |");
    }

    /**
     * The server JVM inside a quota of 1 CPU: one carrier, carrier-bound work at quota ÷ wait. Where no quota
     * can be set the run skips it and says why (with {@code CI=true} the run itself fails).
     */
    private static void assertCarriersFromACpuQuota(ExperimentReport report, String markdown) {
        Finding quota = report.finding("container-cpu-limit-sets-carriers");
        Optional<String> unavailable = CpuQuota.unavailableReason();
        if (unavailable.isPresent()) {
            assertThat(report.run().quota().unavailable()).isEqualTo(unavailable.get());
            assertThat(quota.holds()).isNull();
            assertThat(markdown).contains("## Inside a CPU quota", "Not measured: no CPU quota can be set here");
            return;
        }
        assertThat(report.run().quota().servers()).extracting(JudgedQuota.Server::jvm).containsExactly("quota-1-cpu");
        assertHolds(report, quota.id());
        assertThat(markdown).contains("## Inside a CPU quota", "| quota-1-cpu | 1 CPU | 100000 / 100000 |");
    }

    /** The starvation alerts on the run's own Prometheus: caught in every starved phase, silent in the others. */
    private static void assertAlertsOnALivePrometheus(ExperimentReport report, Path out, String markdown) throws Exception {
        if (Needs.optionalTool("prometheus", "Debian package prometheus").isEmpty()) {
            assertThat(report.run().prometheus().measured()).isFalse();
            assertThat(markdown).contains("Not measured: prometheus is not on the PATH");
            return;
        }
        assertThat(report.run().prometheus().measured()).as(report.run().prometheus().note()).isTrue();
        assertHolds(report, ALERT_FINDINGS);
        assertThat(report.run().prometheus().peakRssMegabytes()).isBetween(1.0, 300.0);
        assertThat(markdown).contains("## Alerts and dashboard on a live Prometheus", "### Alerts per phase", "### Dashboard panels",
                "timeline.svg");
        String timeline = Files.readString(out.resolve("timeline.svg"));
        assertThat(timeline).startsWith("<svg").contains("CarrierStarvation", "CarrierStall", "/probe/virtual", "<path");
    }

    /** Each finding judged, and holding. */
    private static void assertHolds(ExperimentReport report, String... ids) {
        for (String id : ids) {
            assertThat(report.finding(id).holds()).as(describe(report.finding(id))).isTrue();
        }
    }

    private static String describe(Finding finding) {
        return finding.id() + ": " + finding.claim() + "; measured: " + finding.measured();
    }
}
