package io.starvationlab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.prometheus.AlertRules;
import io.starvationlab.harness.Project;
import io.starvationlab.model.Plan;

/**
 * The table of operational thresholds in {@code docs/observability.md}, row by row against the file
 * that sets each value: the plan, {@code LabConfig}'s defaults, the alert rules, the k6 suite.
 */
class ThresholdsTest {

    private static final Path PROJECT = Project.root();
    private static final Path TABLE = PROJECT.resolve(Path.of("docs", "observability.md"));

    /** Each row's source, by what its "set by" column names, read from the file as a value in the table's units. */
    private static final Map<String, Callable<Double>> SOURCES = new LinkedHashMap<>();

    static {
        SOURCES.put("starved.baselineFactor", () -> Plan.ofProject().starved().baselineFactor());
        SOURCES.put("starved.minimumMillis", () -> Plan.ofProject().starved().minimumMillis());
        SOURCES.put("lab.starvation.threshold", () -> configDefault("Starvation", "threshold"));
        SOURCES.put("lab.canary.interval", () -> configDefault("Canary", "interval"));
        SOURCES.put("lab.pinning.threshold", () -> configDefault("Pinning", "threshold"));
        SOURCES.put("CarrierStarvation p99", () -> comparisons("CarrierStarvation").getFirst() * 1000);
        SOURCES.put("CarrierStall", () -> {
            double stall = comparisons("CarrierStall").getFirst();
            List<Double> inFlight = comparisons("CarrierStarvation").subList(1, 3);
            assertThat(inFlight).as("CarrierStarvation's waits in flight, as CarrierStall's").containsOnly(stall);
            return stall * 1000;
        });
        SOURCES.put("CarrierStarvation for", () -> (double) alert("CarrierStarvation").holdFor().toMillis());
        SOURCES.put("ProbeLatencyHigh", () -> comparisons("ProbeLatencyHigh").getFirst() * 1000);
        SOURCES.put("SustainedPinning", () -> comparisons("SustainedPinning").getFirst());
        SOURCES.put("untouched.maximumMillis", () -> {
            assertThat(Plan.ofProject().untouched().maximumMillis()).as("the untouched rule is ProbeLatencyHigh's bound")
                    .isEqualTo(comparisons("ProbeLatencyHigh").getFirst() * 1000);
            return Plan.ofProject().untouched().maximumMillis();
        });
    }

    @Test
    void everyThresholdInTheTableShouldBeTheOneItsFileSets() throws Exception {
        Map<String, String> rows = rows(Files.readString(TABLE));
        assertThat(rows.keySet()).as("rows of the table, each with a source this test reads").containsExactlyInAnyOrderElementsOf(SOURCES.keySet());
        for (Map.Entry<String, String> row : rows.entrySet()) {
            assertThat(amount(row.getValue())).as(row.getKey() + ": the table says " + row.getValue()).isEqualTo(SOURCES.get(row.getKey()).call());
        }
    }

    /** The broken fixture: a table whose readiness threshold was left at an old value. */
    @Test
    void shouldRejectATableThatSaysAnotherValue() throws Exception {
        String stale = Files.readString(TABLE).replaceFirst("\\| 1 s \\| `lab.starvation.threshold` \\|", "| 2 s | `lab.starvation.threshold` |");
        assertThat(amount(rows(stale).get("lab.starvation.threshold"))).isNotEqualTo(SOURCES.get("lab.starvation.threshold").call());
        assertThatThrownBy(() -> amount("soon")).isInstanceOf(IllegalArgumentException.class);
    }

    /** The "## Thresholds" table: each row's value by its "set by" column, backticks removed. */
    static Map<String, String> rows(String markdown) {
        String section = markdown.substring(markdown.indexOf("## Thresholds"));
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : section.split("\n")) {
            String[] cells = line.split("\\|");
            if (cells.length == 4 && line.startsWith("| ") && !line.startsWith("| threshold") && !line.startsWith("|---")) {
                rows.put(cells[3].replace("`", "").strip(), cells[2].strip());
            }
        }
        return rows;
    }

    /** "100 ms" and "0.1 s" as milliseconds, "20×" and "1/s" as numbers. */
    static double amount(String value) {
        Matcher matcher = Pattern.compile("([0-9.]+) ?(ms|s|×|/s)").matcher(value);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a threshold: " + value);
        }
        double number = Double.parseDouble(matcher.group(1));
        return "s".equals(matcher.group(2)) ? number * 1000 : number;
    }

    /** A {@code LabConfig} default, {@code @WithDefault} on the method of the nested interface, in milliseconds (one unit, as the rules'). */
    private static double configDefault(String group, String method) throws IOException {
        String source = Files.readString(PROJECT.resolve(Path.of("src", "service", "src", "main", "java", "io", "starvationlab", "config", "LabConfig.java")));
        Matcher matcher = Pattern.compile("interface " + group + " \\{.*?@WithDefault\\(\"([^\"]+)\"\\)\\s+\\S+ " + method + "\\(\\)", Pattern.DOTALL)
                .matcher(source);
        assertThat(matcher.find()).as("lab." + group.toLowerCase() + "." + method + " in LabConfig").isTrue();
        return AlertRules.duration(matcher.group(1)).toMillis();
    }

    private static AlertRules.Alert alert(String name) {
        return AlertRules.ofProject(PROJECT).alerts().stream().filter(alert -> alert.name().equals(name)).findFirst().orElseThrow();
    }

    /** The numbers an alert's expression compares with, in order. */
    private static List<Double> comparisons(String name) {
        return Pattern.compile(">=? *([0-9.]+)").matcher(alert(name).expr()).results().map(number -> Double.parseDouble(number.group(1))).toList();
    }
}
