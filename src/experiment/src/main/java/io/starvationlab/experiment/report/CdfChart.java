package io.starvationlab.experiment.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.starvationlab.experiment.results.PhaseReport;
import io.starvationlab.experiment.results.ProbeDistribution;
import io.starvationlab.experiment.results.UnrelatedWait;

/**
 * An SVG of the cumulative distribution of {@code /probe/virtual}'s wait under the same load with one
 * event loop and with Quarkus' default: both overall, and each of the default's event loops on its
 * own, with each phase's model as a dashed line.
 */
final class CdfChart {

    static final String FILE = "unrelated-wait-cdf.svg";
    /** The pairs that may be drawn: the same load with one event loop and with the default. */
    private static final List<List<String>> PAIRS = List.of(List.of("native-one-event-loop", "native"),
            List.of("pinned-one-event-loop", "pinned-legacy-locking"),
            List.of("native-one-event-loop-wide-permits", "native-default-event-loops-wide-permits"),
            List.of("pinned-one-event-loop-wide-permits", "pinned-default-event-loops-wide-permits"));
    private static final String ONE = "#1f77b4";
    private static final String MANY = "#d62728";
    private static final List<String> LOOP_COLOURS = List.of("#ff9896", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94", "#f7b6d2",
            "#dbdb8d", "#9edae5");
    private static final int LEFT = 70;
    private static final int TOP = 50;
    private static final int WIDTH = 640;
    private static final int HEIGHT = 360;

    private CdfChart() {
    }

    /**
     * The pair to draw: of those the run has, the one whose default-event-loops phase spread its event
     * loops' medians most, as unfairness comes and goes between runs; the chart's title names it.
     */
    static Optional<List<PhaseReport>> pick(ExperimentReport report) {
        List<List<PhaseReport>> present = new ArrayList<>();
        for (List<String> pair : PAIRS) {
            Optional<PhaseReport> one = report.phase(pair.get(0)).filter(p -> p.unrelatedWait() != null);
            Optional<PhaseReport> many = report.phase(pair.get(1)).filter(p -> p.unrelatedWait() != null);
            if (one.isPresent() && many.isPresent()) {
                present.add(List.of(one.get(), many.get()));
            }
        }
        return present.stream().max(java.util.Comparator.comparingDouble(pair -> {
            double spread = pair.get(1).unrelatedWait().slowestToFastestP50();
            return Double.isNaN(spread) ? 0 : spread;
        }));
    }

    static String svg(PhaseReport one, PhaseReport many, int carriers, int eventLoops) {
        double maxMillis = Math.max(one.unrelatedWait().measured().maxMillis(), many.unrelatedWait().measured().maxMillis());
        double maxSeconds = Math.max(1, Math.ceil(maxMillis / 1000));
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n",
                LEFT + WIDTH + 220, TOP + HEIGHT + 60));
        svg.append(String.format(Locale.ROOT, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n"));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">/probe/virtual's wait under %s load: one event loop against %d</text>%n",
                LEFT, Svg.escape(one.mode()), eventLoops));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"38\" fill=\"#555\">%s against %s: %d x %d ms on %d carriers; share of probes answered within a wait</text>%n",
                LEFT, Svg.escape(one.name()), Svg.escape(many.name()), one.concurrency(), one.ms(), carriers));
        for (int tick = 0; tick <= maxSeconds; tick += Math.max(1, (int) Math.ceil(maxSeconds / 10))) {
            double x = x(tick * 1000.0, maxSeconds);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#eee\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d s</text>%n",
                    x, x, TOP, TOP + HEIGHT, x, TOP + HEIGHT + 16, tick));
        }
        for (int share = 0; share <= 100; share += 25) {
            double y = y(share / 100.0);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d %%</text>%n",
                    LEFT, LEFT + WIDTH, y, y, LEFT - 6, y + 4, share));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">wait</text>%n", LEFT + WIDTH / 2, TOP + HEIGHT + 34));
        List<String> legend = new ArrayList<>();
        int colour = 0;
        for (Map.Entry<String, ProbeDistribution> loop : many.unrelatedWait().byEventLoop().entrySet()) {
            String stroke = LOOP_COLOURS.get(colour++ % LOOP_COLOURS.size());
            curve(svg, waits(many, loop.getKey()), maxSeconds, stroke, 1.2, many.name() + " " + loop.getKey());
            legend.add(stroke + "|" + UnrelatedWait.shortName(loop.getKey()) + " of " + eventLoops + " (" + loop.getValue().count() + ")");
        }
        curve(svg, waits(many, null), maxSeconds, MANY, 3, many.name());
        curve(svg, waits(one, null), maxSeconds, ONE, 3, one.name());
        model(svg, one, maxSeconds, ONE);
        model(svg, many, maxSeconds, MANY);
        legend.add(0, MANY + "|" + eventLoops + " event loops, all (" + many.unrelatedWait().measured().count() + ")");
        legend.add(0, ONE + "|one event loop (" + one.unrelatedWait().measured().count() + ")");
        int ly = TOP;
        for (String entry : legend) {
            String[] parts = entry.split("\\|", 2);
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n",
                    LEFT + WIDTH + 16, ly + 4, parts[0], LEFT + WIDTH + 36, ly + 9, Svg.escape(parts[1])));
            ly += 18;
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#555\">dashed: each phase's model</text>%n", LEFT + WIDTH + 16, ly + 9));
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static double[] waits(PhaseReport phase, String eventLoop) {
        return phase.unrelatedWait().probes().stream().filter(p -> eventLoop == null || eventLoop.equals(p.eventLoop()))
                .mapToDouble(UnrelatedWait.Probe::waitMillis).sorted().toArray();
    }

    private static void curve(StringBuilder svg, double[] sorted, double maxSeconds, String stroke, double width, String title) {
        if (sorted.length == 0) {
            return;
        }
        StringBuilder points = new StringBuilder();
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(sorted[0], maxSeconds), y(0)));
        for (int i = 0; i < sorted.length; i++) {
            double x = x(sorted[i], maxSeconds);
            points.append(String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", x, y(i / (double) sorted.length), x, y((i + 1) / (double) sorted.length)));
        }
        svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" points=\"%s\"><title>%s</title></polyline>%n",
                stroke, width, points.toString().trim(), Svg.escape(title)));
    }

    private static void model(StringBuilder svg, PhaseReport phase, double maxSeconds, String stroke) {
        double x = x(phase.unrelatedWait().modelMillis(), maxSeconds);
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"5 4\"><title>%s model %.0f ms</title></line>%n",
                x, x, TOP, TOP + HEIGHT, stroke, Svg.escape(phase.name()), phase.unrelatedWait().modelMillis()));
    }

    private static double x(double millis, double maxSeconds) {
        return LEFT + WIDTH * Math.min(millis / (maxSeconds * 1000), 1);
    }

    private static double y(double share) {
        return TOP + HEIGHT * (1 - share);
    }
}
