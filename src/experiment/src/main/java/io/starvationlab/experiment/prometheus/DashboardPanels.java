package io.starvationlab.experiment.prometheus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.LabClient;

/**
 * The queries of the project's Grafana dashboard ({@code kubernetes/base/monitoring/dashboard.json}),
 * with its variables replaced as the dashboard opens by default: each variable's saved current value,
 * and {@code $__rate_interval} as Grafana computes it for a data source scraped every
 * {@link PrometheusServer#INTERVAL} (four scrape intervals).
 */
public record DashboardPanels(List<Panel> panels) {

    /**
     * One panel and the phases it is meant for.
     *
     * @param row     the title of the row the panel sits under
     * @param queries its targets' expressions, variables replaced
     */
    public record Panel(String title, String row, List<String> queries, String meantFor) {

        /** Whether the panel is meant to show data in {@code phase} on a server of JDK {@code jdk}. */
        public boolean meantFor(PhaseWindow phase, int jdk) {
            return switch (meantFor) {
                case STARVED -> phase.starved();
                case LOADED -> phase.judged();
                case JDK_24 -> jdk >= 24 && !phase.unjudged();
                default -> !phase.unjudged();
            };
        }
    }

    static final String STARVED = "starved phases";
    static final String LOADED = "phases with load";
    static final String JDK_24 = "every phase, JDK 24+";
    static final String EVERY = "every phase";

    public static DashboardPanels ofProject(Path projectDir) {
        Path dashboard = projectDir.resolve(Path.of("kubernetes", "base", "monitoring", "dashboard.json"));
        try {
            return of(LabClient.json().readTree(dashboard.toFile()), PrometheusRun.RATE_INTERVAL);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the dashboard " + dashboard, e);
        }
    }

    static DashboardPanels of(JsonNode dashboard, Duration rateInterval) {
        List<Panel> panels = new ArrayList<>();
        String row = "";
        for (JsonNode panel : flatten(dashboard.path("panels"))) {
            if ("row".equals(panel.path("type").asText())) {
                row = panel.path("title").asText();
                continue;
            }
            List<String> queries = new ArrayList<>();
            for (JsonNode target : panel.path("targets")) {
                if (target.hasNonNull("expr") && !target.path("hide").asBoolean(false)) {
                    queries.add(substitute(target.path("expr").asText(), dashboard.path("templating").path("list"), rateInterval));
                }
            }
            panels.add(new Panel(panel.path("title").asText(), row, List.copyOf(queries), meantFor(row)));
        }
        return new DashboardPanels(List.copyOf(panels));
    }

    /** Panels in order, those inside collapsed rows after their row. */
    private static List<JsonNode> flatten(JsonNode panels) {
        List<JsonNode> flat = new ArrayList<>();
        for (JsonNode panel : panels) {
            flat.add(panel);
            panel.path("panels").forEach(flat::add);
        }
        return flat;
    }

    /** The row says what a panel is for: starvation signals in starved phases, the JDK 24+ scheduler only there. */
    private static String meantFor(String row) {
        String lower = row.toLowerCase(Locale.ROOT);
        if (lower.contains("starvation")) {
            return STARVED;
        }
        if (lower.contains("jdk 24")) {
            return JDK_24;
        }
        if (lower.contains("downstream") || lower.contains("work")) {
            return LOADED;
        }
        return EVERY;
    }

    static String substitute(String expr, JsonNode variables, Duration rateInterval) {
        String result = expr.replace("$__rate_interval", rateInterval.toSeconds() + "s")
                .replace("${__rate_interval}", rateInterval.toSeconds() + "s");
        for (JsonNode variable : variables) {
            String name = variable.path("name").asText();
            JsonNode current = variable.path("current").path("value");
            if (current.isTextual()) {
                result = result.replace("${" + name + "}", current.asText()).replace("$" + name, current.asText());
            }
        }
        if (result.contains("$")) {
            throw new IllegalArgumentException("a dashboard variable without a default is left in " + result);
        }
        return result;
    }
}
