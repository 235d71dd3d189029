package io.starvationlab.benchmark;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.starvationlab.harness.load.OverloadRun;

/** {@code overload}: ten times the permits of concurrent database work for 60 s. */
final class OverloadBenchmark {

    private OverloadBenchmark() {
    }

    static Map<String, Object> run() {
        OverloadRun.Result run = OverloadRun.run(Duration.ofSeconds(60), Benchmarks.OUT.resolve("logs"));
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("summary", run.summary());
        figures.put("setup", OverloadRun.PERMITS + " permits, acquire timeout " + OverloadRun.ACQUIRE_TIMEOUT.toSeconds()
                + " s, GET /work/unpinned?downstream=db&ms=" + OverloadRun.MS + " from " + run.concurrency() + " clients");
        figures.put("statuses", run.statuses());
        figures.put("slowestMillis", run.slowestMillis());
        figures.put("boundMillis", run.boundMillis());
        figures.put("only200Or503", run.statuses().keySet().stream().allMatch(status -> status == 200 || status == 503));
        figures.put("503sWithoutRetryAfter", run.outcomes().stream().filter(outcome -> outcome.status() == 503 && outcome.retryAfter() == null).count());
        figures.put("idleAfter", run.after().idle());
        figures.put("virtualThreadsBeforeAndAfter", List.of(run.idleVirtualThreads(), run.virtualThreadsAfter()));
        return figures;
    }
}
