package io.starvationlab.experiment.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.experiment.run.Disturbance;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.Project;
import io.starvationlab.harness.ServerProcess;
import io.starvationlab.harness.junit.Needs;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.load.ClosedLoad;

/**
 * What the lab proves of itself, proved on a service written as users write one: its JVMs (4 carriers each) scraped
 * by a real Prometheus that loads the project's PrometheusRule at the lab's 1 s, loaded by the test from platform
 * threads. Load that holds every carrier puts {@code CarrierStarvation} pending within {@link #PENDING_WITHIN} of its
 * start and {@code CarrierStall} firing while every scrape answers, their summaries naming the target; load that frees
 * them leaves both silent. One Prometheus and one JVM per JDK for a test class; each JVM a target of its own, labelled as
 * a ServiceMonitor's, or scraped plainly ({@code job} and {@code instance} alone, as a static config's).
 */
final class OwnServiceAlerts {

    static final Duration PENDING_WITHIN = Duration.ofSeconds(5);
    /** Each load's length: past {@link #PENDING_WITHIN}, so that a control that starved would have alerted. */
    private static final Duration LOAD = Duration.ofSeconds(6);
    private static final int CLIENTS = 64;
    private static final int MS = 100;
    /** A wait this long was for a carrier: 3x a request's own 100 ms, a fifth of the 1.6 s that 64 pinned clients queue. */
    private static final double STARVED_MILLIS = 3 * MS;
    private static final List<String> ALERTS = List.of("CarrierStarvation", "CarrierStall");
    private static final int FREE_ATTEMPTS = 3;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    /** How an example is started after the JVM's flags: its arguments for a port and a management port. */
    interface Launch {
        List<String> arguments(int port, int managementPort);
    }

    /**
     * Where the example serves its metrics: on its management port or on the port of its requests; scraped as a
     * ServiceMonitor's target (with {@code namespace}, {@code service} and {@code pod}) or plainly.
     */
    record Metrics(boolean onManagementPort, String path, boolean plainScrape) {
    }

    /** One JVM of the example, as Prometheus scrapes it. */
    record Service(Jdks.Jdk jdk, ServerProcess process, PrometheusServer.ScrapeTarget target) {

        String describe() {
            return target.labels().get("job") + " on JDK " + jdk.feature();
        }
    }

    private final PrometheusServer prometheus;
    private final Map<Integer, Service> byFeature = new LinkedHashMap<>();

    private OwnServiceAlerts(PrometheusServer prometheus) {
        this.prometheus = prometheus;
    }

    /**
     * Prometheus, then the example {@code name} on each JDK, started side by side; returns once every JVM, warmed on every
     * endpoint at a load that holds no carrier, is scraped with the meter's series and its alerts are silent.
     */
    static OwnServiceAlerts start(Servers servers, String name, Launch launch, Metrics metrics, Jdks.Jdk... jdks) {
        Path binary = Needs.tool("prometheus", "Debian package prometheus");
        long began = System.nanoTime();
        OwnServiceAlerts alerts = new OwnServiceAlerts(servers.keep(PrometheusServer.start(binary, AlertRules.ofProject(Project.root()),
                Project.testLogs())));
        List<CompletableFuture<Service>> starting = new ArrayList<>();
        for (Jdks.Jdk jdk : jdks) {
            // a thread each: the common pool has one on two cores, and would start them one after the other
            starting.add(CompletableFuture.supplyAsync(() -> startJvm(name, jdk, launch, metrics), task -> Thread.ofPlatform().daemon().start(task)));
        }
        CompletionException failed = null;
        for (CompletableFuture<Service> service : starting) {
            try {
                Service started = service.join();
                servers.keep(started.process());
                alerts.byFeature.put(started.jdk().feature(), started);
            } catch (CompletionException e) {
                failed = e;
            }
        }
        if (failed != null) {
            throw failed;
        }
        double started = (System.nanoTime() - began) / 1e9;
        alerts.warm();
        // scraped from now: the warming's waits (JIT, class loading) stay out of the rules' 15 s windows
        alerts.byFeature.values().forEach(service -> alerts.prometheus.scrape(service.target()));
        alerts.awaitScrapedWithTheMeter();
        alerts.awaitSilent(alerts.services());
        System.out.printf(Locale.ROOT, "%s: its JVMs answering %.1f s after the start, warmed, scraped and silent %.1f s after it%n", name,
                started, (System.nanoTime() - began) / 1e9);
        return alerts;
    }

