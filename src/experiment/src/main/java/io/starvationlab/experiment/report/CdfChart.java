package io.starvationlab.experiment.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.JudgedRun;
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
    static Optional<List<JudgedPhase>> pick(JudgedRun run) {
        return PAIRS.stream().map(pair -> pair.stream().map(run::phase).flatMap(Optional::stream).filter(p -> p.unrelatedWait() != null).toList())
                .filter(pair -> pair.size() == 2).max(Comparator.comparingDouble(pair -> {
                    double spread = pair.get(1).unrelatedWait().slowestToFastestP50();
                    return Double.isNaN(spread) ? 0 : spread;
                }));
    }

    static String svg(JudgedPhase one, JudgedPhase many, int carriers, int eventLoops) {
        double maxSeconds = Math.max(1, Math.ceil(Math.max(one.unrelatedWait().measured().maxMillis(), many.unrelatedWait().measured().maxMillis()) / 1000));
        Svg svg = new Svg(LEFT + WIDTH + 220, TOP + HEIGHT + 60, LEFT, "/probe/virtual's wait under " + one.mode() + " load: one event loop against "
                + eventLoops, String.format(Locale.ROOT, "%s against %s: %d x %d ms on %d carriers; share of probes answered within a wait", one.name(),
                        many.name(), one.concurrency(), one.ms(), carriers));
        for (int tick = 0; tick <= maxSeconds; tick += Math.max(1, (int) Math.ceil(maxSeconds / 10))) {
            double x = x(tick * 1000.0, maxSeconds);
            svg.add("<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#eee\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d s</text>",
                    x, x, TOP, TOP + HEIGHT, x, TOP + HEIGHT + 16, tick);
        }
        for (int share = 0; share <= 100; share += 25) {
            double y = y(share / 100.0);
            svg.add("<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d %%</text>",
                    LEFT, LEFT + WIDTH, y, y, LEFT - 6, y + 4, share);
        }
        svg.add("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">wait</text>", LEFT + WIDTH / 2, TOP + HEIGHT + 34);
        List<List<String>> legend = new ArrayList<>(List.of(List.of(ONE, "one event loop (" + one.unrelatedWait().measured().count() + ")"),
                List.of(MANY, eventLoops + " event loops, all (" + many.unrelatedWait().measured().count() + ")")));
        int colour = 0;
        for (Map.Entry<String, ProbeDistribution> loop : many.unrelatedWait().byEventLoop().entrySet()) {
            String stroke = LOOP_COLOURS.get(colour++ % LOOP_COLOURS.size());
            curve(svg, waits(many, loop.getKey()), maxSeconds, stroke, 1.2, many.name() + " " + loop.getKey());
            legend.add(List.of(stroke, UnrelatedWait.shortName(loop.getKey()) + " of " + eventLoops + " (" + loop.getValue().count() + ")"));
        }
        curve(svg, waits(many, null), maxSeconds, MANY, 3, many.name());
        curve(svg, waits(one, null), maxSeconds, ONE, 3, one.name());
        for (JudgedPhase phase : List.of(one, many)) {
            double x = x(phase.unrelatedWait().modelMillis(), maxSeconds);
            svg.add("<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"5 4\"><title>%s model %.0f ms</title></line>",
                    x, x, TOP, TOP + HEIGHT, phase == one ? ONE : MANY, Svg.escape(phase.name()), phase.unrelatedWait().modelMillis());
        }
        svg.legend(LEFT + WIDTH + 16, TOP, 18, legend);
        return svg.add("<text x=\"%d\" y=\"%d\" fill=\"#555\">dashed: each phase's model</text>", LEFT + WIDTH + 16, TOP + legend.size() * 18 + 9)
                .end();
    }

    private static double[] waits(JudgedPhase phase, String eventLoop) {
        return phase.unrelatedWait().probes().stream().filter(p -> eventLoop == null || eventLoop.equals(p.eventLoop()))
                .mapToDouble(UnrelatedWait.Probe::waitMillis).sorted().toArray();
    }

    private static void curve(Svg svg, double[] sorted, double maxSeconds, String stroke, double width, String title) {
        if (sorted.length == 0) {
            return;
        }
        StringBuilder points = new StringBuilder(String.format(Locale.ROOT, "%.1f,%.1f", x(sorted[0], maxSeconds), y(0)));
        for (int i = 0; i < sorted.length; i++) {
            double x = x(sorted[i], maxSeconds);
            points.append(String.format(Locale.ROOT, " %.1f,%.1f %.1f,%.1f", x, y(i / (double) sorted.length), x, y((i + 1) / (double) sorted.length)));
        }
        svg.add("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" points=\"%s\"><title>%s</title></polyline>", stroke, width, points,
                Svg.escape(title));
    }

    private static double x(double millis, double maxSeconds) {
        return LEFT + WIDTH * Math.min(millis / (maxSeconds * 1000), 1);
    }

    private static double y(double share) {
        return TOP + HEIGHT * (1 - share);
    }
}
