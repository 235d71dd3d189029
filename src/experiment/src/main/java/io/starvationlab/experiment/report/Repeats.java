package io.starvationlab.experiment.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.starvationlab.experiment.findings.Finding;
import io.starvationlab.experiment.results.JudgedPhase;

/**
 * The same plan run several times ({@code --repeat N}): each figure's spread over the runs, and every
 * verdict or finding that differs between them flagged, not averaged away. Written as
 * {@code repeats.md} and {@code repeats.json} ({@link ReportFiles}).
 *
 * @param phases   per phase, in the order of the first run
 * @param findings per finding, by its id
 */
public record Repeats(int runs, Map<String, PhaseSpread> phases, Map<String, FindingSpread> findings) {

    public record Spread(double min, double max) {
        static Spread of(List<JudgedPhase> runs, ToDoubleFunction<JudgedPhase> figure) {
            return new Spread(runs.stream().mapToDouble(figure).min().orElse(Double.NaN), runs.stream().mapToDouble(figure).max().orElse(Double.NaN));
        }
    }

    /** One phase over the runs; {@code flipped} when its verdict differs between them. */
    public record PhaseSpread(List<String> verdicts, boolean flipped, Spread throughputPerSecond, Spread virtualP50Millis,
            Spread virtualP99Millis, Spread virtualMaxMillis, Spread overThreeSeconds, Spread slowestToFastestP50) {
    }

    /** One finding over the runs; {@code flipped} when it holds in some and fails in others. */
    public record FindingSpread(String claim, List<Boolean> holds, boolean flipped, List<String> measured) {
    }

    public static Repeats of(List<ExperimentReport> reports) {
        Map<String, List<JudgedPhase>> byPhase = new LinkedHashMap<>();
        reports.forEach(report -> report.run().phases().forEach(phase -> byPhase.computeIfAbsent(phase.name(), name -> new ArrayList<>()).add(phase)));
        Map<String, PhaseSpread> phases = new LinkedHashMap<>();
        byPhase.forEach((name, runs) -> {
            List<String> verdicts = runs.stream().map(JudgedPhase::verdict).toList();
            phases.put(name, new PhaseSpread(verdicts, verdicts.stream().distinct().count() > 1 || runs.size() < reports.size(),
                    Spread.of(runs, JudgedPhase::throughputPerSecond), Spread.of(runs, p -> p.probes().get("virtual").p50Millis()),
                    Spread.of(runs, p -> p.probes().get("virtual").p99Millis()), Spread.of(runs, p -> p.probes().get("virtual").maxMillis()),
                    Spread.of(runs, p -> p.unrelatedWait() == null ? Double.NaN : p.unrelatedWait().measured().overThreeSeconds()),
                    Spread.of(runs, p -> p.unrelatedWait() == null ? Double.NaN : p.unrelatedWait().slowestToFastestP50())));
        });
        Map<String, List<Finding>> byId = new LinkedHashMap<>();
        reports.forEach(report -> report.findings().forEach(finding -> byId.computeIfAbsent(finding.id(), id -> new ArrayList<>()).add(finding)));
        Map<String, FindingSpread> findings = new LinkedHashMap<>();
        byId.forEach((id, runs) -> {
            List<Boolean> holds = runs.stream().map(Finding::holds).toList();
            findings.put(id, new FindingSpread(runs.getFirst().claim(), holds, holds.stream().distinct().count() > 1, runs.stream().map(Finding::measured).toList()));
        });
        return new Repeats(reports.size(), phases, findings);
    }

    public boolean anyFlipped() {
        return phases.values().stream().anyMatch(PhaseSpread::flipped) || findings.values().stream().anyMatch(FindingSpread::flipped);
    }

    public String markdown() {
        StringBuilder md = new StringBuilder("# Starvation Lab: ").append(runs).append(" runs of the same plan\n\n");
        md.append(anyFlipped() ? "**Some verdicts differ between runs: flagged below (FLIPPED).**\n\n"
                : "Every verdict and finding is the same in every run.\n\n");
        md.append("Each figure as min – max over the runs; each run's own report is under `repeat-N/`.\n\n");
        Table phaseTable = new Table("phase", "verdicts", "req/s", "/probe/virtual p50", "p99", "max", "share over 3 s",
                "slowest / fastest event loop p50");
        phases.forEach((name, spread) -> phaseTable.row(name, (spread.flipped() ? "**FLIPPED** " : "") + String.join(", ", spread.verdicts()),
                range(spread.throughputPerSecond(), "%.1f"), range(spread.virtualP50Millis(), "%.1f ms"), range(spread.virtualP99Millis(), "%.1f ms"),
                range(spread.virtualMaxMillis(), "%.1f ms"), range(scaled(spread.overThreeSeconds(), 100), "%.0f %%"),
                range(spread.slowestToFastestP50(), "%.1fx")));
        Table findingTable = new Table("finding", "claim", "result per run");
        findings.forEach((id, spread) -> findingTable.row("`" + id + "`", spread.claim(), (spread.flipped() ? "**FLIPPED** " : "")
                + String.join(", ", spread.holds().stream().map(h -> h == null ? "n/a" : h ? "holds" : "fails").toList())));
        return md.append(phaseTable).append('\n').append(findingTable).toString();
    }

    private static Spread scaled(Spread spread, double factor) {
        return new Spread(spread.min() * factor, spread.max() * factor);
    }

    private static String range(Spread spread, String format) {
        if (Double.isNaN(spread.min())) {
            return "-";
        }
        String min = String.format(Locale.ROOT, format, spread.min());
        String max = String.format(Locale.ROOT, format, spread.max());
        return min.equals(max) ? min : min + " – " + max;
    }
}
