package io.starvationlab.experiment.prometheus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.starvationlab.experiment.Finding;
import io.starvationlab.experiment.server.LabServer;

/**
 * The experiment's Prometheus from start to report: scrapes each server JVM while it runs, records
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

    private final PrometheusServer server;
    private final String missing;
    private final AlertRules rules;
    private final DashboardPanels dashboard;
    private final Path out;
    private final Consumer<String> progress;
    private final List<PhaseWindow> windows = new ArrayList<>();
    private final Map<String, ScrapeTarget> targets = new LinkedHashMap<>();
    private final Instant started = Instant.now();
    private long waitedNanos;

    private PrometheusRun(PrometheusServer server, String missing, AlertRules rules, DashboardPanels dashboard, Path out,
            Consumer<String> progress) {
        this.server = server;
        this.missing = missing;
        this.rules = rules;
        this.dashboard = dashboard;
        this.out = out;
        this.progress = progress;
    }

    /** Starts Prometheus with the rules and dashboard of the project at {@code projectDir}, or explains why not. */
    public static PrometheusRun start(Path projectDir, Path out, Consumer<String> progress) {
        AlertRules rules = AlertRules.ofProject(projectDir);
        DashboardPanels dashboard = DashboardPanels.ofProject(projectDir);
        var binary = PrometheusServer.binary();
        if (binary.isEmpty()) {
            String why = "prometheus is not on the PATH (Debian: apt-get install prometheus; .ci/with-test-tools installs it)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new IllegalStateException(why + ": required in CI");
            }
            progress.accept("SKIPPED Prometheus: " + why);
            return new PrometheusRun(null, why, rules, dashboard, out, progress);
        }
        // it gets ready while the first server JVM starts
        PrometheusServer server = PrometheusServer.launch(binary.get(), rules, out.resolve("logs"));
        progress.accept("Prometheus " + server.baseUri() + " (pid " + server.pid() + "): " + rules.alerts().size() + " alert rules, "
                + dashboard.panels().size() + " dashboard panels");
        return new PrometheusRun(server, null, rules, dashboard, out, progress);
    }

    public boolean enabled() {
        return server != null;
    }

    /** Scrapes {@code lab} as the run's server JVM {@code jvm} until the returned handle is closed. */
    public AutoCloseable scrape(String jvm, LabServer lab) {
        if (server == null) {
            return () -> { };
        }
        long begin = System.nanoTime();
        server.awaitReady();
        waitedNanos += System.nanoTime() - begin;
        ScrapeTarget target = ScrapeTarget.of(jvm, lab.pid(), lab.baseUri());
        targets.put(jvm, target);
        server.scrape(target);
        return () -> server.forget(target);
    }

    /** Records that phase {@code name} ran on {@code jvm}'s server: load from {@code start} to {@code loadEnd}, drained by {@code end}. */
    public void phase(String jvm, String name, String verdict, Instant start, Instant loadEnd, Instant end) {
        ScrapeTarget target = targets.get(jvm);
        if (target != null) {
            windows.add(new PhaseWindow(name, jvm, target.pod(), verdict, start, loadEnd, end));
        }
    }

    /** Reads the run back from Prometheus, writes {@code timeline.svg}, and returns the report's section. */
    public PrometheusReport finish(int jdk) {
        if (server == null) {
            return PrometheusReport.notMeasured(missing);
        }
        long begin = System.nanoTime();
        server.awaitReady();
        awaitStarvationAlertsResolved();
        Duration step = PrometheusServer.INTERVAL;
        // a step past now reads the latest evaluation, so an alert resolved since the last whole step shows so
        Instant end = Instant.now().plus(step);
        Instant start = windows.isEmpty() ? started : windows.getFirst().start().minusSeconds(2);
        List<AlertEpisode> episodes = AlertEpisode.of(server.queryRange("ALERTS", start, end, step), step, end);
        AlertTimeline timeline = new AlertTimeline(List.copyOf(windows), episodes, rules.alerts());

        List<PrometheusReport.PanelRow> panels = new ArrayList<>();
        for (DashboardPanels.Panel panel : dashboard.panels()) {
            List<Series> series = new ArrayList<>();
            panel.queries().forEach(query -> series.addAll(server.queryRange(query, start, end, step)));
            List<PhaseWindow> meant = windows.stream().filter(w -> panel.meantFor(w, jdk)).toList();
            List<String> withData = windows.stream().filter(w -> !AlertTimeline.WARM_UP.equals(w.verdict()))
                    .filter(w -> series.stream().anyMatch(s -> s.hasValueBetween(w.start(), w.end()))).map(PhaseWindow::name).toList();
            panels.add(new PrometheusReport.PanelRow(panel.title(), panel.row(), panel.queries(), panel.meantFor(), withData,
                    meant.stream().map(PhaseWindow::name).filter(name -> !withData.contains(name)).toList()));
        }

        Map<String, String> queries = TimelineChart.queries(PrometheusServer.INTERVAL.multipliedBy(4));
        TimelineChart.Data data = new TimelineChart.Data(server.queryRange(queries.get("probeP99"), start, end, step),
                server.queryRange(queries.get("stalled"), start, end, step), server.queryRange(queries.get("requestStalled"), start, end, step),
                server.queryRange(queries.get("throughput"), start, end, step));
        try {
            Files.createDirectories(out);
            Files.writeString(out.resolve("timeline.svg"), TimelineChart.svg(start, end, windows, episodes, rules.names(), data,
                    "JDK " + jdk + ", 4 carriers per server JVM; bands: the phases' load; lanes: each alert pending (amber) and firing (red)"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }

        List<Finding> findings = new ArrayList<>(timeline.findings());
        List<String> empty = panels.stream().filter(p -> p.phasesWithData().isEmpty()).map(PrometheusReport.PanelRow::title).toList();
        findings.add(new Finding("Every dashboard panel shows data in at least one phase", "each panel's queries return a number in some phase",
                empty.isEmpty() ? panels.size() + " of " + panels.size() + " panels" : "no data: " + String.join(", ", empty), empty.isEmpty()));
        waitedNanos += System.nanoTime() - begin;
        double rss = server.peakRssBytes() / 1e6;
        List<PrometheusReport.Rule> ruleFigures = rules.alerts().stream().map(alert -> new PrometheusReport.Rule(alert.name(), alert.expr(),
                alert.holdFor().toSeconds(), timeline.detectionSeconds(alert.name()))).toList();
        String note = String.format(java.util.Locale.ROOT, "A Prometheus server scraped every server JVM and evaluated the rules of "
                + "`kubernetes/base/monitoring/prometheusrule.yaml` every %d s; the dashboard's queries use $__rate_interval = %d s.",
                PrometheusServer.INTERVAL.toSeconds(), PrometheusServer.INTERVAL.multipliedBy(4).toSeconds());
        return new PrometheusReport(true, note, rss, waitedNanos / 1e9, ruleFigures, timeline.rows(), List.copyOf(panels),
                List.copyOf(findings));
    }

    private void awaitStarvationAlertsResolved() {
        String active = "ALERTS{alertname=~\"" + String.join("|", AlertTimeline.STARVATION_ALERTS) + "\"}";
        long deadline = System.nanoTime() + RESOLVE_WAIT.toNanos();
        // an alert's series ends at the evaluation that resolves it, so the range query up to now sees it
        while (System.nanoTime() < deadline && !server.query(active).isEmpty()) {
            LabServer.sleep(Duration.ofMillis(250));
        }
        progress.accept(server.query(active).isEmpty() ? "Prometheus: the starvation alerts have resolved"
                : "Prometheus: starvation alerts still active after waiting " + RESOLVE_WAIT.toSeconds() + " s");
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
