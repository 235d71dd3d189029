package io.starvationlab.experiment.prometheus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

/**
 * The alert rules of the project's {@code PrometheusRule}: its {@code spec.groups} are what a
 * Prometheus rules file holds, so the experiment loads them as they are, never a copy.
 */
public record AlertRules(String rulesFile, List<Alert> alerts) {

    /** One alerting rule, as the report explains it. */
    public record Alert(String name, String expr, Duration holdFor) {

        private static final Pattern OR_LINE = Pattern.compile("(?m)^\\s*or\\s*$");
        private static final Pattern OUTER_FUNCTION = Pattern.compile("^(\\w+)\\(");
        private static final Pattern WRAPPED_METRIC = Pattern.compile("(?:(\\w+)\\(\\s*)?\\b((?:lab|virtual_threads)_\\w+(?:\\{[^}]*\\})?)");
        private static final Pattern COMPARISON = Pattern.compile("([<>]=?|==)\\s*([\\d.]+)\\s*$");

        /** The expression's conditions joined by {@code or} on lines of their own: any one makes the alert active. */
        public List<String> branches() {
            return Arrays.stream(OR_LINE.split(expr)).map(String::strip).toList();
        }

        /** A condition in a line: {@code max_over_time(virtual_threads_carrier_stalled_seconds{source="task"}) > 0.5}. */
        public static String summary(String branch) {
            var outer = OUTER_FUNCTION.matcher(branch);
            var metric = WRAPPED_METRIC.matcher(branch);
            var comparison = COMPARISON.matcher(branch);
            if (!metric.find() || !comparison.find()) {
                return branch.replaceAll("\\s+", " ");
            }
            String function = outer.find() ? outer.group(1) : metric.group(1);
            String name = function == null ? metric.group(2) : function + "(" + metric.group(2) + ")";
            return name + " " + comparison.group(1) + " " + comparison.group(2);
        }
    }

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));

    /** The project's rules: {@code kubernetes/base/monitoring/prometheusrule.yaml} under {@code projectDir}. */
    public static AlertRules ofProject(Path projectDir) {
        return read(projectDir.resolve(Path.of("kubernetes", "base", "monitoring", "prometheusrule.yaml")));
    }

    public static AlertRules read(Path file) {
        JsonNode prometheusRule;
        try {
            prometheusRule = YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the PrometheusRule " + file, e);
        }
        if (!"PrometheusRule".equals(prometheusRule.path("kind").asText())) {
            throw new IllegalArgumentException("not a PrometheusRule: kind " + prometheusRule.path("kind"));
        }
        JsonNode groups = prometheusRule.path("spec").path("groups");
        if (!groups.isArray() || groups.isEmpty()) {
            throw new IllegalArgumentException("the PrometheusRule has no spec.groups");
        }
        List<Alert> alerts = new ArrayList<>();
        for (JsonNode group : groups) {
            for (JsonNode rule : group.path("rules")) {
                if (rule.has("alert")) {
                    alerts.add(new Alert(rule.path("alert").asText(), rule.path("expr").asText().strip(),
                            rule.has("for") ? duration(rule.path("for").asText()) : Duration.ZERO));
                }
            }
        }
        try {
            return new AlertRules(YAML.writeValueAsString(YAML.createObjectNode().set("groups", groups)), List.copyOf(alerts));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Prometheus duration of one unit ({@code 30s}, {@code 1m}, {@code 2h}), the form the rules use. */
    public static Duration duration(String text) {
        var matcher = Pattern.compile("(\\d+)(ms|s|m|h)").matcher(text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("unsupported duration '" + text + "'");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }
}
