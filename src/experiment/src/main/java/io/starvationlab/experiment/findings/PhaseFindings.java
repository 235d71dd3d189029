package io.starvationlab.experiment.findings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoublePredicate;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.results.JudgedRun;
import io.starvationlab.experiment.results.ProbeDistribution;
import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.harness.ServerJdk;
import io.starvationlab.model.Plan;
import io.starvationlab.model.Prediction;
import io.starvationlab.model.UntouchedRule;

/** The findings judged on the main plan's phases: published claims about pinning and carriers, those found here, and the predictions. */
final class PhaseFindings {

    static final String UPCALL = "io.starvationlab.service.WorkService.callInsideUpcall";
    static final String MONITOR = "io.starvationlab.service.WorkService.callInsideMonitor";
    static final String NATIVE_REASON = "Native or VM frame on stack";

    static final Claim PINNED = new Claim("pinned-throughput-at-carrier-model", "Pinned throughput scales with carriers, not tasks (n / carriers x wait)",
            "pinned ~ carriers / ms, within 15 %");
    static final Claim REENTRANT = new Claim("reentrant-like-no-lock", "ReentrantLock ~ no lock", "reentrant throughput within 10 % of unpinned");
    static final Claim MAX_POOL = new Claim("max-pool-size-does-nothing", "Raising maxPoolSize does nothing", "maxPoolSize=256 within 15 % of pinned");
    static final Claim PARALLELISM = new Claim("parallelism-helps", "Raising parallelism does", "parallelism=16 >= 3x pinned");
    static final Claim SHARED_LOCK = new Claim("shared-lock-type-irrelevant", "With a shared lock, lock type stops mattering",
            "pinned/shared within 15 % of reentrant/shared");
    static final Claim JEP_491 = new Claim("jep491-synchronized-unpinned", "JDK 24+ fixes synchronized (JEP 491)",
            "pinned without LockingMode=1 within 10 % of unpinned, not starved");
    static final Claim THREAD_POOL = new Claim("virtual-threads-beat-thread-pool", "Virtual threads beat a 200-thread pool on seconds-long waits",
            "unpinned >= 5x platform (ms=1000, 2000 concurrent)");
    static final Claim POLLERS = new Claim("virtual-pollers-collapse", "Found here: from JDK 22 the I/O poller is a virtual thread, so carriers pinned on"
            + " a socket wait for it", "native/db with -Djdk.pollerMode=1 >= 2x native/db with the default pollers");
    static final Claim WRITES = new Claim("event-loop-writes", "Found here: virtual threads that write their own answers (Quarkus' default) stall the"
            + " event loop under starvation", "one HTTP/2 connection, native load: event-loop probe p99 >= 5x with virtual threads writing than with"
            + " the event loop writing, which stays <= 3x its baseline");
    static final Claim METER = new Claim("carrier-wait-meter-tells-starved-from-free", "The carrier-wait meter tells starvation from its absence:"
            + " the canary's and the requests' own wait for a carrier are long where work holds the carriers and short where it does not",
            "native, cpu and the pinning phase: canary p99 >= 100 ms and the requests' wait p99 >= half the queue model's wait; unpinned and"
            + " reentrant: canary p99 < 20 ms and the requests' wait p99 < 100 ms");
    static final Claim JFR = new Claim("jfr-names-the-pinning-frame", "JFR names what pins: /lab/pinning's top frame is the upcall under native and"
            + " the monitor under pinning synchronized, one pinned episode per request; nothing where nothing pins", "native: "
            + UPCALL + " (reason \"" + NATIVE_REASON + "\" where JFR names one: JDK 24+), the pinning phase: " + MONITOR
            + ", pinned events within 5 % of the requests; unpinned: none");
    static final Claim PREDICTED = new Claim("phases-as-predicted", "Every phase starves where the JDK's documented behaviour says its mode holds the"
            + " carriers, and only there", "starved when the prediction for its mode, downstream, JDK and flags is starves or collapses; not starved when free");

