package io.starvationlab.experiment.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.JudgedPrometheus;
import io.starvationlab.experiment.results.JudgedQuota;
import io.starvationlab.experiment.results.JudgedRun;
import io.starvationlab.experiment.results.K6Comparison;
import io.starvationlab.experiment.results.ProbeDistribution;
import io.starvationlab.experiment.results.ProbeReach;
import io.starvationlab.experiment.results.QueueModel;
import io.starvationlab.experiment.results.UnrelatedWait;
import io.starvationlab.experiment.run.Disturbance;
import io.starvationlab.experiment.run.Environment;
import io.starvationlab.experiment.run.EventLoopsBlocked;
import io.starvationlab.experiment.run.MeasuredColdStart;
import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.experiment.run.MeasuredTime;
import io.starvationlab.experiment.run.RunClock;
import io.starvationlab.experiment.run.ServerRun;
import io.starvationlab.experiment.run.ServerStarts;
import io.starvationlab.harness.CpuQuota;

/** {@code report.md}, section by section; it only returns the text ({@link ReportFiles} writes it). */
public final class ReportText {

    /** The frames of a blocked event loop's first warning shown in the cold starts' table: where it waited. */
    private static final int FRAMES = 3;

    private ReportText() {
    }

    public static String markdown(ExperimentReport report) {
        JudgedRun run = report.run();
        StringBuilder md = new StringBuilder("# Starvation Lab: experiment report\n\n");
        md.append("**TL;DR** — ").append(run.phases().stream().filter(p -> JudgedPhase.STARVED.equals(p.verdict())).map(JudgedPhase::name)
                .collect(Collectors.joining(", ", "starved: ", ""))).append("; ").append(run.phases().stream()
                        .filter(p -> JudgedPhase.NOT_STARVED.equals(p.verdict())).map(JudgedPhase::name).collect(Collectors.joining(", ", "not starved: ", "")))
                .append(". Findings reproduced: ").append(report.findings().stream().filter(f -> Boolean.TRUE.equals(f.holds())).count()).append(" of ")
                .append(report.findings().stream().filter(f -> f.holds() != null).count()).append(" measured.\n\n");
        md.append("Verdict rule: ").append(report.verdictRule()).append(".\n\n");
        Environment env = report.environment();
        md.append("## Environment\n\n- Run: ").append(report.startedAt()).append(report.quick() ? " (quick mode: shortened phases, some skipped)" : "")
                .append("\n- Machine: ").append(env.os()).append(", ").append(env.hostProcessors()).append(" processors\n")
                .append("- Load and probes: a separate JVM (").append(env.clientJava()).append("), platform threads; probes at ")
                .append(env.probesPerSecond().entrySet().stream().map(rate -> Figures.fixed(rate.getValue()) + "/s on " + rate.getKey())
                        .collect(Collectors.joining(", "))).append("\n- Plan: `").append(env.plan()).append("`\n");
        run.notRun().forEach(line -> md.append("- Not run: ").append(line).append('\n'));
        Table servers = new Table("server JVM", "JDK", "carriers", "synchronized pins", "LockingMode", "flags");
        run.servers().values().forEach(server -> servers.row(server.jvm(), server.javaVersion() + " (" + server.javaVendor() + ")", server.carriers(),
                server.synchronizedPins(), server.lockingMode(), "`" + String.join(" ", server.jvmArguments()) + "`"));
        md.append('\n').append(servers).append("\n## Phases\n\n").append(phases(run.phases()))
                .append("\nTwo waits for a carrier, from the carrier-wait meter: *request wait* is each request's own, from its event loop's hand-off until"
                        + " its virtual thread ran (`source=task`), the wait users feel; *canary* is the meter's probe, a no-op virtual thread started from a"
                        + " platform thread every 100 ms, which waits in a queue of its own and so can wait out a whole backlog. *Stalled*: the longest"
                        + " wait seen still going on.\n").append(remeasured(run.remeasured()));
        md.append("\n![probe p99 per phase, log scale](").append(ProbeChart.FILE).append(")\n").append(waits(run)).append('\n');
        md.append(quota(run.quota())).append(k6(run.k6(), run.virtualReach())).append(coldStarts(run.coldStarts()));
        if (run.matrix() != null) {
            md.append(MatrixText.markdown(run.matrix())).append('\n');
        }
        Table findings = new Table("id", "claim", "expected", "measured", "result");
        report.findings().forEach(f -> findings.row("`" + f.id() + "`", f.claim(), f.expected(), f.measured(),
                f.holds() == null ? "n/a" : f.holds() ? "holds" : "**fails**"));
        md.append("## Findings\n\n").append(findings).append("\nThe model limit is what runs out first: carriers (work that holds them), the permits, "
                + "the worker pool, a shared lock, or the clients' concurrency; each divided by the call's duration.\n");
        return md.append(alerts(run.prometheus())).append(time(report.time())).toString();
    }

