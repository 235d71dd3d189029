package io.starvationlab.experiment.prometheus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.ServerProcess;

/**
 * A real Prometheus server for the run, started as any server process is ({@link ServerProcess}, ready at
 * {@code /-/ready}): loopback only, a temporary data folder, scrape and rule evaluation every {@link #INTERVAL}, the
 * project's alert rules, and the run's server JVMs as targets through a file that Prometheus re-reads (file-based
 * service discovery). Closing it, or the JVM exiting, ends the process and deletes the folder.
 */
public final class PrometheusServer extends ServerProcess {

    public static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    /** Scrape and evaluation every interval; the job's labels come from each target, as the ServiceMonitor's would. */
    private static final String CONFIG = """
            global:
              scrape_interval: %1$ds
              scrape_timeout: %1$ds
              evaluation_interval: %1$ds
            rule_files:
              - rules.yaml
            scrape_configs:
              - job_name: starvation-lab
                metrics_path: %2$s
                file_sd_configs:
                  - files: [targets.json]
                    refresh_interval: %1$ds
            """;

    /**
     * One server JVM of the run as Prometheus sees it, labelled the way the prometheus-operator labels a
     * target of the project's ServiceMonitor ({@code kubernetes/base/monitoring/servicemonitor.yaml}: no
     * relabelling, no honor_labels): {@code job} and {@code service} the Service's name, {@code namespace},
     * {@code pod}, {@code container}, {@code endpoint} the port's name; Prometheus adds {@code instance}, the
     * address. The rules keep one alert per instance and the dashboard selects on its namespace variable's default.
     */
    public record ScrapeTarget(String address, Map<String, String> labels) {

        /** The kustomize base's namespace, and the dashboard's default for its namespace variable. */
        public static final String NAMESPACE = "starvation-lab";
        static final String METRICS_PATH = "/q/metrics";

        /** The run's server JVM {@code jvm}, process {@code pid}, serving at {@code base}. */
        public static ScrapeTarget of(String jvm, long pid, URI base) {
            String service = "lab-" + jvm;
            return new ScrapeTarget("127.0.0.1:" + base.getPort(), Map.of("job", service, "namespace", NAMESPACE, "service", service, "pod",
                    service + "-" + pid, "container", "lab", "endpoint", "http"));
        }

        public String pod() {
            return labels.get("pod");
        }
    }

    private final Path home;
    private final Thread cleanup = new Thread(this::destroy, "prometheus-cleanup");
    private final Set<ScrapeTarget> targets = new LinkedHashSet<>();
    private final LabClient api;
    private volatile long peakRssKiB;

