package io.starvationlab.experiment.report;

import java.util.List;
import java.util.Locale;

import io.starvationlab.experiment.results.PhaseReport;
import io.starvationlab.experiment.run.ServerFacts;

/** An SVG bar chart of each probe's p99 per phase, on a log scale from 0.1 ms to 100 s. */
final class ProbeChart {

    private static final List<String> PROBES = List.of("virtual", "worker", "event-loop", "health-live");
    private static final List<String> COLOURS = List.of("#d62728", "#1f77b4", "#2ca02c", "#9467bd");
    private static final double MIN_MS = 0.1;
    private static final double MAX_MS = 100_000;
    private static final int LEFT = 70;
    private static final int TOP = 50;
    private static final int PLOT_HEIGHT = 360;
    private static final int GROUP = 56;
    private static final int BAR = 11;

    private ProbeChart() {
    }

    static String svg(ExperimentReport report) {
        List<PhaseReport> phases = report.phases();
        int width = LEFT + phases.size() * GROUP + 180;
        int height = TOP + PLOT_HEIGHT + 190;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">Unrelated endpoints' p99 latency per phase (log scale)</text>%n", LEFT));
        ServerFacts first = report.servers().values().stream().findFirst().orElse(null);
        if (first != null) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"38\" fill=\"#555\">%s, %d carriers per server, %s%s</text>%n", LEFT,
                    Svg.escape(first.javaVersion()), first.carriers(), Svg.escape(report.environment().os()), report.quick() ? ", quick mode" : ""));
        }
        for (double tick = MIN_MS; tick <= MAX_MS; tick *= 10) {
            double y = y(tick);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", LEFT, LEFT + phases.size() * GROUP, y, y));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT - 6, y + 4, label(tick)));
        }
        svg.append(String.format(Locale.ROOT, "<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\">p99 latency</text>%n", TOP + PLOT_HEIGHT / 2));
        for (int i = 0; i < phases.size(); i++) {
            PhaseReport phase = phases.get(i);
            int x0 = LEFT + i * GROUP + 6;
            if (PhaseReport.STARVED.equals(phase.verdict())) {
                svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fde8e8\"/>%n", x0 - 4, TOP, GROUP - 4, PLOT_HEIGHT));
            }
            for (int p = 0; p < PROBES.size(); p++) {
                double value = phase.probes().get(PROBES.get(p)).p99Millis();
                if (Double.isNaN(value)) {
                    continue;
                }
                double clamped = Math.max(MIN_MS, Math.min(MAX_MS, value));
                double y = y(clamped);
                svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s %s p99 %.1f ms</title></rect>%n",
                        x0 + p * BAR, y, BAR - 1, TOP + PLOT_HEIGHT - y, COLOURS.get(p), Svg.escape(phase.name()), PROBES.get(p), value));
            }
            svg.append(String.format(Locale.ROOT, "<text transform=\"translate(%d %d) rotate(-50)\" text-anchor=\"end\">%s</text>%n",
                    x0 + 2 * BAR, TOP + PLOT_HEIGHT + 14, Svg.escape(phase.name())));
        }
        int legendX = LEFT + phases.size() * GROUP + 20;
        for (int p = 0; p < PROBES.size(); p++) {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">/%s</text>%n",
                    legendX, TOP + p * 20, COLOURS.get(p), legendX + 18, TOP + p * 20 + 10,
                    PROBES.get(p).equals("health-live") ? "q/health/live" : "probe/" + PROBES.get(p)));
        }
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"#fde8e8\"/><text x=\"%d\" y=\"%d\">starved phase</text>%n",
                legendX, TOP + 90, legendX + 18, TOP + 100));
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static double y(double millis) {
        double fraction = (Math.log10(millis) - Math.log10(MIN_MS)) / (Math.log10(MAX_MS) - Math.log10(MIN_MS));
        return TOP + PLOT_HEIGHT * (1 - fraction);
    }

    private static String label(double millis) {
        return millis >= 1000 ? String.format(Locale.ROOT, "%.0f s", millis / 1000) : millis >= 1
                ? String.format(Locale.ROOT, "%.0f ms", millis) : String.format(Locale.ROOT, "%.1f ms", millis);
    }
}
