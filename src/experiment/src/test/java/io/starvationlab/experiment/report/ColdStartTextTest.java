package io.starvationlab.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.starvationlab.experiment.run.ColdStartRecord;
import io.starvationlab.experiment.run.EventLoopsBlocked;

/** The report's rows of the cold starts: one per run, the first warning's event loop and the frames it waited in, past the JDK's. */
class ColdStartTextTest {

    @Test
    void shouldWriteARowPerRunWithWhereTheEventLoopWaited() {
        EventLoopsBlocked stall = new EventLoopsBlocked(7, 7_600, List.of(
                "WARN [io.ver.cor.imp.BlockedThreadChecker] Thread Thread[#45,vert.x-eventloop-thread-0,5,main] has been blocked for 1100 ms",
                "io.vertx.core.VertxException: Thread blocked", "at java.base/java.util.concurrent.locks.ReentrantLock.lock(ReentrantLock.java:322)",
                "at io.quarkus.arc.impl.ContextInstances.computeIfAbsent(Unknown Source)", "at io.starvationlab.rest.ProblemResponses_ClientProxy.end(Unknown Source)",
                "at io.starvationlab.rest.WorkInput.read(WorkInput.java:57)"));
        Map<String, ColdStartRecord.Probe> probes = Map.of("malformed", new ColdStartRecord.Probe(60, Map.of(400, 60L), 7_812, 12.5),
                "live", new ColdStartRecord.Probe(60, Map.of(200, 60L), 7_900, 1.2), "event-loop", new ColdStartRecord.Probe(60, Map.of(200, 60L), 7_850, 0.8));
        String md = ColdStartText.markdown(List.of(new ColdStartRecord(1, true, "cold-start-lazy-1", "native", 5.3, true, stall, probes),
                new ColdStartRecord(1, false, "cold-start-eager-1", "native", 5.1, true, new EventLoopsBlocked(0, 0, null), probes)));
        assertThat(md).contains("## A fresh JVM starved at once", "native work of 1 s",
                "| 1 | lazy | 5.3 s | 7 | 7.60 s | 7900 / 1.2 | 7850 / 0.8 | 60 x 400 | 7812 / 12.5 | vert.x-eventloop-thread-0: "
                        + "`io.quarkus.arc.impl.ContextInstances.computeIfAbsent(Unknown Source)` ← `io.starvationlab.rest.ProblemResponses_ClientProxy.end(Unknown Source)`"
                        + " ← `io.starvationlab.rest.WorkInput.read(WorkInput.java:57)` |",
                "| 1 | eager | 5.1 s | 0 | - |");
        assertThat(ColdStartText.markdown(List.of())).isEmpty();
    }
}
