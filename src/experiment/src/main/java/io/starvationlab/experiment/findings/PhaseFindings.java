package io.starvationlab.experiment.findings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoublePredicate;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.ProbeDistribution;
import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.harness.plan.StarvationRule;
import io.starvationlab.harness.plan.UntouchedRule;

/** The findings judged on the main plan's phases: published claims about pinning and carriers, and those found here. */
final class PhaseFindings {

    private PhaseFindings() {
    }

    static List<Finding> evaluate(List<JudgedPhase> reports, Map<String, MeasuredServer.Info> servers, StarvationRule rule, UntouchedRule untouched) {
        Map<String, JudgedPhase> byName = reports.stream().collect(Collectors.toMap(JudgedPhase::name, Function.identity(), (a, b) -> a));
        Function<String, Optional<JudgedPhase>> phase = name -> Optional.ofNullable(byName.get(name));
        Optional<JudgedPhase> pinning = phase.apply("pinned-legacy-locking")
                .or(() -> phase.apply("pinned").filter(p -> Boolean.TRUE.equals(servers.get(p.jvm()).synchronizedPins())));
        List<Finding> findings = new ArrayList<>();

        findings.add(pinning.map(p -> new Finding("pinned-throughput-at-carrier-model", "Pinned throughput scales with carriers, not tasks (n / carriers x wait)",
                "pinned ~ carriers / ms, within 15 %",
                String.format(Locale.ROOT, "%s: %.1f/s vs %.1f/s (%s): %.2fx", p.name(), p.throughputPerSecond(), p.modelLimitPerSecond(),
                        p.modelBasis(), p.throughputToModel()),
                Math.abs(p.throughputToModel() - 1) <= 0.15))
                .orElse(missing("pinned-throughput-at-carrier-model", "Pinned throughput scales with carriers, not tasks", "pinned ~ carriers / ms, within 15 %")));

        List<JudgedPhase> holders = new ArrayList<>();
        pinning.ifPresent(holders::add);
        phase.apply("native").ifPresent(holders::add);
        phase.apply("cpu").ifPresent(holders::add);
        findings.add(holders.isEmpty() ? missing("unrelated-request-waits-seconds", "An unrelated trivial task waits seconds while carriers are held", "")
                : new Finding("unrelated-request-waits-seconds", "An unrelated trivial task waits seconds while carriers are held (published: 7.8 s vs 2 ms)",
                        "starved under pinned, native and cpu (" + rule.describe() + ")",
                        holders.stream().map(p -> String.format(Locale.ROOT, "%s %.0fx: %s", p.name(), p.virtualProbeSlowdown(),
                                p.unrelatedWait() == null ? String.format(Locale.ROOT, "p50 %.0f ms", p.probes().get("virtual").p50Millis())
                                        : distribution(p))).collect(Collectors.joining("; ")),
                        holders.size() == 3 && holders.stream().allMatch(p -> JudgedPhase.STARVED.equals(p.verdict()))));

        findings.add(phase.apply("native").map(p -> new Finding(UNTOUCHED_ID, UNTOUCHED, untouched.describe() + ", under native load",
                untouched.probes().stream().map(name -> String.format(Locale.ROOT, "%s %.1f ms", name, figure(untouched, p, name)))
                        .collect(Collectors.joining(", ")),
                untouched.probes().stream().allMatch(name -> untouched.untouched(figure(untouched, p, name)))))
                .orElse(missing(UNTOUCHED_ID, UNTOUCHED, untouched.describe() + ", under native load")));

        findings.add(ratio("reentrant-like-no-lock", "ReentrantLock ~ no lock", "reentrant throughput within 10 % of unpinned", phase.apply("reentrant"),
                phase.apply("unpinned"), r -> Math.abs(r - 1) <= 0.10));
        findings.add(ratio("max-pool-size-does-nothing", "Raising maxPoolSize does nothing", "maxPoolSize=256 within 15 % of pinned",
                phase.apply("pinned-max-pool-256"), pinning, r -> Math.abs(r - 1) <= 0.15));
        findings.add(ratio("parallelism-helps", "Raising parallelism does", "parallelism=16 >= 3x pinned", phase.apply("pinned-parallelism-16"), pinning,
                r -> r >= 3));
        findings.add(ratio("shared-lock-type-irrelevant", "With a shared lock, lock type stops mattering", "pinned/shared within 15 % of reentrant/shared",
                phase.apply("pinned-shared"), phase.apply("reentrant-shared"), r -> Math.abs(r - 1) <= 0.15));
        Optional<JudgedPhase> unpinnedPinned = phase.apply("pinned").filter(p -> !Boolean.TRUE.equals(servers.get(p.jvm()).synchronizedPins()));
        findings.add(unpinnedPinned.isEmpty() ? missing("jep491-synchronized-unpinned", "JDK 24+ fixes synchronized (JEP 491)", "pinned without LockingMode=1 ~ unpinned")
                : ratio("jep491-synchronized-unpinned", "JDK 24+ fixes synchronized (JEP 491)", "pinned without LockingMode=1 within 10 % of unpinned, not starved",
                        unpinnedPinned, phase.apply("unpinned"),
                        r -> Math.abs(r - 1) <= 0.10 && JudgedPhase.NOT_STARVED.equals(unpinnedPinned.get().verdict())));
        findings.add(ratio("virtual-threads-beat-thread-pool", "Virtual threads beat a 200-thread pool on seconds-long waits", "unpinned >= 5x platform (ms=1000, 2000 concurrent)",
                phase.apply("unpinned-1s"), phase.apply("platform-1s"), r -> r >= 5));
        findings.add(ratio("virtual-pollers-collapse", "Found here: from JDK 22 the I/O poller is a virtual thread, so carriers pinned on a socket wait for it",
                "native/db with -Djdk.pollerMode=1 >= 2x native/db with the default pollers",
                phase.apply("native-db-platform-pollers"), phase.apply("native-db"), r -> r >= 2));
        findings.addAll(EventLoopFindings.evaluate(phase));
        findings.add(eventLoopWrites(phase.apply("native-http2-virtual-thread-writes"), phase.apply("native-http2"), byName));
        return findings;
    }

