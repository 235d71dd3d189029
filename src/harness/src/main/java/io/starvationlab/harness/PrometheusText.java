package io.starvationlab.harness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parser of the Prometheus text exposition format (version 0.0.4): HELP and TYPE lines, samples
 * with escaped label values, special floats and optional timestamps. Malformed input is an error,
 * not a skipped line, so a broken scrape fails the test that reads it.
 *
 * @param types the TYPE declared for each metric family that declares one
 */
public record PrometheusText(List<Sample> samples, Map<String, String> types) {

    public record Sample(String name, Map<String, String> labels, double value) {
        public String label(String key) {
            return labels.get(key);
        }
    }

    /** A sample line: name, the label set (the last '}' closes it: values never hold one after it), value, optional timestamp. */
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)(?:\\s+(-?\\d+))?\\s*");
    private static final Pattern LABEL = Pattern.compile("\\s*([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"\\s*(?:,|$)");
    private static final Pattern UNTERMINATED = Pattern.compile("\\s*[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\]|\\\\.)*\\\\?$");
    private static final Pattern ESCAPE = Pattern.compile("\\\\(.)");

    public static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new HashMap<>();
        int lineNumber = 0;
        for (String line : text.split("\n", -1)) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            try {
                if (line.startsWith("#")) {
                    parseComment(line, types);
                } else {
                    samples.add(sample(line));
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + lineNumber + ": " + e.getMessage() + ": " + line, e);
            }
        }
        return new PrometheusText(List.copyOf(samples), Map.copyOf(types));
    }

    private static void parseComment(String line, Map<String, String> types) {
        String[] parts = line.substring(1).trim().split("\\s+", 3);
        if (parts.length >= 1 && parts[0].equals("TYPE")) {
            if (parts.length < 3) {
                throw new IllegalArgumentException("TYPE without a name and a type");
            }
            if (!List.of("counter", "gauge", "histogram", "summary", "untyped").contains(parts[2].trim())) {
                throw new IllegalArgumentException("unknown metric type " + parts[2]);
            }
            types.put(parts[1], parts[2].trim());
        }
    }

    public Optional<String> type(String family) {
        return Optional.ofNullable(types.get(family));
    }

    public List<Sample> samples(String name) {
        return samples.stream().filter(sample -> sample.name().equals(name)).toList();
    }

    public List<Sample> samples(String name, Predicate<Sample> filter) {
        return samples.stream().filter(sample -> sample.name().equals(name) && filter.test(sample)).toList();
    }

    /**
     * The longest answer to a GET with that status and, if given, URI, in milliseconds, on the service's own
     * clock ({@code http_server_requests_seconds_max}); empty when no such answer was recorded.
     */
    public OptionalDouble slowestGetMillis(String status, String uri) {
        return samples("http_server_requests_seconds_max", sample -> "GET".equals(sample.label("method"))
                && status.equals(sample.label("status")) && (uri == null || uri.equals(sample.label("uri"))))
                .stream().mapToDouble(sample -> sample.value() * 1000).max();
    }

    /** Sum of the samples of {@code name} that pass {@code filter}; empty if there is none. */
    public Optional<Double> sum(String name, Predicate<Sample> filter) {
        List<Sample> matching = samples(name, filter);
        return matching.isEmpty() ? Optional.empty() : Optional.of(matching.stream().mapToDouble(Sample::value).sum());
    }

    /** Cumulative bucket counts of histogram {@code family} by upper bound, summed over the series that pass {@code filter}. */
    public TreeMap<Double, Double> buckets(String family, Predicate<Sample> filter) {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        for (Sample bucket : samples(family + "_bucket", filter)) {
            buckets.merge(parseValue(bucket.label("le")), bucket.value(), Double::sum);
        }
        return buckets;
    }

    /** Bucket counts added between two scrapes (cumulative counts, so subtract bucket by bucket). */
    public static TreeMap<Double, Double> delta(TreeMap<Double, Double> before, TreeMap<Double, Double> after) {
        TreeMap<Double, Double> delta = new TreeMap<>();
        after.forEach((bound, count) -> delta.put(bound, count - before.getOrDefault(bound, 0.0)));
        return delta;
    }

    /**
     * The quantile of cumulative buckets the way PromQL's {@code histogram_quantile} computes it:
     * linear interpolation inside the bucket that holds the rank; NaN without observations.
     */
    public static double quantile(double q, TreeMap<Double, Double> cumulative) {
        if (cumulative.isEmpty() || !cumulative.lastKey().isInfinite()) {
            return Double.NaN;
        }
        double total = cumulative.lastEntry().getValue();
        if (total <= 0) {
            return Double.NaN;
        }
        double rank = q * total;
        double lowerBound = 0;
        double lowerCount = 0;
        for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
            if (bucket.getValue() >= rank) {
                if (bucket.getKey().isInfinite()) {
                    return lowerBound; // the highest finite bound, as PromQL answers
                }
                double inBucket = bucket.getValue() - lowerCount;
                return inBucket <= 0 ? bucket.getKey() : lowerBound + (bucket.getKey() - lowerBound) * (rank - lowerCount) / inBucket;
            }
            lowerBound = bucket.getKey();
            lowerCount = bucket.getValue();
        }
        return lowerBound;
    }

    static double parseValue(String text) {
        return switch (text) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> {
                try {
                    yield Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a sample value: '" + text + "'");
                }
            }
        };
    }

    private static Sample sample(String line) {
        Matcher sample = SAMPLE.matcher(line);
        if (!sample.matches()) {
            throw new IllegalArgumentException("expected a name, optional {labels}, a value and an optional timestamp");
        }
        Map<String, String> labels = new HashMap<>();
        String text = sample.group(2) == null ? "" : sample.group(2);
        Matcher label = LABEL.matcher(text);
        for (int at = 0; at < text.length(); at = label.end()) {
            if (!label.region(at, text.length()).lookingAt()) {
                throw new IllegalArgumentException((UNTERMINATED.matcher(text.substring(at)).matches() ? "unterminated label value"
                        : "expected name=\"value\" and ',' or '}'") + " at label column " + at);
            }
            labels.put(label.group(1), ESCAPE.matcher(label.group(2)).replaceAll(escape -> Matcher.quoteReplacement(switch (escape.group(1)) {
                case "n" -> "\n";
                case "\\", "\"" -> escape.group(1);
                default -> throw new IllegalArgumentException("unknown escape \\" + escape.group(1));
            })));
        }
        return new Sample(sample.group(1), Map.copyOf(labels), parseValue(sample.group(3)));
    }
}
