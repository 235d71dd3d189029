package io.starvationlab.experiment.prometheus;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Function;

import io.starvationlab.experiment.prometheus.PrometheusServer.ScrapeTarget;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;

/**
 * The experiment's Prometheus from start to finish: scrapes each server JVM while it runs, records
 * when each phase ran, and at the end reads the alerts, the dashboard's queries and the timeline back
 * from Prometheus. Without a {@code prometheus} command it does nothing and the report says so; with
 * {@code CI=true} a missing command fails the run.
 */
public final class PrometheusRun implements AutoCloseable {

    /**
     * The longest the run waits, after its last phase, for the starvation alerts to resolve: their rules'
     * 15 s windows, and three evaluations for the last stalled sample to leave them.
     */
    private static final Duration RESOLVE_WAIT = Duration.ofSeconds(18);
    /** Grafana's {@code $__rate_interval} for a data source scraped every {@link PrometheusServer#INTERVAL}: four scrapes. */
    public static final Duration RATE_INTERVAL = PrometheusServer.INTERVAL.multipliedBy(4);
    /** The alerts that claim starvation: they must catch every starved phase and no other. */
    public static final List<String> STARVATION_ALERTS = List.of("CarrierStarvation", "CarrierStall");

    /** Prometheus getting ready while the first server JVM starts; null without a prometheus command. */
    private final CompletableFuture<PrometheusServer> starting;
    private final String missing;
    private final AlertRules rules;
    private final DashboardPanels dashboard;
    private final Consumer<String> progress;
    private final List<PhaseWindow> windows = new ArrayList<>();
    private final Map<String, ScrapeTarget> targets = new LinkedHashMap<>();
    private final Instant started = Instant.now();
    private long waitedNanos;

    private PrometheusRun(CompletableFuture<PrometheusServer> starting, String missing, AlertRules rules, DashboardPanels dashboard,
            Consumer<String> progress) {
        this.starting = starting;
        this.missing = missing;
        this.rules = rules;
        this.dashboard = dashboard;
        this.progress = progress;
    }

    /** Starts Prometheus with the rules and dashboard of the project at {@code projectDir}, or explains why not. */
    public static PrometheusRun start(Path projectDir, Path out, Consumer<String> progress) {
        AlertRules rules = AlertRules.ofProject(projectDir);
        DashboardPanels dashboard = DashboardPanels.ofProject(projectDir);
        var binary = Machine.onPath("prometheus");
        if (binary.isEmpty()) {
            String why = "prometheus is not on the PATH (Debian: apt-get install prometheus; .ci/with-experiment-tools installs it)";
            if (Machine.inCi()) {
                throw new IllegalStateException(why + ": required in CI");
            }
            progress.accept("SKIPPED Prometheus: " + why);
            return new PrometheusRun(null, why, rules, dashboard, progress);
        }
        CompletableFuture<PrometheusServer> starting = CompletableFuture.supplyAsync(() -> {
            PrometheusServer server = PrometheusServer.start(binary.get(), rules, out.resolve("logs"));
            progress.accept("Prometheus " + server.baseUri() + " (pid " + server.pid() + "): " + rules.alerts().size() + " alert rules, "
                    + dashboard.panels().size() + " dashboard panels");
            return server;
        }, task -> Thread.ofPlatform().daemon().name("prometheus-start").start(task));
        return new PrometheusRun(starting, null, rules, dashboard, progress);
    }

    /** No Prometheus, for servers that no alert is judged on (the JDK matrix's): scrapes and windows are dropped. */
    public static PrometheusRun off(String why) {
        return new PrometheusRun(null, why, null, null, line -> { });
    }

    /** Scrapes {@code lab} as the run's server JVM {@code jvm} until the returned handle is closed. */
    public AutoCloseable scrape(String jvm, LabServer lab) {
        if (starting == null) {
            return () -> { };
        }
        PrometheusServer server = ready();
        ScrapeTarget target = ScrapeTarget.of(jvm, lab.pid(), lab.baseUri());
        targets.put(jvm, target);
        server.scrape(target);
        return () -> server.forget(target);
    }

    /**
     * The starvation alerts active on {@code jvm}'s server now, after waiting up to {@code within} for them to clear: one a
     * warm-up raised (the JIT inside a CPU quota on a busy machine) would still be active in the next window and hide its
     * onset. Empty where none is, or without Prometheus.
     */
    public List<String> activeAfter(String jvm, Duration within) {
        ScrapeTarget target = targets.get(jvm);
        if (target == null) {
            return List.of();
        }
        PrometheusServer server = ready();
        long begin = System.nanoTime();
        try {
            while (true) {
                List<String> active = new ArrayList<>();
                for (var alert : server.query("ALERTS{pod=\"" + target.pod() + "\"}")) {
                    String name = alert.path("metric").path("alertname").asText();
                    if (STARVATION_ALERTS.contains(name) && !active.contains(name)) {
                        active.add(name);
                    }
                }
                if (active.isEmpty() || System.nanoTime() - begin >= within.toNanos()) {
                    return active;
                }
                Machine.pause(PrometheusServer.INTERVAL);
            }
        } finally {
            waitedNanos += System.nanoTime() - begin;
        }
    }

