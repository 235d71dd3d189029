package io.starvationlab.experiment.report;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import io.starvationlab.harness.plan.StarvationRule;
import io.starvationlab.experiment.prometheus.AlertEpisode;
import io.starvationlab.experiment.prometheus.AlertRules;
import io.starvationlab.experiment.prometheus.PhaseWindow;
import io.starvationlab.experiment.prometheus.PrometheusRecord;
import io.starvationlab.experiment.prometheus.PrometheusServer;
import io.starvationlab.experiment.prometheus.Series;
import io.starvationlab.experiment.prometheus.TimelineSeries;
import io.starvationlab.harness.LabServer;

/**
 * The whole run over time, as Prometheus saw it: probe latency, the canary's stall and throughput per
 * mode on one time axis, the phases as bands (red: starved) and each alert's pending and firing spans.
 */
final class TimelineChart {

    static final String FILE = "timeline.svg";

    private static final List<String> COLOURS = List.of("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
            "#17becf");
    private static final int LEFT = 80;
    private static final int TOP = 60;
    private static final int PANEL = 150;
    private static final int GAP = 34;
    private static final int LANE = 14;
    private static final double MIN_MS = 1;
    private static final double MAX_MS = 30_000;

    private TimelineChart() {
    }

    /** The run as {@code record} saw it. */
    static String svg(PrometheusRecord record) {
        return svg(record.range().start(), record.range().end(), record.windows(), record.episodes(),
                record.alerts().stream().map(AlertRules.Alert::name).toList(), record.timeline(), "JDK " + record.jdk() + ", "
                        + LabServer.CARRIERS + " carriers per server JVM; bands: the phases' load; lanes: each alert pending (amber) and firing (red)");
    }

