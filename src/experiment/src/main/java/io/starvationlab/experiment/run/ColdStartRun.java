package io.starvationlab.experiment.run;

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
import io.starvationlab.model.ColdStart;

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

    /** One fresh server JVM of the runs: its repeat, whether the bean is lazy, and the JVM. */
    record Turn(int repeat, boolean lazy, ServerRun.Spec spec) {
    }

    /** Plans the runs' fresh JVMs into {@code starts}: per repeat the eager one, then the lazy one. */
    static List<Turn> plan(ColdStart plan, boolean quick, Jdks.Jdk jdk, ServerStarts starts) {
        List<Turn> turns = new ArrayList<>();
        for (int repeat = 1; repeat <= plan.repeats(quick); repeat++) {
            for (boolean lazy : List.of(false, true)) {
                List<String> properties = ColdStartRace.properties(lazy).entrySet().stream().map(p -> "-D" + p.getKey() + "=" + p.getValue()).toList();
                ServerRun.Spec spec = new ServerRun.Spec(ColdStart.NAME + "-" + (lazy ? "lazy" : "eager") + "-" + repeat,
                        "a fresh JVM starved at once", jdk, properties, false, null);
                starts.plan(spec);
                turns.add(new Turn(repeat, lazy, spec));
            }
        }
        return List.copyOf(turns);
    }

    /**
     * Starves each planned fresh JVM at once. Another JVM may start beside a lazy run, whose judged figures (an event loop
     * blocked for seconds, every malformed request refused) the holders' hold sets, but not beside an eager one, whose
     * answers are judged by their latency.
     */
    static List<MeasuredColdStart> run(ColdStart plan, boolean quick, List<Turn> turns, ServerStarts starts, RunClock clock, Consumer<String> progress) {
        List<MeasuredColdStart> records = new ArrayList<>();
        Duration starved = plan.starved(quick);
        progress.accept(String.format(Locale.ROOT, "Cold start: %d x a fresh JVM with the bean eager and one with it lazy, starved %.0f s each",
                plan.repeats(quick), starved.toMillis() / 1000.0));
        for (Turn turn : turns) {
            LabServer server = clock.time(RunClock.STARTS, () -> {
                if (turn.lazy()) {
                    starts.open(ColdStartRace.HOLD);
                } else {
                    starts.settle();
                }
                return starts.take(turn.spec());
            });
            clock.time(RunClock.COLD_STARTS, () -> {
                try {
                    MeasuredColdStart record = once(turn, server, starts.seconds(turn.spec().name()), starved);
                    records.add(record);
                    progress.accept(String.format(Locale.ROOT, "  %s (started in %.1f s%s): %s", record.server(), record.startSeconds(),
                            record.triggered() ? "" : ", the event loops never needed the bean", record.describe()));
                } finally {
                    starts.done(turn.spec());
                }
            });
        }
        return List.copyOf(records);
    }

    private static MeasuredColdStart once(Turn turn, LabServer server, double startSeconds, Duration starved) {
        String mode = new LabClient(server.baseUri()).info().path("nativePinAvailable").asBoolean() ? "native" : "pinned";
        ColdStartRace.Starved run = ColdStartRace.starve(server, mode, turn.lazy(), starved, () -> { });
        Map<String, MeasuredColdStart.Probe> probes = new LinkedHashMap<>();
        for (String probe : ColdStartRace.PROBES.keySet().stream().sorted().toList()) {
            Latencies latencies = run.window().latencies().get(probe);
            double serverMax = "malformed".equals(probe) ? run.serverMaxMillis("400", null) : run.serverMaxMillis("200", SERVER_URIS.get(probe));
            probes.put(probe, new MeasuredColdStart.Probe(latencies.count(), latencies.statuses(), latencies.maxMillis(), serverMax));
        }
        return new MeasuredColdStart(turn.repeat(), turn.lazy(), turn.spec().name(), mode, startSeconds, run.triggered(),
                EventLoopsBlocked.of(run.blocked()), probes);
    }
}