    /** Records that phase {@code name} ran on {@code jvm}'s server: load from {@code start} to {@code loadEnd}, drained by {@code end}. */
    public void phase(String jvm, String name, String verdict, Instant start, Instant loadEnd, Instant end) {
        ScrapeTarget target = targets.get(jvm);
        if (target != null) {
            windows.add(new PhaseWindow(name, jvm, target.pod(), verdict, start, loadEnd, end));
        }
    }

    /** Reads the run back from Prometheus: every window, alert episode, panel and timeline series, unjudged. */
    public MeasuredPrometheus finish(int jdk) {
        if (starting == null) {
            return MeasuredPrometheus.notMeasured(missing);
        }
        PrometheusServer server = ready();
        long begin = System.nanoTime();
        awaitStarvationAlertsResolved(server);
        Duration step = PrometheusServer.INTERVAL;
        // a step past now reads the latest evaluation, so an alert resolved since the last whole step shows so
        Instant end = Instant.now().plus(step);
        Instant start = windows.isEmpty() ? started : windows.getFirst().start().minusSeconds(2);
        Function<String, List<Series>> over = query -> server.queryRange(query, start, end, step);
        List<AlertEpisode> episodes = onsets(AlertEpisode.of(over.apply("ALERTS"), step, end), step, over);
        List<MeasuredPrometheus.PanelSeries> panels = dashboard.panels().stream().map(panel -> new MeasuredPrometheus.PanelSeries(panel,
                panel.queries().stream().flatMap(query -> over.apply(query).stream()).toList())).toList();
        String rate = RATE_INTERVAL.toSeconds() + "s";
        MeasuredPrometheus.Timeline timeline = new MeasuredPrometheus.Timeline(
                over.apply(String.format(Locale.ROOT, MeasuredPrometheus.Timeline.PROBE_P99, rate)), over.apply(MeasuredPrometheus.Timeline.STALLED),
                over.apply(MeasuredPrometheus.Timeline.REQUEST_STALLED), over.apply(String.format(Locale.ROOT, MeasuredPrometheus.Timeline.THROUGHPUT, rate)));
        waitedNanos += System.nanoTime() - begin;
        String note = String.format(Locale.ROOT, "A Prometheus server scraped every server JVM and evaluated the rules of "
                + "`kubernetes/base/monitoring/prometheusrule.yaml` every %d s; the dashboard's queries use $__rate_interval = %d s.",
                PrometheusServer.INTERVAL.toSeconds(), RATE_INTERVAL.toSeconds());
        return new MeasuredPrometheus(true, note, jdk, server.peakRssBytes() / 1e6, waitedNanos / 1e9, new MeasuredPrometheus.Range(start, end, step),
                List.copyOf(windows), episodes, rules.alerts(), panels, timeline);
    }

    /** Each starvation alert's episodes with the conditions of its rule that held when it went pending, so an alarm names its cause. */
    private List<AlertEpisode> onsets(List<AlertEpisode> episodes, Duration step, Function<String, List<Series>> over) {
        Map<String, AlertRules.Alert> starvation = new LinkedHashMap<>();
        Map<String, List<Series>> held = new LinkedHashMap<>();
        for (AlertRules.Alert alert : rules.alerts()) {
            if (STARVATION_ALERTS.contains(alert.name())) {
                starvation.put(alert.name(), alert);
                alert.branches().forEach(branch -> held.computeIfAbsent(branch, over));
            }
        }
        List<AlertEpisode> explained = new ArrayList<>();
        for (AlertEpisode episode : episodes) {
            AlertRules.Alert alert = starvation.get(episode.alert());
            if (alert == null) {
                explained.add(episode);
                continue;
            }
            List<String> onset = new ArrayList<>();
            for (String branch : alert.branches()) {
                held.get(branch).stream().filter(series -> series.label("pod").equals(episode.pod()))
                        .forEach(series -> series.valueAt(episode.pending(), step).ifPresent(value -> onset.add(
                                String.format(Locale.ROOT, "%s: %.3f", AlertRules.Alert.summary(branch), value))));
            }
            explained.add(episode.withOnset(onset));
        }
        return explained;
    }

    /** Prometheus once it is ready, the wait counted as what it added to the run; its failure to start fails the run. */
    private PrometheusServer ready() {
        long begin = System.nanoTime();
        try {
            return starting.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException failed ? failed : e;
        } finally {
            waitedNanos += System.nanoTime() - begin;
        }
    }

    private void awaitStarvationAlertsResolved(PrometheusServer server) {
        String active = "ALERTS{alertname=~\"" + String.join("|", STARVATION_ALERTS) + "\"}";
        long deadline = System.nanoTime() + RESOLVE_WAIT.toNanos();
        // an alert's series ends at the evaluation that resolves it, so the range query up to now sees it
        while (System.nanoTime() < deadline && !server.query(active).isEmpty()) {
            Machine.pause(Duration.ofMillis(250));
        }
        progress.accept(server.query(active).isEmpty() ? "Prometheus: the starvation alerts have resolved"
                : "Prometheus: starvation alerts still active after waiting " + RESOLVE_WAIT.toSeconds() + " s");
    }

    @Override
    public void close() {
        if (starting != null) {
            starting.thenAccept(PrometheusServer::close).exceptionally(failed -> null).join();
        }
    }
}