    static String svg(Instant start, Instant end, List<PhaseWindow> windows, List<AlertEpisode> episodes, List<String> alerts, TimelineSeries data,
            String subtitle) {
        double seconds = Math.max(1, Duration.between(start, end).toMillis() / 1000.0);
        double perSecond = Math.max(2, Math.min(8, 1400 / seconds));
        int plotWidth = (int) Math.ceil(seconds * perSecond);
        int alertsTop = TOP + 3 * (PANEL + GAP);
        int height = alertsTop + alerts.size() * LANE + 70;
        int width = LEFT + plotWidth + 200;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">The run over time, as Prometheus scraped it (every %d s)</text>%n",
                LEFT, PrometheusServer.INTERVAL.toSeconds()));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"38\" fill=\"#555\">%s</text>%n", LEFT, Svg.escape(subtitle)));
        Scale x = new Scale(start, perSecond);

        // phases as bands across every panel and the alert lanes
        for (PhaseWindow phase : windows) {
            if (PhaseWindow.WARM_UP.equals(phase.verdict())) {
                continue;
            }
            double x0 = x.at(phase.start());
            double x1 = x.at(phase.loadEnd());
            String fill = phase.starved() ? "#fbd5d5" : StarvationRule.NOT_STARVED.equals(phase.verdict()) ? "#e3edf7" : "#eeeeee";
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s (%s)</title></rect>%n",
                    x0, TOP, Math.max(1, x1 - x0), alertsTop + alerts.size() * LANE - TOP, fill, Svg.escape(phase.name()), Svg.escape(phase.verdict())));
            svg.append(String.format(Locale.ROOT, "<text transform=\"translate(%.1f %d) rotate(-40)\" font-size=\"9\">%s</text>%n",
                    x0 + 2, TOP - 3, Svg.escape(phase.name())));
        }

        // 1: probe p99, log scale
        int top = TOP;
        frame(svg, top, plotWidth, "probe p99 (log)");
        for (double tick = MIN_MS; tick <= MAX_MS; tick *= 10) {
            double y = logY(top, tick);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\" stroke-dasharray=\"2 3\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LEFT, LEFT + plotWidth, y, y, LEFT - 4, y + 4, tick >= 1000 ? (long) (tick / 1000) + " s" : (long) tick + " ms"));
        }
        List<String> legend = new ArrayList<>();
        int colour = 0;
        for (Series series : data.probeP99()) {
            String c = COLOURS.get(colour++ % COLOURS.size());
            line(svg, series, x, value -> logY(top, Math.max(MIN_MS, Math.min(MAX_MS, value * 1000))), c);
            legend.add(c + "\u0000" + series.label("uri"));
        }
        legend(svg, LEFT + plotWidth + 12, top, legend);

        // 2: the waits for a carrier in flight: the canary's and the oldest request's
        int top2 = TOP + PANEL + GAP;
        double maxStall = Math.max(1, Stream.concat(data.stalled().stream(), data.requestStalled().stream())
                .flatMap(s -> s.samples().stream()).mapToDouble(Series.Sample::value).filter(Double::isFinite).max().orElse(1));
        double stallTop = Math.ceil(maxStall);
        frame(svg, top2, plotWidth, "waiting for a carrier (s)");
        linearTicks(svg, top2, plotWidth, stallTop, "%.1f s");
        for (Series series : data.stalled()) {
            line(svg, series, x, value -> top2 + PANEL * (1 - value / stallTop), "#d62728");
        }
        for (Series series : data.requestStalled()) {
            line(svg, series, x, value -> top2 + PANEL * (1 - value / stallTop), "#1f77b4");
        }
        legend(svg, LEFT + plotWidth + 12, top2, List.of("#d62728\u0000canary", "#1f77b4\u0000oldest request"));

        // 3: throughput per mode
        int top3 = TOP + 2 * (PANEL + GAP);
        double maxRate = Math.max(10, data.throughput().stream().flatMap(s -> s.samples().stream()).mapToDouble(Series.Sample::value)
                .filter(Double::isFinite).max().orElse(10));
        double rateTop = Math.ceil(maxRate / 100) * 100;
        frame(svg, top3, plotWidth, "work per second");
        linearTicks(svg, top3, plotWidth, rateTop, "%.0f/s");
        legend.clear();
        colour = 0;
        for (Series series : data.throughput()) {
            String c = COLOURS.get(colour++ % COLOURS.size());
            line(svg, series, x, value -> top3 + PANEL * (1 - value / rateTop), c);
            legend.add(c + "\u0000" + series.label("mode"));
        }
        legend(svg, LEFT + plotWidth + 12, top3, legend);

        // alert lanes: pending amber, firing red
        for (int i = 0; i < alerts.size(); i++) {
            int y = alertsTop + i * LANE;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", LEFT - 4, y + 10, alerts.get(i)));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>%n", LEFT, LEFT + plotWidth, y + LANE - 1, y + LANE - 1));
            for (AlertEpisode episode : episodes) {
                if (!episode.alert().equals(alerts.get(i))) {
                    continue;
                }
                Instant last = episode.resolved() != null ? episode.resolved() : episode.lastActive().plus(PrometheusServer.INTERVAL);
                Instant firing = episode.firing() == null ? last : episode.firing();
                span(svg, x, episode.pending(), firing, y, "#f5b041", episode.alert() + " pending on " + episode.pod());
                if (episode.firing() != null) {
                    span(svg, x, episode.firing(), last, y, "#c0392b", episode.alert() + " firing on " + episode.pod());
                }
            }
        }
        int axis = alertsTop + alerts.size() * LANE + 4;
        for (int s = 0; s <= seconds; s += seconds > 300 ? 60 : 10) {
            double px = LEFT + s * perSecond;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#999\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d s</text>%n",
                    px, px, axis, axis + 4, px, axis + 16, s));
        }
        legend(svg, LEFT + plotWidth + 12, alertsTop, List.of("#f5b041\u0000pending", "#c0392b\u0000firing", "#fbd5d5\u0000starved phase (load)",
                "#e3edf7\u0000not starved (load)", "#eeeeee\u0000baseline"));
        svg.append("</svg>\n");
        return svg.toString();
    }

    private record Scale(Instant start, double perSecond) {
        double at(Instant instant) {
            return LEFT + Duration.between(start, instant).toMillis() / 1000.0 * perSecond;
        }
    }

    private static void frame(StringBuilder svg, int top, int plotWidth, String title) {
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>%n", LEFT, top, plotWidth, PANEL));
        svg.append(String.format(Locale.ROOT, "<text transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">%s</text>%n", top + PANEL / 2, title));
    }

    private static void linearTicks(StringBuilder svg, int top, int plotWidth, double max, String format) {
        for (int i = 0; i <= 4; i++) {
            double value = max * i / 4;
            double y = top + PANEL * (1 - value / max);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\" stroke-dasharray=\"2 3\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LEFT, LEFT + plotWidth, y, y, LEFT - 4, y + 4, String.format(Locale.ROOT, format, value)));
        }
    }

    private static void line(StringBuilder svg, Series series, Scale x, java.util.function.DoubleUnaryOperator y, String colour) {
        StringBuilder path = new StringBuilder();
        Instant previous = null;
        for (Series.Sample sample : series.samples()) {
            if (!Double.isFinite(sample.value())) {
                previous = null;
                continue;
            }
            boolean gap = previous == null || Duration.between(previous, sample.at()).compareTo(PrometheusServer.INTERVAL.multipliedBy(3)) > 0;
            path.append(gap ? " M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x.at(sample.at()), y.applyAsDouble(sample.value())));
            previous = sample.at();
        }
        if (!path.isEmpty()) {
            svg.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.3\"/>%n", path.toString().strip(), colour));
        }
    }

    private static void span(StringBuilder svg, Scale x, Instant from, Instant to, int y, String colour, String title) {
        double x0 = x.at(from);
        double x1 = Math.max(x0 + 1, x.at(to));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>%n",
                x0, y + 2, x1 - x0, LANE - 4, colour, Svg.escape(title)));
    }

    private static void legend(StringBuilder svg, int x, int top, List<String> entries) {
        for (int i = 0; i < entries.size(); i++) {
            String[] parts = entries.get(i).split("\u0000", 2);
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n",
                    x, top + i * 15, parts[0], x + 14, top + i * 15 + 9, Svg.escape(parts[1])));
        }
    }

    private static double logY(int top, double millis) {
        double fraction = (Math.log10(millis) - Math.log10(MIN_MS)) / (Math.log10(MAX_MS) - Math.log10(MIN_MS));
        return top + PANEL * (1 - fraction);
    }
}