    /**
     * The job's benchmark of itself: each part's seconds and share, the Maven build before the run included where Maven
     * started it; a server JVM starting beside a phase counts only for the time the run waited for it.
     */
    static String time(MeasuredTime time) {
        if (time == null) {
            return "";
        }
        double total = time.runSeconds() + (time.buildSeconds() == null ? 0 : time.buildSeconds());
        List<String> setUp = new ArrayList<>();
        if (time.buildSeconds() != null) {
            setUp.add(String.format(Locale.ROOT, "the Maven build before the run, downloads included, %.0f s", time.buildSeconds()));
        }
        time.parts().forEach((part, seconds) -> {
            if (part.startsWith(RunClock.SET_UP)) {
                setUp.add(String.format(Locale.ROOT, "%s %.0f s", part.substring(RunClock.SET_UP.length()), seconds));
            }
        });
        StringBuilder md = new StringBuilder("\n## How long this run took\n\n").append(String.format(Locale.ROOT, "%s in all: set-up %s (%s), "
                + "then the run %s, from its first server JVM to the report. Each part as the run's own thread spent it: a server JVM that "
                + "started beside a phase counts only for the time the run waited for it.%n%n", minutes(total), minutes(time.setUpSeconds()),
                String.join("; ", setUp), minutes(time.measuredSeconds())));
        Table parts = new Table("part", "seconds", "share");
        if (time.buildSeconds() != null) {
            parts.row(RunClock.SET_UP + "Maven build", String.format(Locale.ROOT, "%.0f", time.buildSeconds()), Figures.percent(time.buildSeconds() / total));
        }
        time.parts().forEach((part, seconds) -> parts.row(part, String.format(Locale.ROOT, "%.1f", seconds), Figures.percent(seconds / total)));
        double rest = time.runSeconds() - time.parts().values().stream().mapToDouble(Double::doubleValue).sum();
        parts.row("the rest (the runner's own start, k6, progress between parts)", String.format(Locale.ROOT, "%.1f", rest), Figures.percent(rest / total));
        double starting = time.starts().stream().mapToDouble(ServerStarts.Start::seconds).sum();
        double waited = time.starts().stream().mapToDouble(ServerStarts.Start::waitedSeconds).sum();
        return md.append(parts).append(String.format(Locale.ROOT, "%nServer JVMs: %d started, %.0f s of starting in all; the run waited for %.0f s of it,"
                + " the rest ran beside phases that hold the carriers in a wait.%n", time.starts().size(), starting, waited)).toString();
    }

    /** The windows measured again, and why: each attempt whose own signals said the machine, not the service, held it back. */
    static String remeasured(List<Disturbance.Remeasured> windows) {
        if (windows.isEmpty()) {
            return "\nNo window was measured again: every baseline came clean and no phase showed the machine holding it back.\n";
        }
        Table table = new Table("server JVM", "window", "attempt", "why it was measured again");
        windows.forEach(w -> table.row(w.server(), w.window(), w.attempt(), w.why()));
        return "\n### Windows measured again\n\nA baseline that still saw the carriers held, or a phase whose work holds no carrier but whose "
                + "canary, throughput, clients or probe showed the machine holding it back, is measured again (at most 3 attempts); only the "
                + "last attempt is judged, and one still disturbed then is marked in the table above.\n\n" + table;
    }