    private static Service startJvm(String name, Jdks.Jdk jdk, Launch launch, Metrics metrics) {
        int port = Machine.freePort();
        int management = Machine.freePort();
        while (management == port) {
            management = Machine.freePort();
        }
        List<String> command = new ArrayList<>(List.of(jdk.launcher().toString(), "-XX:ActiveProcessorCount=" + LabServer.CARRIERS));
        command.addAll(launch.arguments(port, management));
        String jvm = name + "-jdk" + jdk.feature();
        ServerProcess process = ServerProcess.start(jvm, command, Project.testLogs().resolve(jvm + ".log"),
                URI.create("http://127.0.0.1:" + port), "/hello", START_TIMEOUT);
        // Prometheus sets instance to the address; the path from the target, as a ServiceMonitor endpoint's or a static config's sets it
        String address = "127.0.0.1:" + (metrics.onManagementPort() ? management : port);
        Map<String, String> labels = metrics.plainScrape() ? Map.of("job", name, "__metrics_path__", metrics.path())
                : Map.of("job", name, "namespace", PrometheusServer.ScrapeTarget.NAMESPACE, "service", name, "pod", jvm + "-" + process.pid(),
                        "__metrics_path__", metrics.path());
        return new Service(jdk, process, new PrometheusServer.ScrapeTarget(address, labels));
    }

    Service on(int feature) {
        return byFeature.get(feature);
    }

    List<Service> services() {
        return List.copyOf(byFeature.values());
    }

    /**
     * 64 clients split between {@code paths} ({@code ?ms=100}), loaded at once: both alerts silent throughout. Each share
     * would starve carriers its path held: 32 requests of 100 ms queue 0.8 s for 4 carriers. A window in which an alert
     * came while the machine disturbed the JVM is measured again, up to {@link #FREE_ATTEMPTS} windows: a control that held
     * carriers would hold them in every window, and fail here as it fails the median below.
     */
    void free(Service service, String... paths) {
        FreeWindow window;
        for (int attempt = 1; ; attempt++) {
            awaitSilent(List.of(service));
            window = freeWindow(service, paths);
            System.out.printf(Locale.ROOT, "%s, %s%n", service.describe(), window);
            if (window.alerts().isEmpty() || window.disturbedBy() == null || attempt == FREE_ATTEMPTS) {
                break;
            }
            System.out.printf(Locale.ROOT, "  measured again: %s%n", window.disturbedBy());
        }
        assertThat(window.alerts()).as("the starvation alerts on %s under %s: %s", service.describe(), String.join(" and ", paths), window)
                .isEmpty();
        window.results().forEach((path, result) -> assertThat(result.latencies().percentileMillis(50))
                .as("%s %s's median under free load", service.describe(), path).isLessThan(STARVED_MILLIS));
        long requests = window.results().values().stream().mapToLong(result -> result.latencies().count()).sum();
        String timed = "increase(virtual_threads_carrier_wait_seconds_count" + selector(service, "source=\"task\"") + "["
                + window.scrapes().seconds() + "s])";
        assertThat(value(timed)).as("requests whose hand-off the meter timed, of %d answered on %s", requests, service.describe())
                .isGreaterThan(requests / 2.0);
    }

