package io.starvationlab.service;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import io.starvationlab.downstream.Downstream;


/**
 * A validated {@code /work/{mode}} request.
 */
public record WorkRequest(Mode mode, Downstream downstream, LockScope lock, int ms) {

    public static final String MS = "ms";
    public static final String DOWNSTREAM = "downstream";
    public static final String LOCK = "lock";
    /** In the order a refusal lists them. */
    private static final List<String> PARAMETERS = List.of(MS, DOWNSTREAM, LOCK);

    /**
     * Reads a request from its mode label and query parameters, refusing anything ambiguous:
     * unknown or repeated parameters and out-of-range values are errors, never silently ignored,
     * so a typo cannot quietly change an experiment.
     */
    public static WorkRequest parse(String modeLabel, Map<String, List<String>> query, int defaultMs, int maxMs) {
        Mode mode = Mode.fromLabel(modeLabel).orElseThrow(() -> new UnknownModeException(modeLabel));
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            if (!PARAMETERS.contains(parameter.getKey())) {
                throw new InvalidRequestException(parameter.getKey(), "unknown query parameter", PARAMETERS);
            }
            if (parameter.getValue().size() > 1) {
                throw new InvalidRequestException(parameter.getKey(), "given more than once", null);
            }
        }
        int ms = parseMs(single(query, MS), defaultMs, maxMs);
        Downstream downstream = parseEnum(DOWNSTREAM, single(query, DOWNSTREAM), Downstream.class, Downstream.DB);
        LockScope lock = parseEnum(LOCK, single(query, LOCK), LockScope.class, LockScope.PRIVATE);
        return new WorkRequest(mode, downstream, lock, ms);
    }

    private static String single(Map<String, List<String>> query, String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private static int parseMs(String value, int defaultMs, int maxMs) {
        if (value == null) {
            return defaultMs;
        }
        String detail = "must be a whole number of milliseconds from 0 to " + maxMs;
        if (value.isEmpty() || value.length() > 9 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new InvalidRequestException(MS, detail, null);
        }
        int ms = Integer.parseInt(value);
        if (ms > maxMs) {
            throw new InvalidRequestException(MS, detail, null);
        }
        return ms;
    }

    private static <E extends Enum<E>> E parseEnum(String name, String value, Class<E> type, E fallback) {
        if (value == null) {
            return fallback;
        }
        List<String> allowed = Arrays.stream(type.getEnumConstants()).map(e -> e.name().toLowerCase(Locale.ROOT)).toList();
        int index = allowed.indexOf(value);
        if (index < 0) {
            throw new InvalidRequestException(name, "must be one of " + String.join(", ", allowed), allowed);
        }
        return type.getEnumConstants()[index];
    }
}