    /** "9 min 41 s", "15 s". */
    private static String minutes(double seconds) {
        long whole = Math.round(seconds);
        return whole < 60 ? whole + " s" : whole / 60 + " min " + whole % 60 + " s";
    }

    private static Table phases(List<JudgedPhase> phases) {
        Table table = new Table(Stream.of(List.of("phase", "mode / downstream / lock", "ms x concurrency", "req/s", "model limit (bound)", "errors"),
                ProbeChart.PROBES.stream().map(probe -> probe + " p50 / p99 / max ms").toList(), List.of("canary p99 ms", "canary stalled max ms",
                        "request wait p99 ms", "request stalled max ms", "pinned events", "top pinned frame", "verdict")).flatMap(List::stream).toList());
        for (JudgedPhase phase : phases) {
            boolean base = phase.isBaseline();
            List<Object> row = new ArrayList<>(List.of(phase.name(), base ? "probes only" : phase.mode() + " / " + phase.downstream() + " / " + phase.lock(),
                    base ? "-" : phase.ms() + " x " + phase.concurrency(), base ? "-" : Figures.fixed(phase.throughputPerSecond()),
                    base ? "-" : Figures.fixed(phase.modelLimitPerSecond()) + " (" + phase.modelBasis() + ")",
                    base ? "-" : phase.errors() + (phase.errors() > 0 ? " " + phase.statuses() : "")));
            ProbeChart.PROBES.stream().map(probe -> phase.probes().get(probe)).forEach(p -> row.add(Figures.fixed(p.p50Millis()) + " / " + Figures.fixed(p.p99Millis())
                    + " / " + Figures.fixed(p.maxMillis()) + (p.errors() > 0 ? " (" + p.errors() + " failed)" : "")));
            row.addAll(List.of(Figures.fixed(phase.canaryP99Millis()), Figures.fixed(phase.canaryMaxStalledMillis()),
                    Figures.fixed(phase.requestWaitP99Millis()), Figures.fixed(phase.requestMaxStalledMillis()), phase.pinnedEvents(),
                    phase.topPinnedFrame() == null ? "-" : "`" + phase.topPinnedFrame().replaceFirst("^io\\.starvationlab\\.", "") + "`",
                    base ? (phase.note() == null ? "-" : phase.note())
                            : phase.verdict().toUpperCase(Locale.ROOT) + String.format(Locale.ROOT, " (%.0fx)", phase.virtualProbeSlowdown())
                                    + (phase.note() == null ? "" : "; " + phase.note())));
            table.row(row);
        }
        return table;
    }