    /**
     * One free load's window: the alerts seen in it, and what disturbed the JVM where the machine did: a GC pause longer than
     * the canary's threshold (0.1 s), which stops every thread and no rule can tell from a carrier's wait; a throughput
     * under half the clients' own (each client's request takes 100 ms); or, as the experiment judges its free phases
     * ({@link Disturbance#FREE_CANARY_MILLIS}), a canary kept waiting though nothing holds the carriers: their threads not
     * run by a busy machine (beside a core-spinning neighbour, a p99 of 213 ms once, its wait in flight never over 2 ms at a
     * scrape, the requests' medians 111-112 ms).
     */
    private record FreeWindow(Map<String, ClosedLoad.Result> results, Map<String, String> alerts, Scrapes scrapes, Meter meter,
            double longestGcPause, String disturbedBy) {

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s: %s in %d s; %s; %s, longest GC pause %.3f s", results.entrySet().stream()
                    .map(load -> describe(load.getKey(), CLIENTS / results.size(), load.getValue())).collect(Collectors.joining(", ")),
                    alerts.isEmpty() ? "no starvation alert" : "alerts " + alerts, LOAD.toSeconds(), scrapes, meter, longestGcPause);
        }
    }

    private FreeWindow freeWindow(Service service, String... paths) {
        List<ClosedLoad> loads = new ArrayList<>();
        Map<String, String> alerts = new LinkedHashMap<>();
        long started = System.nanoTime();
        Map<String, ClosedLoad.Result> results = new LinkedHashMap<>();
        try {
            for (String path : paths) {
                loads.add(ClosedLoad.start(service.process().uri(path + "?ms=" + MS), CLIENTS / paths.length, Duration.ofSeconds(30)));
            }
            while (System.nanoTime() - started < LOAD.toNanos()) {
                activeAlerts(service).forEach(alerts::putIfAbsent);
                Machine.pause(Duration.ofMillis(250));
            }
        } finally {
            for (int i = 0; i < loads.size(); i++) {
                results.put(paths[i], loads.get(i).stop(Duration.ofSeconds(10)));
            }
        }
        Scrapes scrapes = scrapes(service, started);
        // Micrometer's max of the last two minutes, at most
        double gcPause = value("max(max_over_time(jvm_gc_pause_seconds_max" + selector(service) + "[" + scrapes.seconds() + "s]))");
        double perClient = results.values().stream().mapToDouble(ClosedLoad.Result::throughput).sum() / CLIENTS;
        Meter meter = meter(service, scrapes.seconds());
        String disturbedBy = gcPause >= 0.1 ? String.format(Locale.ROOT, "a GC pause of %.3f s", gcPause)
                : perClient < 0.5 * 1000 / MS ? String.format(Locale.ROOT, "%.1f requests/s a client, under half its own 10", perClient)
                : meter.canaryP99() * 1000 >= Disturbance.FREE_CANARY_MILLIS ? String.format(Locale.ROOT, "canary p99 %.0f ms though the"
                        + " controls hold no carrier (at most %.0f ms)", meter.canaryP99() * 1000, Disturbance.FREE_CANARY_MILLIS) : null;
        return new FreeWindow(results, alerts, scrapes, meter, gcPause, disturbedBy);
    }

    /**
     * 64 clients on {@code path} ({@code ?ms=100}): {@code CarrierStarvation} pending within {@link #PENDING_WITHIN} of the
     * load's start, {@code CarrierStall} (the canary's or the requests' wait in flight) during it.
     */
    void starved(Service service, String path) {
        awaitSilent(List.of(service)); // its onset is this load's
        Map<String, Seen> firstActive = new LinkedHashMap<>();
        long started = System.nanoTime();
        ClosedLoad.Result result;
        try (ClosedLoad load = ClosedLoad.start(service.process().uri(path + "?ms=" + MS), CLIENTS, Duration.ofSeconds(30))) {
            // held for the whole load, and longer while an alert is missing, to say when it came if it came late
            while (System.nanoTime() - started < LOAD.toNanos()
                    || firstActive.size() < ALERTS.size() && System.nanoTime() - started < 3 * PENDING_WITHIN.toNanos()) {
                double seconds = (System.nanoTime() - started) / 1e9;
                activeAlerts(service).forEach((alert, state) -> firstActive.putIfAbsent(alert, new Seen(state, seconds)));
                Machine.pause(Duration.ofMillis(100));
            }
            result = load.stop(Duration.ofSeconds(10));
        }
        Scrapes scrapes = scrapes(service, started);
        Meter meter = meter(service, scrapes.seconds());
        System.out.printf(Locale.ROOT, "%s, %s: %s after the load began; %s; %s%n", service.describe(), describe(path, CLIENTS, result),
                ALERTS.stream().map(alert -> alert + " " + (firstActive.containsKey(alert) ? firstActive.get(alert) : "never"))
                        .collect(Collectors.joining(", ")), scrapes, meter);
        assertThat(firstActive).as("the starvation alerts on %s under %s", service.describe(), path).containsOnlyKeys(ALERTS);
        assertThat(firstActive.get("CarrierStarvation").seconds())
                .as("seconds from the load's start until CarrierStarvation on %s", service.describe())
                .isLessThanOrEqualTo(PENDING_WITHIN.toSeconds());
        assertThat(result.latencies().percentileMillis(50)).as("%s %s's median under load that holds the carriers", service.describe(), path)
                .isGreaterThanOrEqualTo(STARVED_MILLIS);
        assertThat(meter.oldestRequest()).as("the oldest request waiting for a carrier on %s, by the meter", service.describe())
                .isGreaterThanOrEqualTo(STARVED_MILLIS / 1000);
        scrapes.assertEveryOneAnswered(service);
        String pod = service.target().pod() == null ? "" : " (pod " + PrometheusServer.ScrapeTarget.NAMESPACE + "/" + service.target().pod() + ")";
        String target = service.target().labels().get("job") + " at " + service.target().address() + pod;
        assertThat(summary(service)).as("CarrierStarvation's summary, as Prometheus rendered it on the target's labels")
                .startsWith("New virtual threads on " + target + " wait ");
        // every request handed over ran or was answered: none is left counted as waiting
        await("the meter's queue of " + service.describe() + " empty after the load").atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(250)).until(() -> value("virtual_threads_carrier_queued" + selector(service)) == 0
                        && value("virtual_threads_carrier_stalled_seconds" + selector(service, "source=\"task\"")) == 0);
    }

    /** An alert first seen active, in a state, so many seconds after its load began. */
    private record Seen(String state, double seconds) {

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s %.1f s", state, seconds);
        }
    }

    /** The starvation alerts active on {@code service} now, with their state: every rule keeps {@code instance}. */
    private Map<String, String> activeAlerts(Service service) {
        Map<String, String> active = new LinkedHashMap<>();
        for (JsonNode alert : prometheus.query("ALERTS" + selector(service, "alertname=~\"" + String.join("|", ALERTS) + "\""))) {
            active.put(alert.path("metric").path("alertname").asText(), alert.path("metric").path("alertstate").asText());
        }
        return active;
    }

    /** The summary of the active {@code CarrierStarvation} on {@code service}, as Prometheus' alerts API renders it. */
    private String summary(Service service) {
        for (JsonNode active : prometheus.api("/api/v1/alerts").path("alerts")) {
            if ("CarrierStarvation".equals(active.path("labels").path("alertname").asText())
                    && service.target().address().equals(active.path("labels").path("instance").asText())) {
                return active.path("annotations").path("summary").asText();
            }
        }
        return "(no active CarrierStarvation on " + service.target().address() + ")";
    }

    /** What Prometheus scraped of {@code service} since {@code startedNanos}: how many scrapes, how many answered, the slowest. */
    private record Scrapes(int seconds, int scraped, int answered, double slowestSeconds, List<String> failures) {

        /** Judged where the carriers are held; under free load a scrape fails only when the machine stalls the JVM, its requests too. */
        void assertEveryOneAnswered(Service service) {
            assertThat(answered).as("scrapes of %s that answered during the load (up == 1): %s; Prometheus's scrape failures of it: %s",
                    service.describe(), this, failures).isEqualTo(scraped);
            assertThat(scraped).as("scrapes of %s at 1 s during %d s of load", service.describe(), seconds).isGreaterThanOrEqualTo(seconds - 2);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "scrape up %d of %d (slowest %.0f ms)", answered, scraped, slowestSeconds * 1000);
        }
    }

    private Scrapes scrapes(Service service, long startedNanos) {
        int seconds = (int) ((System.nanoTime() - startedNanos) / 1_000_000_000L);
        String window = "[" + seconds + "s]";
        String up = "up" + selector(service);
        return new Scrapes(seconds, (int) value("count_over_time(" + up + window + ")"), (int) value("sum_over_time(" + up + window + ")"),
                value("max_over_time(scrape_duration_seconds" + selector(service) + window + ")"), prometheus.scrapeFailures(service.target()));
    }

    /** What the alerts read of the meter over a window, in seconds: the canary's p99 and longest wait in flight, the oldest request's. */
    private record Meter(double canaryP99, double canaryWaiting, double oldestRequest) {

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "canary p99 %.3f s, canary waiting at most %.3f s, oldest request waiting %.3f s", canaryP99,
                    canaryWaiting, oldestRequest);
        }
    }

    /** The meter over the last {@code seconds}. */
    private Meter meter(Service service, int seconds) {
        String window = "[" + seconds + "s]";
        return new Meter(value("histogram_quantile(0.99, rate(virtual_threads_carrier_wait_seconds_bucket" + selector(service,
                "source=\"canary\"") + window + "))"),
                value("max_over_time(virtual_threads_carrier_stalled_seconds" + selector(service, "source=\"canary\"") + window + ")"),
                value("max_over_time(virtual_threads_carrier_stalled_seconds" + selector(service, "source=\"task\"") + window + ")"));
    }

    private void awaitScrapedWithTheMeter() {
        for (Service service : byFeature.values()) {
            String series = "virtual_threads_carrier_queued" + selector(service);
            await("Prometheus scraping " + service.describe() + " with the starvation meter's series").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250)).until(() -> !prometheus.query("up" + selector(service) + " == 1").isEmpty()
                            && !prometheus.query(series).isEmpty());
        }
    }

    /** Every endpoint at a load that holds no carrier, every JVM at once, so no JIT or class loading counts in a phase. */
    private void warm() {
        List<ClosedLoad> loads = new ArrayList<>();
        try {
            for (Service service : byFeature.values()) {
                for (String path : List.of("/hello", "/sleep?ms=1", "/sync?ms=1", "/cpu?ms=1")) {
                    loads.add(ClosedLoad.start(service.process().uri(path), 4, Duration.ofSeconds(30)));
                }
            }
            Machine.pause(Duration.ofSeconds(3));
        } finally {
            loads.forEach(load -> load.stop(Duration.ofSeconds(10)));
        }
    }

    /** Until no starvation alert is active on {@code services}: what came before (another load) stays in the rules' 15 s windows. */
    private void awaitSilent(List<Service> services) {
        long started = System.nanoTime();
        await("the starvation alerts silent").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> services.stream().allMatch(service -> activeAlerts(service).isEmpty()));
        double waited = (System.nanoTime() - started) / 1e9;
        if (waited > 1) {
            System.out.printf(Locale.ROOT, "alerts silent after %.1f s (%s)%n", waited, services.stream()
                    .map(service -> service.describe() + ": " + meter(service, 30)).collect(Collectors.joining("; ")));
        }
    }

    private static String selector(Service service, String... more) {
        List<String> matchers = new ArrayList<>(List.of("instance=\"" + service.target().address() + "\""));
        matchers.addAll(List.of(more));
        return "{" + String.join(", ", matchers) + "}";
    }

    private double value(String promql) {
        return prometheus.query(promql).path(0).path("value").path(1).asDouble(Double.NaN);
    }

    private static String describe(String path, int clients, ClosedLoad.Result result) {
        return String.format(Locale.ROOT, "%s?ms=%d x%d: %.0f requests/s, p50 %.0f ms, max %.0f ms", path, MS, clients, result.throughput(),
                result.latencies().percentileMillis(50), result.latencies().maxMillis());
    }
}
