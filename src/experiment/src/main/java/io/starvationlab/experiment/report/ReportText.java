package io.starvationlab.experiment.report;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.starvationlab.experiment.findings.Finding;
import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.PhaseReport;
import io.starvationlab.experiment.run.Environment;

/** The report as text: the console table and {@code report.md}. */
public final class ReportText {

    private static final List<String> PROBES = List.of("virtual", "worker", "event-loop", "health-live");

    private ReportText() {
    }

    public static String table(ExperimentReport report) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-28s %-14s %9s %9s %-12s %6s | %-21s %-21s %-21s %-21s | %9s %9s %9s %9s %7s | %s%n",
                "phase", "mode/down", "req/s", "model", "bound", "errors", "virtual p50/p99 ms", "worker p50/p99 ms",
                "event-loop p50/p99 ms", "health p50/p99 ms", "canary99", "stalled", "request99", "stalled", "pinned", "verdict"));
        for (PhaseReport phase : report.phases()) {
            out.append(String.format(Locale.ROOT, "%-28s %-14s %9s %9s %-12s %6s | %-21s %-21s %-21s %-21s | %9s %9s %9s %9s %7d | %s%n",
                    phase.name(), phase.isBaseline() ? "-" : phase.mode() + "/" + phase.downstream(),
                    phase.isBaseline() ? "-" : Figures.fixed(phase.throughputPerSecond()),
                    phase.isBaseline() ? "-" : Figures.fixed(phase.modelLimitPerSecond()),
                    phase.modelBasis(), phase.isBaseline() ? "-" : String.valueOf(phase.errors()),
                    pair(phase, "virtual"), pair(phase, "worker"), pair(phase, "event-loop"), pair(phase, "health-live"),
                    Figures.fixed(phase.canaryP99Millis()), Figures.fixed(phase.canaryMaxStalledMillis()), Figures.fixed(phase.requestWaitP99Millis()),
                    Figures.fixed(phase.requestMaxStalledMillis()), phase.pinnedEvents(), verdict(phase)));
        }
        return out.toString();
    }

    public static String findings(ExperimentReport report) {
        StringBuilder out = new StringBuilder();
        for (Finding finding : report.findings()) {
            out.append(String.format(Locale.ROOT, "[%s] %s: %s%n       expected: %s%n       measured: %s%n",
                    finding.holds() == null ? "n/a " : finding.holds() ? "HOLDS" : "FAILS", finding.id(), finding.claim(), finding.expected(),
                    finding.measured()));
        }
        return out.toString();
    }

    static String markdown(ExperimentReport report) {
        StringBuilder md = new StringBuilder();
        md.append("# Starvation Lab: experiment report\n\n");
        long holds = report.findings().stream().filter(f -> Boolean.TRUE.equals(f.holds())).count();
        long measured = report.findings().stream().filter(f -> f.holds() != null).count();
        md.append("**TL;DR** — ").append(report.phases().stream().filter(p -> PhaseReport.STARVED.equals(p.verdict()))
                .map(PhaseReport::name).collect(Collectors.joining(", ", "starved: ", "")))
                .append("; ").append(report.phases().stream().filter(p -> PhaseReport.NOT_STARVED.equals(p.verdict()))
                        .map(PhaseReport::name).collect(Collectors.joining(", ", "not starved: ", "")))
                .append(". Findings reproduced: ").append(holds).append(" of ").append(measured).append(" measured.\n\n");
        md.append("Verdict rule: ").append(report.verdictRule()).append(".\n\n");

        Environment env = report.environment();
        md.append("## Environment\n\n");
        md.append("- Run: ").append(report.startedAt()).append(report.quick() ? " (quick mode: shortened phases, some skipped)" : "").append('\n');
        md.append("- Machine: ").append(env.os()).append(", ").append(env.hostProcessors()).append(" processors\n");
        md.append("- Load and probes: a separate JVM (").append(env.clientJava()).append("), platform threads; probes at ")
                .append(env.probesPerSecond().entrySet().stream().map(rate -> Figures.fixed(rate.getValue()) + "/s on " + rate.getKey())
                        .collect(Collectors.joining(", "))).append('\n');
        md.append("- Plan: `").append(env.plan()).append("`\n");
        report.notRun().forEach(line -> md.append("- Not run: ").append(line).append('\n'));
        md.append('\n');
        md.append("| server JVM | JDK | carriers | synchronized pins | LockingMode | flags |\n|---|---|---|---|---|---|\n");
        report.servers().values().forEach(server -> md.append("| ").append(server.jvm()).append(" | ").append(server.javaVersion()).append(" (").append(server.javaVendor()).append(")")
                .append(" | ").append(server.carriers()).append(" | ").append(server.synchronizedPins()).append(" | ")
                .append(server.lockingMode()).append(" | `").append(String.join(" ", server.jvmArguments())).append("` |\n"));

        md.append("\n## Phases\n\n");
        md.append("| phase | mode / downstream / lock | ms x concurrency | req/s | model limit (bound) | errors |");
        PROBES.forEach(probe -> md.append(' ').append(probe).append(" p50 / p99 / max ms |"));
        md.append(" canary p99 ms | canary stalled max ms | request wait p99 ms | request stalled max ms | pinned events | top pinned frame | verdict |\n|---|---|---|---|---|---|");
        PROBES.forEach(probe -> md.append("---|"));
        md.append("---|---|---|---|---|---|---|\n");
        for (PhaseReport phase : report.phases()) {
            md.append("| ").append(phase.name()).append(" | ")
                    .append(phase.isBaseline() ? "probes only" : phase.mode() + " / " + phase.downstream() + " / " + phase.lock())
                    .append(" | ").append(phase.isBaseline() ? "-" : phase.ms() + " x " + phase.concurrency())
                    .append(" | ").append(phase.isBaseline() ? "-" : Figures.fixed(phase.throughputPerSecond()))
                    .append(" | ").append(phase.isBaseline() ? "-" : Figures.fixed(phase.modelLimitPerSecond()) + " (" + phase.modelBasis() + ")")
                    .append(" | ").append(phase.isBaseline() ? "-" : phase.errors() + (phase.errors() > 0 ? " " + phase.statuses() : ""))
                    .append(" |");
            PROBES.forEach(probe -> {
                PhaseReport.ProbeFigures figures = phase.probes().get(probe);
                md.append(' ').append(Figures.fixed(figures.p50Millis())).append(" / ").append(Figures.fixed(figures.p99Millis())).append(" / ")
                        .append(Figures.fixed(figures.maxMillis())).append(figures.errors() > 0 ? " (" + figures.errors() + " failed)" : "").append(" |");
            });
            md.append(' ').append(Figures.fixed(phase.canaryP99Millis())).append(" | ").append(Figures.fixed(phase.canaryMaxStalledMillis()))
                    .append(" | ").append(Figures.fixed(phase.requestWaitP99Millis())).append(" | ").append(Figures.fixed(phase.requestMaxStalledMillis()))
                    .append(" | ").append(phase.pinnedEvents()).append(" | ")
                    .append(phase.topPinnedFrame() == null ? "-" : "`" + phase.topPinnedFrame().replaceFirst("^io\\.starvationlab\\.", "") + "`")
                    .append(" | ").append(verdict(phase)).append(" |\n");
        }
        md.append("\n![probe p99 per phase, log scale](probe-p99.svg)\n");
        md.append(WaitText.markdown(report)).append('\n');
        md.append(QuotaText.markdown(report.quota()));
        md.append(K6Text.markdown(report.k6(), report.virtualReach()));
        md.append(ColdStartText.markdown(report.coldStarts()));
        if (report.matrix() != null) {
            md.append(MatrixText.markdown(report.matrix())).append('\n');
        }
        md.append("## Findings\n\n| id | claim | expected | measured | result |\n|---|---|---|---|---|\n");
        for (Finding finding : report.findings()) {
            md.append("| `").append(finding.id()).append("` | ").append(finding.claim()).append(" | ").append(finding.expected()).append(" | ").append(finding.measured())
                    .append(" | ").append(finding.holds() == null ? "n/a" : finding.holds() ? "holds" : "**fails**").append(" |\n");
        }
        md.append("\nThe model limit is what runs out first: carriers (work that holds them), the permits, the worker pool, "
                + "a shared lock, or the clients' concurrency; each divided by the call's duration.\n");
        md.append(AlertText.markdown(report.prometheus()));
        return md.toString();
    }

    private static String pair(PhaseReport phase, String probe) {
        PhaseReport.ProbeFigures figures = phase.probes().get(probe);
        return Figures.fixed(figures.p50Millis()) + " / " + Figures.fixed(figures.p99Millis());
    }

    private static String verdict(PhaseReport phase) {
        return phase.isBaseline() ? (phase.note() == null ? "-" : phase.note()) : phase.verdict().toUpperCase(Locale.ROOT) + String.format(Locale.ROOT, " (%.0fx)", phase.virtualProbeSlowdown());
    }
}
