package io.starvationlab.experiment.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.run.ColdStartRecord;
import io.starvationlab.experiment.run.EventLoopsBlocked;

/** The report's section on the fresh JVMs starved at once: each repeat's lazy and eager run, in a row each. */
final class ColdStartText {

    /** The frames of a blocked event loop's first warning shown in the table: where it waited. */
    private static final int FRAMES = 3;

    private ColdStartText() {
    }

    static String markdown(List<ColdStartRecord> runs) {
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
        md.append("| repeat | bean | started in | blocked-thread warnings | longest blocked | /q/health/live max | /probe/event-loop max |")
                .append(" malformed: statuses | malformed max | first warning |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (ColdStartRecord run : runs) {
            Map<String, ColdStartRecord.Probe> probes = run.probes();
            EventLoopsBlocked blocked = run.eventLoopsBlocked();
            md.append("| ").append(run.repeat()).append(" | ").append(run.lazy() ? "lazy" : "eager")
                    .append(run.triggered() ? "" : " (never needed)").append(" | ")
                    .append(String.format(Locale.ROOT, "%.1f s", run.startSeconds())).append(" | ").append(blocked.warnings()).append(" | ")
                    .append(blocked.any() ? Figures.seconds(blocked.longestMillis()) : "-").append(" | ")
                    .append(latency(probes.get("live"))).append(" | ").append(latency(probes.get("event-loop"))).append(" | ")
                    .append(statuses(probes.get("malformed"))).append(" | ").append(latency(probes.get("malformed"))).append(" | ")
                    .append(firstFrames(blocked)).append(" |\n");
        }
        return md.toString();
    }

    private static String latency(ColdStartRecord.Probe probe) {
        return Figures.fixed(probe.maxMillis()) + " / " + Figures.fixed(probe.serverMaxMillis());
    }

    private static String statuses(ColdStartRecord.Probe probe) {
        return probe.statuses().entrySet().stream().map(status -> status.getValue() + " x " + status.getKey()).collect(Collectors.joining(", "));
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
}
