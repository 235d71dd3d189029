package io.starvationlab.experiment.report;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.starvationlab.experiment.prometheus.AlertEpisode;
import io.starvationlab.experiment.prometheus.AlertRules;
import io.starvationlab.experiment.prometheus.MeasuredPrometheus;
import io.starvationlab.experiment.prometheus.PhaseWindow;
import io.starvationlab.experiment.prometheus.PrometheusServer;
import io.starvationlab.experiment.prometheus.Series;
import io.starvationlab.harness.LabServer;
import io.starvationlab.model.StarvationRule;

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

    static String svg(MeasuredPrometheus record) {
        Instant start = record.range().start();
        List<String> alerts = record.alerts().stream().map(AlertRules.Alert::name).toList();
        MeasuredPrometheus.Timeline data = record.timeline();
        double seconds = Math.max(1, Duration.between(start, record.range().end()).toMillis() / 1000.0);
        double perSecond = Math.max(2, Math.min(8, 1400 / seconds));
        int plotWidth = (int) Math.ceil(seconds * perSecond);
        int alertsTop = TOP + 3 * (PANEL + GAP);
        Svg svg = new Svg(LEFT + plotWidth + 200, alertsTop + alerts.size() * LANE + 70, LEFT, "The run over time, as Prometheus scraped it (every "
                + PrometheusServer.INTERVAL.toSeconds() + " s)", "JDK " + record.jdk() + ", " + LabServer.CARRIERS
                        + " carriers per server JVM; bands: the phases' load; lanes: each alert pending (amber) and firing (red)");
        ToDoubleFunction<Instant> x = at -> LEFT + Duration.between(start, at).toMillis() / 1000.0 * perSecond;

        // phases as bands across every panel and the alert lanes
        for (PhaseWindow phase : record.windows().stream().filter(w -> !w.unjudged()).toList()) {
            double x0 = x.applyAsDouble(phase.start());
            String fill = phase.starved() ? "#fbd5d5" : StarvationRule.NOT_STARVED.equals(phase.verdict()) ? "#e3edf7" : "#eeeeee";
            svg.add("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s (%s)</title></rect>", x0, TOP,
                    Math.max(1, x.applyAsDouble(phase.loadEnd()) - x0), alertsTop + alerts.size() * LANE - TOP, fill, Svg.escape(phase.name()),
                    Svg.escape(phase.verdict()));
            svg.add("<text transform=\"translate(%.1f %d) rotate(-40)\" font-size=\"9\">%s</text>", x0 + 2, TOP - 3, Svg.escape(phase.name()));
        }

        // 1: probe p99, log scale
        frame(svg, TOP, plotWidth, "probe p99 (log)", DoubleStream.iterate(MIN_MS, tick -> tick <= MAX_MS, tick -> tick * 10).boxed().toList(),
                tick -> logY(TOP, tick), tick -> tick >= 1000 ? (long) (tick / 1000) + " s" : (long) tick + " ms");
        svg.legend(LEFT + plotWidth + 12, TOP, 15, lines(svg, data.probeP99(), x, value -> logY(TOP, Math.max(MIN_MS, Math.min(MAX_MS, value * 1000))), "uri"));

        // 2: the waits for a carrier in flight: the canary's and the oldest request's
        int top2 = TOP + PANEL + GAP;
        double stallTop = Math.ceil(Math.max(1, Stream.concat(data.stalled().stream(), data.requestStalled().stream())
                .flatMap(s -> s.samples().stream()).mapToDouble(Series.Sample::value).filter(Double::isFinite).max().orElse(1)));
        DoubleUnaryOperator y2 = value -> top2 + PANEL * (1 - value / stallTop);
        frame(svg, top2, plotWidth, "waiting for a carrier (s)", quarters(stallTop), y2, value -> String.format(Locale.ROOT, "%.1f s", value));
        data.stalled().forEach(series -> line(svg, series, x, y2, "#d62728"));
        data.requestStalled().forEach(series -> line(svg, series, x, y2, "#1f77b4"));
        svg.legend(LEFT + plotWidth + 12, top2, 15, List.of(List.of("#d62728", "canary"), List.of("#1f77b4", "oldest request")));

        // 3: throughput per mode
        int top3 = TOP + 2 * (PANEL + GAP);
        double rateTop = Math.ceil(Math.max(10, data.throughput().stream().flatMap(s -> s.samples().stream()).mapToDouble(Series.Sample::value)
                .filter(Double::isFinite).max().orElse(10)) / 100) * 100;
        DoubleUnaryOperator y3 = value -> top3 + PANEL * (1 - value / rateTop);
        frame(svg, top3, plotWidth, "work per second", quarters(rateTop), y3, value -> String.format(Locale.ROOT, "%.0f/s", value));
        svg.legend(LEFT + plotWidth + 12, top3, 15, lines(svg, data.throughput(), x, y3, "mode"));

        // alert lanes: pending amber, firing red
        for (int i = 0; i < alerts.size(); i++) {
            int y = alertsTop + i * LANE;
            String alert = alerts.get(i);
            svg.add("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", LEFT - 4, y + 10, alert);
            svg.add("<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>", LEFT, LEFT + plotWidth, y + LANE - 1, y + LANE - 1);
            for (AlertEpisode episode : record.episodes().stream().filter(e -> e.alert().equals(alert)).toList()) {
                Instant last = episode.resolved() != null ? episode.resolved() : episode.lastActive().plus(PrometheusServer.INTERVAL);
                span(svg, x, episode.pending(), episode.firing() == null ? last : episode.firing(), y, "#f5b041",
                        episode.alert() + " pending on " + episode.pod());
                if (episode.firing() != null) {
                    span(svg, x, episode.firing(), last, y, "#c0392b", episode.alert() + " firing on " + episode.pod());
                }
            }
        }
        int axis = alertsTop + alerts.size() * LANE + 4;
        for (int s = 0; s <= seconds; s += seconds > 300 ? 60 : 10) {
            double px = LEFT + s * perSecond;
            svg.add("<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#999\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d s</text>",
                    px, px, axis, axis + 4, px, axis + 16, s);
        }
        return svg.legend(LEFT + plotWidth + 12, alertsTop, 15, List.of(List.of("#f5b041", "pending"), List.of("#c0392b", "firing"),
                List.of("#fbd5d5", "starved phase (load)"), List.of("#e3edf7", "not starved (load)"), List.of("#eeeeee", "baseline"))).end();
    }

    /** A panel's frame and title, and a dashed grid line at each of {@code ticks}, labelled at its left. */
    private static void frame(Svg svg, int top, int plotWidth, String title, List<Double> ticks, DoubleUnaryOperator y, DoubleFunction<String> label) {
        svg.add("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>", LEFT, top, plotWidth, PANEL);
        svg.add("<text transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">%s</text>", top + PANEL / 2, title);
        for (double tick : ticks) {
            double at = y.applyAsDouble(tick);
            svg.add("<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\" stroke-dasharray=\"2 3\"/><text x=\"%d\" y=\"%.1f\" "
                    + "text-anchor=\"end\">%s</text>", LEFT, LEFT + plotWidth, at, at, LEFT - 4, at + 4, label.apply(tick));
        }
    }

    private static List<Double> quarters(double max) {
        return IntStream.rangeClosed(0, 4).mapToObj(i -> max * i / 4).toList();
    }

    /** Each series as a line of its own colour; the legend names each by its {@code label}. */
    private static List<List<String>> lines(Svg svg, List<Series> all, ToDoubleFunction<Instant> x, DoubleUnaryOperator y, String label) {
        List<List<String>> legend = new ArrayList<>();
        for (Series series : all) {
            String colour = COLOURS.get(legend.size() % COLOURS.size());
            line(svg, series, x, y, colour);
            legend.add(List.of(colour, series.label(label)));
        }
        return legend;
    }

    private static void line(Svg svg, Series series, ToDoubleFunction<Instant> x, DoubleUnaryOperator y, String colour) {
        StringBuilder path = new StringBuilder();
        Instant previous = null;
        for (Series.Sample sample : series.samples()) {
            if (!Double.isFinite(sample.value())) {
                previous = null;
                continue;
            }
            boolean gap = previous == null || Duration.between(previous, sample.at()).compareTo(PrometheusServer.INTERVAL.multipliedBy(3)) > 0;
            path.append(String.format(Locale.ROOT, "%s%.1f %.1f", gap ? " M" : " L", x.applyAsDouble(sample.at()), y.applyAsDouble(sample.value())));
            previous = sample.at();
        }
        if (!path.isEmpty()) {
            svg.add("<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.3\"/>", path.toString().strip(), colour);
        }
    }

    private static void span(Svg svg, ToDoubleFunction<Instant> x, Instant from, Instant to, int y, String colour, String title) {
        double x0 = x.applyAsDouble(from);
        svg.add("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>", x0, y + 2,
                Math.max(x0 + 1, x.applyAsDouble(to)) - x0, LANE - 4, colour, Svg.escape(title));
    }

    private static double logY(int top, double millis) {
        double fraction = (Math.log10(millis) - Math.log10(MIN_MS)) / (Math.log10(MAX_MS) - Math.log10(MIN_MS));
        return top + PANEL * (1 - fraction);
    }
}
