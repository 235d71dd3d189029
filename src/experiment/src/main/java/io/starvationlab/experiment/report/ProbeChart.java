package io.starvationlab.experiment.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.run.MeasuredServer;

/** An SVG bar chart of each probe's p99 per phase, on a log scale from 0.1 ms to 100 s. */
final class ProbeChart {

    static final String FILE = "probe-p99.svg";
    /** The unrelated endpoints, in the order the charts and the tables give them. */
    static final List<String> PROBES = List.of("virtual", "worker", "event-loop", "health-live");
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
        List<JudgedPhase> phases = report.run().phases();
        MeasuredServer.Info first = report.run().servers().values().stream().findFirst().orElse(null);
        Svg svg = new Svg(LEFT + phases.size() * GROUP + 180, TOP + PLOT_HEIGHT + 190, LEFT, "Unrelated endpoints' p99 latency per phase (log scale)",
                first == null ? "" : String.format(Locale.ROOT, "%s, %d carriers per server, %s%s", first.javaVersion(), first.carriers(),
                        report.environment().os(), report.quick() ? ", quick mode" : ""));
        for (double tick = MIN_MS; tick <= MAX_MS; tick *= 10) {
            svg.add("<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", LEFT, LEFT + phases.size() * GROUP, y(tick), y(tick));
            svg.add("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LEFT - 6, y(tick) + 4, tick >= 1000 ? Math.round(tick / 1000) + " s"
                    : tick >= 1 ? Math.round(tick) + " ms" : String.format(Locale.ROOT, "%.1f ms", tick));
        }
        svg.add("<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\">p99 latency</text>", TOP + PLOT_HEIGHT / 2);
        for (int i = 0; i < phases.size(); i++) {
            JudgedPhase phase = phases.get(i);
            int x0 = LEFT + i * GROUP + 6;
            if (JudgedPhase.STARVED.equals(phase.verdict())) {
                svg.add("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fde8e8\"/>", x0 - 4, TOP, GROUP - 4, PLOT_HEIGHT);
            }
            for (int p = 0; p < PROBES.size(); p++) {
                double value = phase.probes().get(PROBES.get(p)).p99Millis();
                if (!Double.isNaN(value)) {
                    double y = y(Math.max(MIN_MS, Math.min(MAX_MS, value)));
                    svg.add("<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s %s p99 %.1f ms</title></rect>", x0 + p * BAR, y,
                            BAR - 1, TOP + PLOT_HEIGHT - y, COLOURS.get(p), Svg.escape(phase.name()), PROBES.get(p), value);
                }
            }
            svg.add("<text transform=\"translate(%d %d) rotate(-50)\" text-anchor=\"end\">%s</text>", x0 + 2 * BAR, TOP + PLOT_HEIGHT + 14,
                    Svg.escape(phase.name()));
        }
        List<List<String>> legend = new ArrayList<>(IntStream.range(0, PROBES.size())
                .mapToObj(p -> List.of(COLOURS.get(p), PROBES.get(p).equals("health-live") ? "/q/health/live" : "/probe/" + PROBES.get(p))).toList());
        legend.add(List.of("#fde8e8", "starved phase"));
        return svg.legend(LEFT + phases.size() * GROUP + 20, TOP, 20, legend).end();
    }

    private static double y(double millis) {
        double fraction = (Math.log10(millis) - Math.log10(MIN_MS)) / (Math.log10(MAX_MS) - Math.log10(MIN_MS));
        return TOP + PLOT_HEIGHT * (1 - fraction);
    }
}