    private PhaseFindings() {
    }

    /** The findings on {@code run}'s phases, then {@link EventLoopFindings}'; the predictions' last. */
    static List<Finding> evaluate(JudgedRun run, Plan plan) {
        Function<String, Optional<JudgedPhase>> phase = run::phase;
        Map<String, MeasuredServer.Info> servers = run.servers();
        Optional<JudgedPhase> pinning = phase.apply("pinned-legacy-locking")
                .or(() -> phase.apply("pinned").filter(p -> Boolean.TRUE.equals(servers.get(p.jvm()).synchronizedPins())));
        List<Finding> findings = new ArrayList<>();
        findings.add(pinning.map(p -> PINNED.judged(String.format(Locale.ROOT, "%s: %.1f/s vs %.1f/s (%s): %.2fx", p.name(), p.throughputPerSecond(),
                p.modelLimitPerSecond(), p.modelBasis(), p.throughputToModel()), Math.abs(p.throughputToModel() - 1) <= 0.15)).orElse(PINNED.notMeasured()));
        findings.add(unrelatedWaits(pinning, phase, plan));
        UntouchedRule untouched = plan.untouched();
        Claim untouchedClaim = new Claim("off-carrier-endpoints-untouched", "Worker-pool, event-loop and health endpoints are untouched",
                untouched.describe() + ", under native load");
        findings.add(phase.apply("native").map(p -> untouchedClaim.judged(untouched.probes().stream().map(name -> String.format(Locale.ROOT,
                "%s %.1f ms", name, figure(untouched, p, name))).collect(Collectors.joining(", ")),
                untouched.probes().stream().allMatch(name -> untouched.untouched(figure(untouched, p, name))))).orElse(untouchedClaim.notMeasured()));
        findings.add(ratio(REENTRANT, phase.apply("reentrant"), phase.apply("unpinned"), r -> Math.abs(r - 1) <= 0.10));
        findings.add(ratio(MAX_POOL, phase.apply("pinned-max-pool-256"), pinning, r -> Math.abs(r - 1) <= 0.15));
        findings.add(ratio(PARALLELISM, phase.apply("pinned-parallelism-16"), pinning, r -> r >= 3));
        findings.add(ratio(SHARED_LOCK, phase.apply("pinned-shared"), phase.apply("reentrant-shared"), r -> Math.abs(r - 1) <= 0.15));
        Optional<JudgedPhase> unpinnedPinned = phase.apply("pinned").filter(p -> !Boolean.TRUE.equals(servers.get(p.jvm()).synchronizedPins()));
        findings.add(ratio(JEP_491, unpinnedPinned, phase.apply("unpinned"),
                r -> Math.abs(r - 1) <= 0.10 && JudgedPhase.NOT_STARVED.equals(unpinnedPinned.get().verdict())));
        findings.add(ratio(THREAD_POOL, phase.apply("unpinned-1s"), phase.apply("platform-1s"), r -> r >= 5));
        findings.add(ratio(POLLERS, phase.apply("native-db-platform-pollers"), phase.apply("native-db"), r -> r >= 2));
        findings.add(meter(List.of(phase.apply("native"), phase.apply("cpu"), pinning), List.of(phase.apply("unpinned"), phase.apply("reentrant"))));
        findings.add(pinningFrames(phase.apply("native"), pinning, phase.apply("unpinned"), servers));
        findings.addAll(EventLoopFindings.evaluate(phase));
        findings.add(eventLoopWrites(phase.apply("native-http2-virtual-thread-writes"), phase.apply("native-http2"), phase));
        findings.add(predicted(run.phases(), servers, plan));
        return findings;
    }

