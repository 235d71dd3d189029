package io.starvationlab.experiment.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.load.ColdStartRace;
import io.starvationlab.harness.load.Latencies;
import io.starvationlab.harness.plan.ColdStart;

/**
 * The cold-start runs: for each repeat, a fresh server JVM with the bean created at start-up and one with it left
 * lazy, each starved at once by {@link ColdStartRace}. Not a kind of phase: nothing runs before the load,
 * neither warm-up nor baseline, since what a fresh JVM creates on first use is what is measured.
 */
public final class ColdStartRun {

    /** The probes' URIs as the service's metrics name them; the malformed requests by their status alone. */
    private static final Map<String, String> SERVER_URIS = Map.of("live", "/q/health/live", "event-loop", "/probe/event-loop");

    private ColdStartRun() {
    }

    public static List<MeasuredColdStart> run(ColdStart plan, boolean quick, Jdks.Jdk jdk, Path logs, Consumer<String> progress) {
        List<MeasuredColdStart> records = new ArrayList<>();
        Duration starved = plan.starved(quick);
        int repeats = plan.repeats(quick);
        progress.accept(String.format(Locale.ROOT, "Cold start: %d x a fresh JVM with the bean eager and one with it lazy, starved %.0f s each",
                repeats, starved.toMillis() / 1000.0));
        for (int repeat = 1; repeat <= repeats; repeat++) {
            for (boolean lazy : List.of(false, true)) {
                MeasuredColdStart record = once(repeat, lazy, jdk, starved, logs);
                records.add(record);
                progress.accept("  " + describe(record));
            }
        }
        return List.copyOf(records);
    }

    private static MeasuredColdStart once(int repeat, boolean lazy, Jdks.Jdk jdk, Duration starved, Path logs) {
        String name = ColdStart.NAME + "-" + (lazy ? "lazy" : "eager") + "-" + repeat;
        long started = System.nanoTime();
        try (LabServer server = LabServer.start(jdk, List.of(), ColdStartRace.properties(lazy), logs, name)) {
            double startSeconds = (System.nanoTime() - started) / 1e9;
            String mode = new LabClient(server.baseUri()).info().path("nativePinAvailable").asBoolean() ? "native" : "pinned";
            ColdStartRace.Starved run = ColdStartRace.starve(server, mode, lazy, starved, () -> { });
            Map<String, MeasuredColdStart.Probe> probes = new LinkedHashMap<>();
            for (String probe : ColdStartRace.PROBES.keySet().stream().sorted().toList()) {
                Latencies latencies = run.window().latencies().get(probe);
                double serverMax = "malformed".equals(probe) ? run.serverMaxMillis("400", null) : run.serverMaxMillis("200", SERVER_URIS.get(probe));
                probes.put(probe, new MeasuredColdStart.Probe(latencies.count(), latencies.statuses(), latencies.maxMillis(), serverMax));
            }
            return new MeasuredColdStart(repeat, lazy, name, mode, startSeconds, run.triggered(), EventLoopsBlocked.of(run.blocked()), probes);
        }
    }

    private static String describe(MeasuredColdStart record) {
        EventLoopsBlocked blocked = record.eventLoopsBlocked();
        MeasuredColdStart.Probe malformed = record.probe("malformed");
        return String.format(Locale.ROOT, "%s (started in %.1f s%s): %d blocked-thread warnings, longest %d ms; live max %.0f ms (server %.1f),"
                + " event-loop max %.0f ms (server %.1f), malformed %s max %.0f ms (server %.1f)", record.server(), record.startSeconds(),
                record.triggered() ? "" : ", the event loops never needed the bean", blocked.warnings(), blocked.longestMillis(),
                record.probe("live").maxMillis(), record.probe("live").serverMaxMillis(), record.probe("event-loop").maxMillis(),
                record.probe("event-loop").serverMaxMillis(), malformed.statuses(), malformed.maxMillis(), malformed.serverMaxMillis());
    }
}
