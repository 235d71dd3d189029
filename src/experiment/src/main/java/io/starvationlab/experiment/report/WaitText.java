package io.starvationlab.experiment.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.PhaseReport;
import io.starvationlab.experiment.results.ProbeDistribution;
import io.starvationlab.experiment.results.QueueModel;
import io.starvationlab.experiment.results.UnrelatedWait;
import io.starvationlab.experiment.run.ServerFacts;

/** The report's section on the unrelated request's wait: the queue model beside the measured distribution. */
final class WaitText {

    private WaitText() {
    }

    static List<PhaseReport> carrierBound(ExperimentReport report) {
        return report.phases().stream().filter(phase -> phase.unrelatedWait() != null).toList();
    }

    static String markdown(ExperimentReport report) {
        List<PhaseReport> phases = carrierBound(report);
        if (phases.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n## The unrelated request's wait: model and measured\n\n");
        md.append("For each phase whose load holds the carriers: the model's wait for `/probe/virtual`, ")
                .append(QueueModel.formula()).append(" (the ideal, at carriers / ms, in brackets), beside the measured waits of the probes ")
                .append("sent from ").append(UnrelatedWait.SETTLE.toSeconds()).append(" s after the load started until it stopped. ")
                .append("Per probe the model says that while it waits, the requests ahead of it are answered, no more, no fewer: ")
                .append("\"served while waiting\" gives the load's answers while each probe waited (min / p50 / max), and \"in turn\" ")
                .append("the share of probes for which they were within ±").append(Math.round(QueueModel.TOLERANCE * 100))
                .append(" % of the requests ahead. Event loops: how many answered probes, and the slowest one's p50 over the fastest one's. ")
                .append("\"Slow ones answered\": when the probes over twice the model were answered, in seconds after the load stopped")
                .append(" (min / p50 / max; negative: before).\n\n");
        md.append("| phase | event loops | model ms (ideal) | probes | min | p10 | p50 | p90 | p99 | max | > 1 s | > 3 s | ahead | served while waiting | in turn | > 2x model | slow ones answered | slowest / fastest event loop p50 |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (PhaseReport phase : phases) {
            UnrelatedWait wait = phase.unrelatedWait();
            ProbeDistribution all = wait.measured();
            md.append("| ").append(phase.name()).append(" | ").append(wait.eventLoopsSeen()).append(" of ")
                    .append(eventLoops(report, phase)).append(" | ").append(Figures.fixed(wait.modelMillis())).append(" (")
                    .append(Figures.fixed(wait.idealMillis())).append(") | ").append(all.count())
                    .append(all.failed() > 0 ? " (" + all.failed() + " failed)" : "").append(" | ")
                    .append(row(all)).append(" | ").append(wait.ahead()).append(" | ").append(served(wait)).append(" | ")
                    .append(Figures.percent(wait.withinTolerance())).append(" | ")
                    .append(Figures.percent(wait.overTwiceModel())).append(" | ").append(afterStop(wait)).append(" | ")
                    .append(Figures.times(wait.slowestToFastestP50())).append(" |\n");
        }
        md.append("\n### Per event loop\n\n");
        md.append("| phase | event loop | probes | min | p10 | p50 | p90 | p99 | max | > 1 s | > 3 s |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (PhaseReport phase : phases) {
            for (Map.Entry<String, ProbeDistribution> loop : phase.unrelatedWait().byEventLoop().entrySet()) {
                md.append("| ").append(phase.name()).append(" | ").append(UnrelatedWait.shortName(loop.getKey())).append(" | ")
                        .append(loop.getValue().count()).append(" | ").append(row(loop.getValue())).append(" |\n");
            }
        }
        if (CdfChart.pick(report).isPresent()) {
            md.append("\n![/probe/virtual's wait, one event loop against the default, per event loop](").append(CdfChart.FILE).append(")\n");
        }
        return md.toString();
    }

    private static String afterStop(UnrelatedWait wait) {
        double[] at = wait.slowAnsweredAfterStop();
        return at == null ? "-" : String.format(Locale.ROOT, "%+.1f / %+.1f / %+.1f s", at[0], at[1], at[2]);
    }

    private static String served(UnrelatedWait wait) {
        int[] served = wait.servedWhileWaiting();
        return served == null ? "-" : served[0] + " / " + served[1] + " / " + served[2];
    }

    /** The figures of one distribution as table cells, in seconds to two decimals. */
    private static String row(ProbeDistribution d) {
        return String.join(" | ", Figures.seconds(d.minMillis()), Figures.seconds(d.p10Millis()), Figures.seconds(d.p50Millis()), Figures.seconds(d.p90Millis()),
                Figures.seconds(d.p99Millis()), Figures.seconds(d.maxMillis()), Figures.percent(d.overOneSecond()), Figures.percent(d.overThreeSeconds()));
    }

    private static String eventLoops(ExperimentReport report, PhaseReport phase) {
        ServerFacts server = report.servers().get(phase.jvm());
        return server == null ? "?" : String.valueOf(server.eventLoops());
    }
}