    /** An unrelated trivial task waits seconds while the carriers are held: pinned, native and cpu starve. */
    private static Finding unrelatedWaits(Optional<JudgedPhase> pinning, Function<String, Optional<JudgedPhase>> phase, Plan plan) {
        Claim claim = new Claim("unrelated-request-waits-seconds", "An unrelated trivial task waits seconds while carriers are held (published: 7.8 s"
                + " vs 2 ms)", "starved under pinned, native and cpu (" + plan.starved().describe() + ")");
        List<JudgedPhase> holders = Stream.of(pinning, phase.apply("native"), phase.apply("cpu")).flatMap(Optional::stream).toList();
        return holders.isEmpty() ? claim.notMeasured() : claim.judged(holders.stream().map(p -> String.format(Locale.ROOT, "%s %.0fx: %s", p.name(),
                p.virtualProbeSlowdown(), p.unrelatedWait() == null ? String.format(Locale.ROOT, "p50 %.0f ms", p.probes().get("virtual").p50Millis())
                        : distribution(p))).collect(Collectors.joining("; ")),
                holders.size() == 3 && holders.stream().allMatch(p -> JudgedPhase.STARVED.equals(p.verdict())));
    }

    /** The canary and the requests' own wait, in the phases that hold the carriers and in those that do not. */
    static Finding meter(List<Optional<JudgedPhase>> holding, List<Optional<JudgedPhase>> free) {
        if (Stream.concat(holding.stream(), free.stream()).anyMatch(Optional::isEmpty)) {
            return METER.notMeasured();
        }
        Tally tally = new Tally().startingWith("p99: ");
        for (Optional<JudgedPhase> phase : holding) {
            JudgedPhase p = phase.get();
            double model = p.unrelatedWait() == null ? 1000 : p.unrelatedWait().modelMillis();
            tally.add(String.format(Locale.ROOT, "%s canary %.0f ms, requests %.0f ms (model %.0f ms)", p.name(), p.canaryP99Millis(),
                    p.requestWaitP99Millis(), model), p.canaryP99Millis() >= 100 && p.requestWaitP99Millis() >= model / 2);
        }
        for (Optional<JudgedPhase> phase : free) {
            JudgedPhase p = phase.get();
            tally.add(String.format(Locale.ROOT, "%s canary %.1f ms, requests %.1f ms", p.name(), p.canaryP99Millis(), p.requestWaitP99Millis()),
                    p.canaryP99Millis() < 20 && p.requestWaitP99Millis() < 100);
        }
        return tally.judged(METER, "; ");
    }

    /** What JFR's jdk.VirtualThreadPinned events, grouped by /lab/pinning, name in each phase. */
    static Finding pinningFrames(Optional<JudgedPhase> nativeFrame, Optional<JudgedPhase> monitor, Optional<JudgedPhase> unpinned,
            Map<String, MeasuredServer.Info> servers) {
        if (nativeFrame.isEmpty() || monitor.isEmpty() || unpinned.isEmpty()) {
            return JFR.notMeasured();
        }
        JudgedPhase n = nativeFrame.get();
        JudgedPhase m = monitor.get();
        boolean namesReason = new ServerJdk(servers.get(n.jvm()).feature()).namesPinnedReason();
        boolean holds = UPCALL.equals(n.topPinnedFrame()) && (!namesReason || NATIVE_REASON.equals(n.topPinnedReason())) && MONITOR.equals(m.topPinnedFrame())
                && Stream.of(n, m).allMatch(p -> Math.abs(p.pinnedEvents() - p.requests()) <= 0.05 * p.requests())
                && unpinned.get().pinnedEvents() == 0;
        return JFR.judged(Stream.of(n, m, unpinned.get()).map(p -> String.format(Locale.ROOT, "%s: %d pinned events for %d requests, top %s%s",
                p.name(), p.pinnedEvents(), p.requests(), p.topPinnedFrame(), p.topPinnedReason() == null ? "" : " (" + p.topPinnedReason() + ")"))
                .collect(Collectors.joining("; ")), holds);
    }