    private PrometheusServer(ServerProcess started, Path home) {
        super(started);
        this.home = home;
        this.api = new LabClient(baseUri());
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /** Starts Prometheus and returns once it is ready; if it is not within {@code START_TIMEOUT}, ends it and throws with its log. */
    public static PrometheusServer start(Path binary, AlertRules rules, Path logDirectory) {
        int port = Machine.freePort();
        Path home = null;
        try {
            home = Files.createTempDirectory("starvation-lab-prometheus-");
            Files.writeString(home.resolve("rules.yaml"), rules.rulesFile());
            Files.writeString(home.resolve("targets.json"), "[]");
            Files.writeString(home.resolve("prometheus.yml"), String.format(Locale.ROOT, CONFIG, INTERVAL.toSeconds(), ScrapeTarget.METRICS_PATH));
            List<String> command = List.of(binary.toString(), "--config.file=" + home.resolve("prometheus.yml"), "--storage.tsdb.path="
                    + home.resolve("data"), "--storage.tsdb.retention.time=1d", "--web.listen-address=127.0.0.1:" + port,
                    // debug: a failed scrape is logged with its reason (scrape.go, "Scrape failed"), as warn logs none
                    "--log.level=debug");
            return new PrometheusServer(ServerProcess.start("Prometheus", command, logDirectory.resolve("prometheus.log"),
                    URI.create("http://127.0.0.1:" + port), "/-/ready", START_TIMEOUT), home);
        } catch (IOException e) {
            delete(home);
            throw new UncheckedIOException("Cannot start " + binary, e);
        } catch (RuntimeException e) {
            delete(home);
            throw e;
        }
    }

    /** Adds a target; Prometheus picks it up within a refresh interval. */
    public synchronized void scrape(ScrapeTarget target) {
        targets.add(target);
        writeTargets();
    }

    /** Removes a target; Prometheus marks its series stale, as when a pod goes away. */
    public synchronized void forget(ScrapeTarget target) {
        targets.remove(target);
        writeTargets();
    }

    private void writeTargets() {
        ArrayNode list = LabClient.json().createArrayNode();
        for (ScrapeTarget target : targets) {
            var entry = list.addObject();
            entry.putArray("targets").add(target.address());
            target.labels().forEach(entry.putObject("labels")::put);
        }
        try {
            Path next = Files.writeString(home.resolve("targets.json.next"), list.toString());
            // a rename, so Prometheus never reads a half-written file
            Files.move(next, home.resolve("targets.json"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Why Prometheus's scrapes of {@code target} failed so far: its log's "Scrape failed" lines, with their time and error. */
    public List<String> scrapeFailures(ScrapeTarget target) {
        String url = "target=http://" + target.address() + "/";
        return logText().lines().filter(line -> line.contains("msg=\"Scrape failed\"") && line.contains(url)).toList();
    }

    /** An instant query at the current time: {@code data.result}. */
    public JsonNode query(String promql) {
        return api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).path("result");
    }

    /** A range query: each series' labels and its samples, NaN where a value is not a number. */
    public List<Series> queryRange(String promql, Instant start, Instant end, Duration step) {
        List<Series> series = new ArrayList<>();
        for (JsonNode node : api(String.format(Locale.ROOT, "/api/v1/query_range?query=%s&start=%.3f&end=%.3f&step=%.3f",
                URLEncoder.encode(promql, StandardCharsets.UTF_8), start.toEpochMilli() / 1000.0, end.toEpochMilli() / 1000.0,
                step.toMillis() / 1000.0)).path("result")) {
            Map<String, String> labels = new LinkedHashMap<>();
            node.path("metric").properties().forEach(field -> labels.put(field.getKey(), field.getValue().asText()));
            List<Series.Sample> samples = new ArrayList<>();
            for (JsonNode value : node.path("values")) {
                // Prometheus writes NaN, +Inf and -Inf; Java reads NaN, +Infinity and -Infinity
                samples.add(new Series.Sample(Instant.ofEpochMilli(Math.round(value.get(0).asDouble() * 1000)),
                        Double.parseDouble(value.get(1).asText().replace("Inf", "Infinity"))));
            }
            series.add(new Series(Map.copyOf(labels), List.copyOf(samples)));
        }
        return series;
    }

    /** The {@code data} of an HTTP API answer (Prometheus' errors are JSON too, with {@code status} "error"). */
    JsonNode api(String pathAndQuery) {
        JsonNode body = api.json(pathAndQuery);
        if (!"success".equals(body.path("status").asText())) {
            throw new IllegalStateException("Prometheus answered " + pathAndQuery + ": " + body);
        }
        return body.path("data");
    }

    /** The most memory the process has held so far (its peak resident set), in bytes; 0 where /proc is missing. */
    public long peakRssBytes() {
        try (Stream<String> lines = Files.lines(Path.of("/proc", String.valueOf(pid()), "status"))) {
            lines.filter(line -> line.startsWith("VmHWM:")).findFirst()
                    .ifPresent(line -> peakRssKiB = Math.max(peakRssKiB, Long.parseLong(line.replaceAll("\\D", ""))));
        } catch (IOException | UncheckedIOException e) {
            // the process has ended: keep the last reading
        }
        return peakRssKiB * 1024;
    }

    public Path home() {
        return home;
    }

    @Override
    public void close() {
        peakRssBytes();
        super.close();
        delete(home);
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down, and the hook does the same
        }
    }

    /** At the JVM's exit: ends Prometheus and anything it started (SIGTERM, then SIGKILL after a grace), then deletes its folder. */
    private void destroy() {
        ProcessHandle.of(pid()).ifPresent(ChildProcess::endTree);
        delete(home);
    }

    private static void delete(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + directory, e);
        }
    }
}