    /** Quarkus' virtual threads write their own answers; the lab's event loop writes them. */
    private static Finding eventLoopWrites(Optional<JudgedPhase> virtualWrites, Optional<JudgedPhase> eventLoopWrites,
            Map<String, JudgedPhase> byName) {
        String id = "event-loop-writes";
        String claim = "Found here: virtual threads that write their own answers (Quarkus' default) stall the event loop under starvation";
        String expected = "one HTTP/2 connection, native load: event-loop probe p99 >= 5x with virtual threads writing than with the event loop"
                + " writing, which stays <= 3x its baseline";
        if (virtualWrites.isEmpty() || eventLoopWrites.isEmpty()) {
            return missing(id, claim, expected);
        }
        JudgedPhase stock = virtualWrites.get();
        JudgedPhase lab = eventLoopWrites.get();
        double stockP99 = stock.probes().get("event-loop").p99Millis();
        double labP99 = lab.probes().get("event-loop").p99Millis();
        double labBaseline = byName.get(JudgedPhase.BASELINE + "@" + lab.jvm()).probes().get("event-loop").p99Millis();
        double ratio = stockP99 / Math.max(labP99, 1);
        double labToBaseline = labP99 / Math.max(labBaseline, 1);
        return new Finding(id, claim, expected, String.format(Locale.ROOT, "event-loop p99 %.0f vs %.0f ms: %.1fx (event loop writing: %.1fx baseline);"
                + " /q/health/live p99 %.0f vs %.0f ms", stockP99, labP99, ratio, labToBaseline,
                stock.probes().get("health-live").p99Millis(), lab.probes().get("health-live").p99Millis()),
                ratio >= 5 && labToBaseline <= 3);
    }

    private static Finding ratio(String id, String claim, String expected, Optional<JudgedPhase> subject, Optional<JudgedPhase> reference,
            DoublePredicate holds) {
        if (subject.isEmpty() || reference.isEmpty()) {
            return missing(id, claim, expected);
        }
        double ratio = subject.get().throughputPerSecond() / reference.get().throughputPerSecond();
        return new Finding(id, claim, expected, String.format(Locale.ROOT, "%s %.1f/s vs %s %s: %s", subject.get().name(),
                subject.get().throughputPerSecond(), reference.get().name(), Figures.perSecond(reference.get().throughputPerSecond()), Figures.ratio(ratio)),
                holds.test(ratio));
    }

    private static final String UNTOUCHED_ID = "off-carrier-endpoints-untouched";
    private static final String UNTOUCHED = "Worker-pool, event-loop and health endpoints are untouched";

    private static double figure(UntouchedRule rule, JudgedPhase phase, String probe) {
        JudgedPhase.ProbeFigures figures = phase.probes().get(probe);
        return rule.figure(figures.p50Millis(), figures.p99Millis());
    }

    private static Finding missing(String id, String claim, String expected) {
        return Finding.notJudged(id, claim, expected, "not measured in this run");
    }

    /** The distribution of the unrelated request's wait in one line. */
    private static String distribution(JudgedPhase phase) {
        ProbeDistribution d = phase.unrelatedWait().measured();
        return String.format(Locale.ROOT, "%s p10 / p50 / p90 / max %s / %s / %s / %s, %s over 3 s (model %s)", phase.name(),
                Figures.seconds(d.p10Millis()), Figures.seconds(d.p50Millis()), Figures.seconds(d.p90Millis()),
                Figures.seconds(d.maxMillis()), Figures.percent(d.overThreeSeconds()), Figures.seconds(phase.unrelatedWait().modelMillis()));
    }
}
