package io.starvationlab.experiment.k6;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * What the k6 suite's report model ({@code starvationLab} in {@code summary.json}, built by
 * {@code k6/lib-report-model.js}) says of each load window: its verdict, throughput, the rule's probe
 * and how the rule's probe came through the event loops.
 *
 * @param thresholdsCrossed the thresholds that went other than expected, as {@code metric: expression}
 * @param droppedIterations the probe iterations k6 could not start, over the run
 */
public record K6Summary(Map<String, Phase> phases, List<String> thresholdsCrossed, long droppedIterations) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One load window.
     *
     * @param observed          {@code starves}, {@code collapses}, {@code free}, {@code skipped} or {@code no data}, by the plan's rules
     * @param perSecond         work requests answered 200, per second of the window
     * @param virtualP50Millis  the rule's probe, {@code /probe/virtual}, at the rule's percentile (50) in the window
     * @param virtualAnswers    {@code /probe/virtual}'s answers per event loop in the window
     * @param eventLoops        the service's event loops, from {@code /lab/info}
     */
    public record Phase(String name, String observed, Double perSecond, Double virtualP50Millis, Map<String, Long> virtualAnswers,
            Integer eventLoops) {
    }

    public static K6Summary read(Path summary) {
        try {
            return of(JSON.readTree(summary.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** From the summary's JSON: the model is its {@code starvationLab}. */
    static K6Summary of(JsonNode summary) {
        JsonNode lab = summary.path("starvationLab");
        String probe = lab.path("rules").path("starved").path("probe").asText("virtual");
        Map<String, Phase> phases = new LinkedHashMap<>();
        for (JsonNode verdict : lab.path("verdicts")) {
            String window = verdict.path("phase").asText();
            JsonNode coverage = lab.path("coverage").valueStream().filter(c -> c.path("window").asText().equals(window)
                    && c.path("probe").asText().equals(probe) && c.path("target").asText().equals(verdict.path("target").asText()))
                    .reduce((first, last) -> last).orElse(MissingNode.getInstance());
            Map<String, Long> answers = new LinkedHashMap<>();
            coverage.path("answers").properties().forEach(e -> answers.put(e.getKey(), e.getValue().asLong()));
            phases.put(window, new Phase(window, verdict.path("observed").asText(), number(verdict.path("perSecond")),
                    number(verdict.path("loadedMs")), answers, coverage.path("eventLoops").isNumber() ? coverage.path("eventLoops").asInt() : null));
        }
        List<String> crossed = new ArrayList<>();
        lab.path("thresholds").forEach(t -> {
            if (!t.path("ok").asBoolean()) {
                crossed.add(t.path("metric").asText() + ": " + t.path("expression").asText());
            }
        });
        long dropped = 0;
        for (JsonNode n : lab.path("droppedIterations")) {
            dropped += n.asLong();
        }
        return new K6Summary(phases, List.copyOf(crossed), dropped);
    }

    private static Double number(JsonNode node) {
        return node.isNumber() ? node.asDouble() : null;
    }
}
