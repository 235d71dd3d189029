package io.starvationlab.experiment.results;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.starvationlab.harness.load.ProbeSample;

/**
 * How one probe's answers in a window came through the server's event loops, judged by the plan's rule
 * ({@code probes.leastEventLoopShare}, the rule {@code k6/lib-rules.js} applies to k6's probes): each event
 * loop answers at least {@code leastShare} of its even part (answers ÷ event loops).
 *
 * @param answers      answers per event loop, by the number its thread's name ends with
 * @param eventLoops   the server's event loops ({@code /lab/info})
 * @param leastAnswers what each event loop must answer at least
 * @param even         every event loop answered at least {@code leastAnswers}; null when not judged ({@code why})
 * @param why          why it was not judged: the probes shared one HTTP/2 connection, or nothing answered
 */
public record ProbeReach(String phase, String jvm, Map<String, Long> answers, int eventLoops, double leastAnswers, Boolean even, String why) {

    /** The answers of {@code samples} (those that name an event loop) against the rule. */
    public static ProbeReach of(String phase, String jvm, Collection<ProbeSample> samples, int eventLoops, double leastShare, boolean http2) {
        Map<String, Long> answers = new TreeMap<>();
        samples.stream().filter(s -> s.eventLoop() != null).forEach(s -> answers.merge(String.valueOf(UnrelatedWait.loopNumber(s.eventLoop())), 1L, Long::sum));
        return of(phase, jvm, answers, eventLoops, leastShare, http2 ? "one HTTP/2 connection: one event loop by design" : null);
    }

    /** {@code answers} per event-loop number against the rule; {@code notJudged} says why when it does not apply. */
    public static ProbeReach of(String phase, String jvm, Map<String, Long> answers, int eventLoops, double leastShare, String notJudged) {
        long total = answers.values().stream().mapToLong(Long::longValue).sum();
        double least = eventLoops < 1 ? Double.NaN : leastShare * total / eventLoops;
        String why = notJudged != null ? notJudged : total == 0 ? "no answer named its event loop" : eventLoops < 1 ? "no count of event loops" : null;
        Boolean even = why != null ? null
                : IntStream.range(0, eventLoops).allMatch(loop -> answers.getOrDefault(String.valueOf(loop), 0L) >= least);
        Map<String, Long> sorted = new TreeMap<>(UnrelatedWait.BY_EVENT_LOOP);
        sorted.putAll(answers);
        return new ProbeReach(phase, jvm, Collections.unmodifiableMap(sorted), eventLoops, least, even, why);
    }

    /** How many of the server's event loops answered at least once. */
    public long reached() {
        return IntStream.range(0, eventLoops).filter(loop -> answers.getOrDefault(String.valueOf(loop), 0L) > 0).count();
    }

    /** "4 of 4 (52, 48, 50, 49)": the event loops reached and the answers of each. */
    public String describe() {
        String counts = IntStream.range(0, eventLoops).mapToObj(loop -> String.valueOf(answers.getOrDefault(String.valueOf(loop), 0L)))
                .collect(Collectors.joining(", "));
        return reached() + " of " + eventLoops + " (" + counts + ")" + (Boolean.FALSE.equals(even) ? " UNEVEN" : "");
    }
}
