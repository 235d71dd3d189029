package io.starvationlab.harness.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.starvationlab.harness.Gauges;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Machine;
import io.starvationlab.harness.ThreadDump;

/**
 * Ten times more concurrent {@code unpinned}/{@code db} requests than permits, for a while: the
 * scenario behind the overload test (short) and the overload benchmark (60 s).
 */
public final class OverloadRun {

    public static final int PERMITS = 50;
    public static final int MS = 1000;
    public static final Duration ACQUIRE_TIMEOUT = Duration.ofSeconds(2);

    /**
     * @param boundMillis     ms + acquire timeout + 5 s: no request may take longer
     * @param after           the resource gauges once the load stopped (awaited up to 5 s)
     * @param virtualThreads  virtual threads before the load and after it
     */
    public record Result(Duration length, int concurrency, Map<Integer, Long> statuses, long slowestMillis, long boundMillis,
            List<ClosedLoad.Outcome> outcomes, Gauges after, int idleVirtualThreads, int virtualThreadsAfter) {

        public String summary() {
            return String.format("overload %d s, %d concurrent: %s, slowest %d ms (bound %d ms), after: %s, virtual threads %d -> %d",
                    length.toSeconds(), concurrency, statuses, slowestMillis, boundMillis, after, idleVirtualThreads, virtualThreadsAfter);
        }
    }

    private OverloadRun() {
    }

    public static Result run(Duration length, Path logs) {
        Map<String, String> settings = Map.of("lab.downstream.permits", String.valueOf(PERMITS),
                "lab.downstream.acquire-timeout", ACQUIRE_TIMEOUT.toMillis() + "ms");
        try (LabServer server = LabServer.start(Jdks.current(), List.of(), settings, logs, "overload")) {
            LabClient lab = new LabClient(server.baseUri());
            // one call first: from JDK 22 the I/O pollers are virtual threads, started by the first socket wait;
            // a 50 ms query makes its read wait (with 1 ms the answer could be there already, no poller started,
            // and the idle count 0 instead of 5)
            lab.get("/work/unpinned?downstream=db&ms=50");
            int idle = ThreadDump.count(server.pid()).virtualThreads();
            List<ClosedLoad.Outcome> outcomes;
            try (ClosedLoad load = ClosedLoad.startKeepingEach(server.uri("/work/unpinned?downstream=db&ms=" + MS), 10 * PERMITS, Duration.ofSeconds(60))) {
                Machine.pause(length);
                outcomes = load.stop(Duration.ofSeconds(30)).outcomes();
            }
            Gauges after = Gauges.awaitIdle(lab, Duration.ofSeconds(5));
            int virtualAfter = ThreadDump.count(server.pid()).virtualThreads();
            Map<Integer, Long> statuses = outcomes.stream().collect(Collectors.groupingBy(ClosedLoad.Outcome::status, Collectors.counting()));
            return new Result(length, 10 * PERMITS, statuses, outcomes.stream().mapToLong(ClosedLoad.Outcome::millis).max().orElse(0),
                    MS + ACQUIRE_TIMEOUT.toMillis() + 5_000, outcomes, after, idle, virtualAfter);
        }
    }
}