    /** Quarkus' virtual threads write their own answers; the lab's event loop writes them. */
    private static Finding eventLoopWrites(Optional<JudgedPhase> virtualWrites, Optional<JudgedPhase> eventLoopWrites,
            Function<String, Optional<JudgedPhase>> phase) {
        if (virtualWrites.isEmpty() || eventLoopWrites.isEmpty()) {
            return WRITES.notMeasured();
        }
        JudgedPhase stock = virtualWrites.get();
        JudgedPhase lab = eventLoopWrites.get();
        double stockP99 = stock.probes().get("event-loop").p99Millis();
        double labP99 = lab.probes().get("event-loop").p99Millis();
        double ratio = stockP99 / Math.max(labP99, 1);
        double labToBaseline = labP99 / Math.max(phase.apply(JudgedPhase.BASELINE + "@" + lab.jvm()).orElseThrow().probes().get("event-loop").p99Millis(), 1);
        return WRITES.judged(String.format(Locale.ROOT, "event-loop p99 %.0f vs %.0f ms: %.1fx (event loop writing: %.1fx baseline);"
                + " /q/health/live p99 %.0f vs %.0f ms", stockP99, labP99, ratio, labToBaseline, stock.probes().get("health-live").p99Millis(),
                lab.probes().get("health-live").p99Millis()), ratio >= 5 && labToBaseline <= 3);
    }

    /** Each phase of the main run starved exactly where its mode, downstream and server JVM predict it ({@link Prediction}). */
    private static Finding predicted(List<JudgedPhase> phases, Map<String, MeasuredServer.Info> servers, Plan plan) {
        List<String> agree = new ArrayList<>();
        List<String> differ = new ArrayList<>();
        for (JudgedPhase phase : phases) {
            Plan.Jvm jvm = plan.jvms().get(phase.jvm());
            MeasuredServer.Info server = servers.get(phase.jvm());
            if (!phase.isBaseline() && jvm != null && server != null) {
                Prediction prediction = Prediction.of(server.feature(), phase.mode(), phase.downstream(), jvm.flags(), jvm.properties());
                (JudgedPhase.STARVED.equals(phase.verdict()) == prediction.outcome().starved() ? agree : differ).add(phase.name() + " "
                        + phase.verdict() + " (predicted " + prediction.outcome().label() + ": " + prediction.why() + ")");
            }
        }
        if (agree.isEmpty() && differ.isEmpty()) {
            return PREDICTED.notJudged("no phase measured");
        }
        return PREDICTED.judged(differ.isEmpty() ? agree.size() + " of " + agree.size() + " phases as predicted"
                : differ.size() + " of " + (agree.size() + differ.size()) + " differ: " + String.join("; ", differ), differ.isEmpty());
    }

    private static Finding ratio(Claim claim, Optional<JudgedPhase> subject, Optional<JudgedPhase> reference, DoublePredicate holds) {
        if (subject.isEmpty() || reference.isEmpty()) {
            return claim.notMeasured();
        }
        double ratio = subject.get().throughputPerSecond() / reference.get().throughputPerSecond();
        return claim.judged(String.format(Locale.ROOT, "%s %.1f/s vs %s %s: %s", subject.get().name(), subject.get().throughputPerSecond(),
                reference.get().name(), Figures.perSecond(reference.get().throughputPerSecond()), Figures.ratio(ratio)), holds.test(ratio));
    }

    private static double figure(UntouchedRule rule, JudgedPhase phase, String probe) {
        JudgedPhase.ProbeFigures figures = phase.probes().get(probe);
        return rule.figure(figures.p50Millis(), figures.p99Millis());
    }

    /** The distribution of the unrelated request's wait in one line. */
    private static String distribution(JudgedPhase phase) {
        ProbeDistribution d = phase.unrelatedWait().measured();
        return String.format(Locale.ROOT, "%s p10 / p50 / p90 / max %s / %s / %s / %s, %s over 3 s (model %s)", phase.name(),
                Figures.seconds(d.p10Millis()), Figures.seconds(d.p50Millis()), Figures.seconds(d.p90Millis()),
                Figures.seconds(d.maxMillis()), Figures.percent(d.overThreeSeconds()), Figures.seconds(phase.unrelatedWait().modelMillis()));
    }
}