    /** The unrelated request's wait: the queue model beside the measured distribution, per phase and per event loop. */
    static String waits(JudgedRun run) {
        List<JudgedPhase> phases = run.phases().stream().filter(phase -> phase.unrelatedWait() != null).toList();
        if (phases.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n## The unrelated request's wait: model and measured\n\n");
        md.append("For each phase whose load holds the carriers: the model's wait for `/probe/virtual`, ").append(QueueModel.formula())
                .append(" (the ideal, at carriers / ms, in brackets), beside the measured waits of the probes sent from ")
                .append(UnrelatedWait.SETTLE.toSeconds()).append(" s after the load started until it stopped. ")
                .append("Per probe the model says that while it waits, the requests ahead of it are answered, no more, no fewer: ")
                .append("\"served while waiting\" gives the load's answers while each probe waited (min / p50 / max), and \"in turn\" ")
                .append("the share of probes for which they were within ±").append(Math.round(QueueModel.TOLERANCE * 100))
                .append(" % of the requests ahead. Event loops: how many answered probes, and the slowest one's p50 over the fastest one's. ")
                .append("\"Slow ones answered\": when the probes over twice the model were answered, in seconds after the load stopped")
                .append(" (min / p50 / max; negative: before).\n\n");
        Table all = new Table("phase", "event loops", "model ms (ideal)", "probes", "min", "p10", "p50", "p90", "p99", "max", "> 1 s", "> 3 s", "ahead",
                "served while waiting", "in turn", "> 2x model", "slow ones answered", "slowest / fastest event loop p50");
        Table byLoop = new Table("phase", "event loop", "probes", "min", "p10", "p50", "p90", "p99", "max", "> 1 s", "> 3 s");
        for (JudgedPhase phase : phases) {
            UnrelatedWait wait = phase.unrelatedWait();
            MeasuredServer.Info server = run.servers().get(phase.jvm());
            int[] served = wait.servedWhileWaiting();
            double[] at = wait.slowAnsweredAfterStop();
            all.row(phase.name(), wait.eventLoopsSeen() + " of " + (server == null ? "?" : server.eventLoops()),
                    Figures.fixed(wait.modelMillis()) + " (" + Figures.fixed(wait.idealMillis()) + ")",
                    wait.measured().count() + (wait.measured().failed() > 0 ? " (" + wait.measured().failed() + " failed)" : ""), seconds(wait.measured()),
                    wait.ahead(), served == null ? "-" : served[0] + " / " + served[1] + " / " + served[2], Figures.percent(wait.withinTolerance()),
                    Figures.percent(wait.overTwiceModel()), at == null ? "-" : String.format(Locale.ROOT, "%+.1f / %+.1f / %+.1f s", at[0], at[1], at[2]),
                    Figures.times(wait.slowestToFastestP50()));
            wait.byEventLoop().forEach((loop, d) -> byLoop.row(phase.name(), UnrelatedWait.shortName(loop), d.count(), seconds(d)));
        }
        md.append(all).append("\n### Per event loop\n\n").append(byLoop);
        if (CdfChart.pick(run).isPresent()) {
            md.append("\n![/probe/virtual's wait, one event loop against the default, per event loop](").append(CdfChart.FILE).append(")\n");
        }
        return md.toString();
    }

    /** A distribution as table cells, in seconds to two decimals. */
    private static String seconds(ProbeDistribution d) {
        return String.join(" | ", Figures.seconds(d.minMillis()), Figures.seconds(d.p10Millis()), Figures.seconds(d.p50Millis()),
                Figures.seconds(d.p90Millis()), Figures.seconds(d.p99Millis()), Figures.seconds(d.maxMillis()), Figures.percent(d.overOneSecond()),
                Figures.percent(d.overThreeSeconds()));
    }

    /** The server JVMs inside a CPU quota: what each saw and chose, and its phases against their models. */
    static String quota(JudgedQuota quota) {
        if (quota == null || !quota.planned()) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n## Inside a CPU quota\n\n");
        if (quota.unavailable() != null) {
            return md.append("Not measured: no CPU quota can be set here (").append(quota.unavailable())
                    .append("). The phases of the plan's server JVMs inside one were skipped; with `CI=true` the run fails instead.\n").toString();
        }
        md.append("Each server JVM here ran inside a cgroup with a CPU quota (period ").append(CpuQuota.PERIOD_MICROS / 1000)
                .append(" ms), as a container's CPU limit runs it, with no `-XX:ActiveProcessorCount`: the JVM takes its processors, and with")
                .append(" them its carriers, from the quota. Its warm-up ran each path at one client per carrier for longer than elsewhere,")
                .append(" because inside the quota the JIT compiles on the carriers' own CPUs.\n\n");
        quota.skipped().forEach(line -> md.append("- Not run: ").append(line).append('\n'));
        md.append(quota.skipped().isEmpty() ? "" : "\n");
        if (quota.servers().isEmpty()) {
            return md.append("No server JVM inside a quota ran.\n").toString();
        }
        Table servers = new Table("server JVM", "quota", "/lab/info quota / period µs", "cgroup", "effective CPUs", "processors", "carriers", "GC",
                "warm-up throttled");
        Table phases = new Table("phase", "mode", "ms x concurrency", "req/s", "model: carriers ÷ ms", "measured / model", "throttled",
                "/probe/virtual p50 / p99 ms", "queue model ms", "worker / event-loop / health p99 ms", "verdict");
        for (JudgedQuota.Server server : quota.servers()) {
            MeasuredServer.Info.Container container = server.info().container();
            servers.row(server.jvm(), cpus(server.cpus()), container.cpuQuotaMicros() + " / " + container.cpuPeriodMicros(), container.cgroupVersion(),
                    container.effectiveCpuCount(), server.info().availableProcessors(), server.info().carriers(), container.garbageCollector(),
                    ServerRun.throttled(server.warmUpThrottling()));
            for (JudgedQuota.Phase phase : server.phases()) {
                JudgedPhase figures = phase.figures();
                phases.row(figures.name(), figures.mode() + (phase.carrierBound() ? " (carrier-bound)" : ""), figures.ms() + " x " + figures.concurrency(),
                        Figures.fixed(figures.throughputPerSecond()), Figures.fixed(phase.modelPerSecond()), Figures.ratio(phase.throughputToModel()),
                        ServerRun.throttled(phase.throttling()), Figures.fixed(p(figures, "virtual", false)) + " / " + Figures.fixed(p(figures, "virtual", true)),
                        Figures.fixed(figures.unrelatedWait() == null ? Double.NaN : figures.unrelatedWait().modelMillis()), Figures.fixed(p(figures, "worker", true))
                                + " / " + Figures.fixed(p(figures, "event-loop", true)) + " / " + Figures.fixed(p(figures, "health-live", true)),
                        figures.verdict());
            }
        }
        md.append(servers);
        quota.servers().stream().filter(server -> !server.belowMachine()).forEach(server -> md.append(String.format(Locale.ROOT,
                "\n%s: a quota of %s on this machine's %d processors limits nothing the JVM would not take anyway. HotSpot reports"
                        + " no container then (`java -XshowSettings:system`: \"System not containerized\") and takes the machine's count, so"
                        + " its phases check the carrier model at %d carriers, not that the quota set them; the quota below the machine's does.\n",
                server.jvm(), cpus(server.cpus()), quota.machineProcessors(), server.info().carriers())));
        md.append('\n').append(phases);
        md.append("\nThe models. A carrier-bound load (`native`; `pinned` where synchronized pins) holds a carrier through each")
                .append(" request's wait and uses next to no CPU, so the carriers bound it, not the CPUs: carriers ÷ ms, the finding's")
                .append(" model. `cpu` spins for its ms by the wall clock, so it too runs at most carriers ÷ ms;")
                .append(" but each spinning carrier uses a CPU, together the whole quota, and the rest of the JVM (event loops, probes, the")
                .append(" collector, the compiler) takes its CPU from the same quota: where the two pass it, the group is throttled until the")
                .append(" next period, and a request ends late by what the rest took. `/probe/virtual` waits for a carrier behind the load,")
                .append(" in the queue model: ").append(QueueModel.formula()).append(" (per event loop in the section on the unrelated")
                .append(" request's wait); the other probes wait for no carrier, only for the CPU the quota leaves them.\n");
        return md.toString();
    }

    /** A probe's p99 ({@code p99}) or p50 in a phase; NaN where the phase has no such probe. */
    private static double p(JudgedPhase phase, String probe, boolean p99) {
        JudgedPhase.ProbeFigures figures = phase.probes().get(probe);
        return figures == null ? Double.NaN : p99 ? figures.p99Millis() : figures.p50Millis();
    }

    /** "1 CPU", "2 CPUs", "1.5 CPUs". */
    private static String cpus(double cpus) {
        return ServerRun.cpus(cpus) + (cpus == 1 ? " CPU" : " CPUs");
    }

    /** The k6 suite beside the Java runner, and how the runner's probes came through the event loops. */
    static String k6(K6Comparison k6, List<ProbeReach> reach) {
        StringBuilder md = new StringBuilder("\n## k6 beside the Java runner\n\n");
        if (!k6.ran()) {
            md.append("Not run: ").append(k6.notRun()).append(".\n\n");
        } else if (k6.failure() != null) {
            md.append("`").append(k6.version()).append("` ran and gave no figures: ").append(k6.failure()).append(".\n\n");
        } else {
            md.append(String.format(Locale.ROOT, "`k6 run k6/starvation.js` (%s) on the default server JVM after the runner's phases, the runner's"
                    + " probes stopped: exit %d after %.0f s, %s, %s. Each cell is runner / k6; throughput is over each load's steady state (k6's: the"
                    + " answers inside its window over the window less one request's wait, its VUs all starting at once); the p50 of the probes sent while the load ran; event loops:"
                    + " reached of the server's (answers of each: the runner's over the phase and its drain, k6's over the load window).%n%n", k6.version(), k6.exitCode(), k6.seconds(),
                    k6.thresholdsCrossed().isEmpty() ? "every threshold as expected" : "thresholds crossed: " + String.join(", ", k6.thresholdsCrossed()),
                    k6.droppedIterations() == 0 ? "no probe dropped" : k6.droppedIterations() + " probes dropped"));
            Table rows = new Table("phase", "verdict", "req/s", "/probe/virtual p50 ms", "event loops reached by /probe/virtual");
            k6.rows().forEach(row -> rows.row(row.phase(), row.javaVerdict() + " / " + row.k6Verdict(), Figures.fixed(row.javaPerSecond()) + " / "
                    + (row.k6PerSecond() == null ? "-" : Figures.fixed(row.k6PerSecond())), Figures.fixed(row.javaP50Millis()) + " / "
                    + (row.k6P50Millis() == null ? "-" : Figures.fixed(row.k6P50Millis())), (row.javaReach() == null ? "-" : row.javaReach().describe())
                    + " / " + (row.k6Reach() == null ? "-" : row.k6Reach().describe())));
            md.append(rows).append('\n');
        }
        List<ProbeReach> notEven = reach.stream().filter(r -> !Boolean.TRUE.equals(r.even())).toList();
        md.append(String.format(Locale.ROOT, "The runner's /probe/virtual reached every event loop evenly in %d of %d phases",
                reach.size() - notEven.size(), reach.size()));
        return md.append(notEven.isEmpty() ? ".\n" : "; not in: " + notEven.stream().map(r -> r.phase() + " " + r.describe()
                + (r.why() == null ? "" : " (" + r.why() + ")")).collect(Collectors.joining("; ")) + ".\n").toString();
    }

    /** The fresh JVMs starved at once: each repeat's lazy and eager run, in a row each. */
    static String coldStarts(List<MeasuredColdStart> runs) {
        if (runs == null || runs.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n## A fresh JVM starved at once\n\n");
        md.append("Each repeat starts two fresh server JVMs and starves each at once: ").append(runs.getFirst().mode())
                .append(" work of 1 s from 40 clients, one event loop, 2 permits, the blocked-thread checker at 1 s; one with the problem")
                .append(" writer left to its first use (`lab.faults.lazy-problem-responses=true`, *lazy*), one with it created at start-up (the")
                .append(" default, *eager*). Malformed requests, `/q/health/live` and `/probe/event-loop` arrive, 10 a second each, from the")
                .append(" moment the event loops need the bean. Latencies: the client's slowest / the service's own slowest")
                .append(" (`http_server_requests_seconds_max`), ms. The finding: `lazy-bean-blocks-event-loops`.\n\n");
        Table table = new Table("repeat", "bean", "started in", "blocked-thread warnings", "longest blocked", "/q/health/live max",
                "/probe/event-loop max", "malformed: statuses", "malformed max", "first warning");
        for (MeasuredColdStart run : runs) {
            Map<String, MeasuredColdStart.Probe> probes = run.probes();
            EventLoopsBlocked blocked = run.eventLoopsBlocked();
            table.row(run.repeat(), (run.lazy() ? "lazy" : "eager") + (run.triggered() ? "" : " (never needed)"),
                    String.format(Locale.ROOT, "%.1f s", run.startSeconds()), blocked.warnings(), blocked.any() ? Figures.seconds(blocked.longestMillis()) : "-",
                    latency(probes.get("live")), latency(probes.get("event-loop")), probes.get("malformed").statuses().entrySet().stream()
                            .map(status -> status.getValue() + " x " + status.getKey()).collect(Collectors.joining(", ")),
                    latency(probes.get("malformed")), firstFrames(blocked));
        }
        return md.append(table).toString();
    }

    private static String latency(MeasuredColdStart.Probe probe) {
        return Figures.fixed(probe.maxMillis()) + " / " + Figures.fixed(probe.serverMaxMillis());
    }

    /** The event loop and the top frames it waited in, past the JDK's own (the lock's): ArC's, and the call that needed the bean. */
    private static String firstFrames(EventLoopsBlocked blocked) {
        if (!blocked.any()) {
            return "-";
        }
        List<String> lines = blocked.firstWarning();
        String thread = lines.getFirst().replaceFirst(".*Thread\\[[^\\]]*?(vert\\.x-eventloop-thread-\\d+).*", "$1");
        return thread + ": " + lines.stream().skip(1).filter(line -> line.startsWith("at ") && !line.startsWith("at java.")).limit(FRAMES)
                .map(line -> "`" + line.substring(3).replace("|", "\\|") + "`").collect(Collectors.joining(" ← "));
    }

    /** The alerts and the dashboard on the run's own Prometheus. */
    static String alerts(JudgedPrometheus prometheus) {
        StringBuilder md = new StringBuilder("\n## Alerts and dashboard on a live Prometheus\n\n");
        if (!prometheus.measured()) {
            return md.append("Not measured: ").append(prometheus.note()).append('\n').toString();
        }
        md.append(prometheus.note()).append(String.format(Locale.ROOT, " Prometheus used at most %.0f MB and added %.1f s to the run.%n%n",
                prometheus.peakRssMegabytes(), prometheus.addedSeconds()));
        md.append("![the run over time](" + TimelineChart.FILE + ")\n\n");
        md.append("Detection latency (seconds from a starved phase's start to pending; alerts still active from the phase before not counted):\n\n");
        Table rules = new Table("alert", "for:", "detection latency s (min / median / max)", "onsets");
        for (JudgedPrometheus.Rule rule : prometheus.rules()) {
            List<Double> sorted = rule.detectionSeconds().stream().sorted().toList();
            rules.row(rule.alert(), rule.forSeconds() + " s", sorted.isEmpty() ? "-" : String.format(Locale.ROOT, "%.0f / %.0f / %.0f", sorted.getFirst(),
                    sorted.get(sorted.size() / 2), sorted.getLast()), sorted.size());
        }
        md.append(rules).append("\n### Alerts per phase\n\nSeconds after the phase's load started (pending, firing) and after it ended (resolved); "
                + "'from X': still active from phase X.\n\n");
        List<String> names = prometheus.rules().stream().map(JudgedPrometheus.Rule::alert).toList();
        Table perPhase = new Table(Stream.concat(Stream.of("phase", "verdict"), names.stream()).toList());
        prometheus.alerts().stream().map(JudgedPrometheus.AlertRow::phase).distinct().forEach(phase -> {
            List<JudgedPrometheus.AlertRow> cells = prometheus.alerts().stream().filter(row -> row.phase().equals(phase)).toList();
            List<String> row = new ArrayList<>(List.of(phase, cells.getFirst().verdict()));
            names.forEach(name -> row.add(cells.stream().filter(cell -> cell.alert().equals(name)).findFirst().map(ReportText::alert).orElse("-")));
            perPhase.row(row);
        });
        Table panels = new Table("panel", "queries", "meant for", "data in", "meant for, no data");
        prometheus.panels().forEach(panel -> panels.row(panel.title(), panel.queries().stream().map(q -> "`" + q.replace("|", "\\|") + "`")
                .collect(Collectors.joining("<br>")), panel.meantFor(), panel.phasesWithData().size() + " phases",
                panel.meantButEmpty().isEmpty() ? "-" : String.join(", ", panel.meantButEmpty())));
        return md.append(perPhase).append("\n### Dashboard panels\n\nEach panel's queries as Grafana runs them with the dashboard's defaults, and the "
                + "phases in which they returned a number.\n\n").append(panels).toString();
    }

    private static String alert(JudgedPrometheus.AlertRow row) {
        if (row.pendingAfterStart() == null && row.carriedFrom() == null) {
            return "-";
        }
        return (row.carriedFrom() != null ? "from " + row.carriedFrom() : String.format(Locale.ROOT, "pending %+.0f", row.pendingAfterStart()))
                + (row.firingAfterStart() == null ? "" : String.format(Locale.ROOT, ", firing %+.0f", row.firingAfterStart()))
                + (row.resolvedAfterLoad() == null ? ", active at the end" : String.format(Locale.ROOT, ", resolved %+.0f", row.resolvedAfterLoad()));
    }
}
