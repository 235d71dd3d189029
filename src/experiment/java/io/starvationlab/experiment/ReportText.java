package io.starvationlab.experiment;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The report as text: the console table and {@code report.md}. */
final class ReportText {

    private static final List<String> PROBES = List.of("virtual", "worker", "event-loop", "health-live");

    private ReportText() {
    }

    static String table(ExperimentReport report) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-28s %-14s %9s %9s %-12s %6s | %-21s %-21s %-21s %-21s | %9s %9s %9s %9s %7s | %s%n",
                "phase", "mode/down", "req/s", "model", "bound", "errors", "virtual p50/p99 ms", "worker p50/p99 ms",
                "event-loop p50/p99 ms", "health p50/p99 ms", "canary99", "stalled", "request99", "stalled", "pinned", "verdict"));
        for (PhaseReport phase : report.phases()) {
            out.append(String.format(Locale.ROOT, "%-28s %-14s %9s %9s %-12s %6s | %-21s %-21s %-21s %-21s | %9s %9s %9s %9s %7d | %s%n",
                    phase.name(), phase.isBaseline() ? "-" : phase.mode() + "/" + phase.downstream(),
                    phase.isBaseline() ? "-" : fixed(phase.throughputPerSecond()),
                    phase.isBaseline() ? "-" : fixed(phase.modelLimitPerSecond()),
                    phase.modelBasis(), phase.isBaseline() ? "-" : String.valueOf(phase.errors()),
                    pair(phase, "virtual"), pair(phase, "worker"), pair(phase, "event-loop"), pair(phase, "health-live"),
                    fixed(phase.canaryP99Millis()), fixed(phase.canaryMaxStalledMillis()), fixed(phase.requestWaitP99Millis()),
                    fixed(phase.requestMaxStalledMillis()), phase.pinnedEvents(), verdict(phase)));
        }
        return out.toString();
    }

    static String findings(ExperimentReport report) {
        StringBuilder out = new StringBuilder();
        for (Finding finding : report.findings()) {
            out.append(String.format(Locale.ROOT, "[%s] %s%n       expected: %s%n       measured: %s%n",
                    finding.holds() == null ? "n/a " : finding.holds() ? "HOLDS" : "FAILS", finding.claim(), finding.expected(),
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

        ExperimentReport.Environment env = report.environment();
        md.append("## Environment\n\n");
        md.append("- Run: ").append(report.startedAt()).append(report.quick() ? " (quick mode: shortened phases, some skipped)" : "").append('\n');
        md.append("- Machine: ").append(env.os()).append(", ").append(env.hostProcessors()).append(" processors\n");
        md.append("- Load and probes: a separate JVM (").append(env.clientJava()).append("), platform threads; probes at ")
                .append(env.probesPerSecond().entrySet().stream().map(rate -> fixed(rate.getValue()) + "/s on " + rate.getKey())
                        .collect(Collectors.joining(", "))).append('\n');
        md.append("- Plan: `").append(env.plan()).append("`\n\n");
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
                    .append(" | ").append(phase.isBaseline() ? "-" : fixed(phase.throughputPerSecond()))
                    .append(" | ").append(phase.isBaseline() ? "-" : fixed(phase.modelLimitPerSecond()) + " (" + phase.modelBasis() + ")")
                    .append(" | ").append(phase.isBaseline() ? "-" : phase.errors() + (phase.errors() > 0 ? " " + phase.statuses() : ""))
                    .append(" |");
            PROBES.forEach(probe -> {
                PhaseReport.ProbeFigures figures = phase.probes().get(probe);
                md.append(' ').append(fixed(figures.p50Millis())).append(" / ").append(fixed(figures.p99Millis())).append(" / ")
                        .append(fixed(figures.maxMillis())).append(figures.errors() > 0 ? " (" + figures.errors() + " failed)" : "").append(" |");
            });
            md.append(' ').append(fixed(phase.canaryP99Millis())).append(" | ").append(fixed(phase.canaryMaxStalledMillis()))
                    .append(" | ").append(fixed(phase.requestWaitP99Millis())).append(" | ").append(fixed(phase.requestMaxStalledMillis()))
                    .append(" | ").append(phase.pinnedEvents()).append(" | ")
                    .append(phase.topPinnedFrame() == null ? "-" : "`" + phase.topPinnedFrame().replaceFirst("^io\\.starvationlab\\.", "") + "`")
                    .append(" | ").append(verdict(phase)).append(" |\n");
        }
        md.append("\n![probe p99 per phase, log scale](probe-p99.svg)\n");
        md.append(WaitText.markdown(report)).append('\n');
        if (report.matrix() != null) {
            md.append(MatrixText.markdown(report.matrix())).append('\n');
        }
        md.append("## Findings\n\n| claim | expected | measured | result |\n|---|---|---|---|\n");
        for (Finding finding : report.findings()) {
            md.append("| ").append(finding.claim()).append(" | ").append(finding.expected()).append(" | ").append(finding.measured())
                    .append(" | ").append(finding.holds() == null ? "n/a" : finding.holds() ? "holds" : "**fails**").append(" |\n");
        }
        md.append("\nThe model limit is what runs out first: carriers (work that holds them), the permits, the worker pool, "
                + "a shared lock, or the clients' concurrency; each divided by the call's duration.\n");
        md.append(report.prometheus().markdown());
        return md.toString();
    }

    private static String pair(PhaseReport phase, String probe) {
        PhaseReport.ProbeFigures figures = phase.probes().get(probe);
        return fixed(figures.p50Millis()) + " / " + fixed(figures.p99Millis());
    }

    private static String verdict(PhaseReport phase) {
        return phase.isBaseline() ? (phase.note() == null ? "-" : phase.note()) : phase.verdict().toUpperCase(Locale.ROOT) + String.format(Locale.ROOT, " (%.0fx)", phase.virtualProbeSlowdown());
    }

    static String fixed(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        return value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
