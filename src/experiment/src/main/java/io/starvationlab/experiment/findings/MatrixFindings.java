package io.starvationlab.experiment.findings;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.JudgedMatrix;
import io.starvationlab.experiment.results.JudgedPhase;
import io.starvationlab.experiment.run.MeasuredServer;
import io.starvationlab.model.Prediction;
import io.starvationlab.model.StarvationRule;

/**
 * The findings judged on the JDK matrix. One fails when anything measured contradicts it; it holds only
 * when everything it needs was measured; otherwise (a JDK not found, quick mode) it is not judged
 * ({@code holds} null) and says what is missing.
 */
final class MatrixFindings {

    static final Claim JDK21_PINS = new Claim("matrix-jdk21-synchronized-pins", "JDK 21 synchronized pins; JDK 25, 26 and 27 do not (JEP 491)",
            "pinned on 21 within 15 % of the carrier model and starved; on 25, 26, 27 within 10 % of unpinned and not starved");
    static final Claim REENTRANT = new Claim("matrix-reentrant-never-starves", "ReentrantLock never starves, on any JDK",
            "reentrant not starved on every JDK of the matrix");
    static final Claim NO_FLAG = new Claim("matrix-no-flag-pins-from-26", "From JDK 26 no flag makes synchronized pin: -XX:LockingMode=1 is ignored"
            + " (26) or refused (27)", "on each JDK 26+ the JVM's own warning or refusal captured, and where it starts, /lab/info synchronizedPins false"
            + " and pinned-legacy-locking not starved");
    static final Claim POLLERS = new Claim("matrix-pinned-socket-read", "Found here: a carrier pinned on a socket read follows the carrier model on"
            + " JDK 21 and collapses on 22+ unless -Djdk.pollerMode=1", "pinned-db on 21 starved at the carrier model, not under half of it (the"
            + " database's round trip adds to each call); native-db on 22+ under half of it, and native-db with jdk.pollerMode=1 at least 2x native-db");
    static final Claim PREDICTED = new Claim("matrix-as-predicted", "Every cell of the JDK matrix does what the JDK's documented behaviour predicts",
            "each measured cell's outcome (starves, collapses, free, 501, refused) is its prediction");

    private MatrixFindings() {
    }

    static List<Finding> evaluate(JudgedMatrix matrix, StarvationRule rule) {
        return List.of(jdk21SynchronizedPins(matrix), reentrantNeverStarves(matrix), noFlagBringsPinningBackFrom26(matrix),
                nativeAndCpuStarveEverywhere(matrix, rule), pollers(matrix), predicted(matrix));
    }

    /** Seed: JDK 21 synchronized pins at the carrier model; 25, 26 and 27 run it like unpinned. */
    static Finding jdk21SynchronizedPins(JudgedMatrix matrix) {
        Optional<JudgedPhase> on21 = figures(matrix, 21, "pinned");
        if (on21.isEmpty()) {
            return missing(JDK21_PINS, matrix);
        }
        JudgedPhase pinned21 = on21.get();
        Tally tally = new Tally().add(String.format(Locale.ROOT, "21: %.1f/s vs %.1f/s (%s) %s, %s", pinned21.throughputPerSecond(),
                pinned21.modelLimitPerSecond(), pinned21.modelBasis(), Figures.ratio(pinned21.throughputToModel()), verdict(pinned21)),
                Math.abs(pinned21.throughputToModel() - 1) <= 0.15 && JudgedPhase.STARVED.equals(pinned21.verdict()));
        for (int jdk : List.of(25, 26, 27)) {
            Optional<JudgedPhase> pinned = figures(matrix, jdk, "pinned");
            Optional<JudgedPhase> unpinned = figures(matrix, jdk, "unpinned");
            if (pinned.isEmpty() || unpinned.isEmpty()) {
                tally.add(jdk + ": not measured").missing();
                continue;
            }
            double ratio = pinned.get().throughputPerSecond() / unpinned.get().throughputPerSecond();
            tally.add(String.format(Locale.ROOT, "%d: %.1f/s vs unpinned %s %s, %s", jdk, pinned.get().throughputPerSecond(),
                    Figures.perSecond(unpinned.get().throughputPerSecond()), Figures.ratio(ratio), verdict(pinned.get())),
                    Math.abs(ratio - 1) <= 0.10 && JudgedPhase.NOT_STARVED.equals(pinned.get().verdict()));
        }
        return tally.judged(JDK21_PINS, "; ");
    }

    static Finding reentrantNeverStarves(JudgedMatrix matrix) {
        List<JudgedMatrix.Cell> cells = matrix.cells().stream().filter(cell -> cell.cell().equals("reentrant") && cell.figures() != null).toList();
        if (cells.isEmpty()) {
            return missing(REENTRANT, matrix);
        }
        Tally tally = new Tally();
        cells.forEach(cell -> tally.add(String.format(Locale.ROOT, "%d: %.1f/s %s", cell.jdk(), cell.figures().throughputPerSecond(),
                verdict(cell.figures())), JudgedPhase.NOT_STARVED.equals(cell.figures().verdict())));
        return notMeasured(matrix, cells, tally).judged(REENTRANT, "; ");
    }

    /** From 26 LockingMode is gone: ignored with a warning on 26, unknown after; synchronized stays unpinned. */
    static Finding noFlagBringsPinningBackFrom26(JudgedMatrix matrix) {
        List<JudgedMatrix.Column> columns = matrix.columns().stream().filter(column -> column.feature() >= 26 && "measured".equals(column.status())).toList();
        if (columns.isEmpty()) {
            return missing(NO_FLAG, matrix);
        }
        Tally tally = new Tally();
        tally.need(columns.size() == matrix.columns().stream().filter(column -> column.feature() >= 26).count());
        for (JudgedMatrix.Column column : columns) {
            Optional<JudgedMatrix.Attempt> attempt = column.attempts().stream().filter(a -> a.flags().contains("-XX:LockingMode=1")).findFirst();
            if (attempt.isEmpty()) {
                tally.add(column.feature() + ": not attempted").missing();
                continue;
            }
            String says = attempt.get().jvmSays().isEmpty() ? "(the JVM said nothing)" : "\"" + String.join(" / ", attempt.get().jvmSays()) + "\"";
            if (!attempt.get().started()) {
                tally.add(column.feature() + ": refused to start, " + says, !attempt.get().jvmSays().isEmpty());
                continue;
            }
            Optional<MeasuredServer.Info> server = column.servers().stream().filter(s -> s.jvm().endsWith("-" + attempt.get().jvm())).findFirst();
            Optional<JudgedPhase> pinned = figures(matrix, column.feature(), "pinned-legacy-locking");
            boolean pins = server.map(s -> !Boolean.FALSE.equals(s.synchronizedPins())).orElse(true);
            tally.need(pinned.isPresent());
            tally.add(String.format(Locale.ROOT, "%d: started, %s; synchronizedPins %s; pinned %s", column.feature(), says,
                    server.map(MeasuredServer.Info::synchronizedPins).orElse(null),
                    pinned.map(p -> String.format(Locale.ROOT, "%.1f/s %s", p.throughputPerSecond(), verdict(p))).orElse("not measured")),
                    !attempt.get().jvmSays().isEmpty() && !pins && pinned.map(p -> JudgedPhase.NOT_STARVED.equals(p.verdict())).orElse(true));
        }
        return tally.judged(NO_FLAG, "; ");
    }

    static Finding nativeAndCpuStarveEverywhere(JudgedMatrix matrix, StarvationRule rule) {
        Claim claim = new Claim("matrix-native-and-cpu-starve", "Native frames and CPU work starve on every JDK that has them",
                "native (JDK 22+; 501 on 21) and cpu starved on every JDK of the matrix (" + rule.describe() + ")");
        List<JudgedMatrix.Cell> cells = matrix.cells().stream()
                .filter(cell -> ("native".equals(cell.cell()) || "cpu".equals(cell.cell())) && cell.outcome() != null).toList();
        if (cells.isEmpty()) {
            return missing(claim, matrix);
        }
        Tally tally = new Tally();
        for (JudgedMatrix.Cell cell : cells) {
            if (cell.figures() == null) {
                tally.add(cell.jdk() + " " + cell.cell() + ": " + cell.outcome(),
                        Prediction.Outcome.UNAVAILABLE.label().equals(cell.outcome()) && cell.outcome().equals(cell.prediction()));
            } else {
                tally.add(String.format(Locale.ROOT, "%d %s: %s", cell.jdk(), cell.cell(), verdict(cell.figures())),
                        JudgedPhase.STARVED.equals(cell.figures().verdict()));
            }
        }
        tally.need(matrix.columns().stream().allMatch(column -> cells.stream().filter(c -> c.jdk() == column.feature()).count() == 2));
        return notMeasured(matrix, cells, tally).judged(claim, "; ");
    }

    /**
     * A carrier pinned on a socket read: on 21 (platform pollers) at the carrier model; from 22 a
     * collapse with the default pollers, and the carrier model again with jdk.pollerMode=1.
     */
    static Finding pollers(JudgedMatrix matrix) {
        Optional<JudgedPhase> on21 = figures(matrix, 21, "pinned-db");
        List<Integer> newer = matrix.columns().stream().filter(column -> "measured".equals(column.status()) && column.feature() >= 22)
                .map(JudgedMatrix.Column::feature).toList();
        if (on21.isEmpty() && newer.isEmpty()) {
            return missing(POLLERS, matrix);
        }
        Tally tally = new Tally();
        tally.need(!newer.isEmpty());
        if (on21.isPresent()) {
            tally.add(String.format(Locale.ROOT, "21 pinned-db: %.1f/s vs %.1f/s %s", on21.get().throughputPerSecond(),
                    on21.get().modelLimitPerSecond(), Figures.ratio(on21.get().throughputToModel())),
                    JudgedMatrix.outcome(on21.get()) == Prediction.Outcome.STARVES && on21.get().throughputToModel() <= 1.2);
        } else {
            tally.add("21: not measured").missing();
        }
        for (int jdk : newer) {
            Optional<JudgedPhase> stock = figures(matrix, jdk, "native-db");
            Optional<JudgedPhase> platform = figures(matrix, jdk, "native-db-platform-pollers");
            if (stock.isEmpty() || platform.isEmpty()) {
                tally.add(jdk + ": " + (stock.isEmpty() ? "native-db" : "native-db-platform-pollers") + " not measured").missing();
                continue;
            }
            double restored = platform.get().throughputPerSecond() / Math.max(stock.get().throughputPerSecond(), 1e-9);
            tally.add(String.format(Locale.ROOT, "%d native-db: %s of %.1f/s, with pollerMode=1 %.1f/s", jdk,
                    Figures.perSecond(stock.get().throughputPerSecond()), stock.get().modelLimitPerSecond(), platform.get().throughputPerSecond()),
                    stock.get().throughputToModel() < JudgedMatrix.COLLAPSE_BELOW && restored >= 2);
        }
        return tally.judged(POLLERS, "; ");
    }

    /** Each measured cell of the matrix has the outcome its prediction names ({@link Prediction}). */
    private static Finding predicted(JudgedMatrix matrix) {
        List<JudgedMatrix.Cell> measured = matrix.cells().stream().filter(cell -> cell.agrees() != null).toList();
        if (measured.isEmpty()) {
            return PREDICTED.notJudged("no cell measured (" + matrix.describeJdks() + ")");
        }
        List<String> differ = measured.stream().filter(cell -> !cell.agrees())
                .map(cell -> cell.jdk() + " " + cell.cell() + ": " + cell.outcome() + " (predicted " + cell.prediction() + ")").toList();
        return PREDICTED.judged(differ.isEmpty() ? measured.size() + " of " + measured.size() + " cells as predicted" : String.join("; ", differ),
                differ.isEmpty());
    }

    private static Optional<JudgedPhase> figures(JudgedMatrix matrix, int jdk, String cell) {
        return matrix.cell(jdk, cell).map(JudgedMatrix.Cell::figures);
    }

    /** The JDKs of the matrix that measured none of {@code cells}: said in the finding, which then cannot hold. */
    private static Tally notMeasured(JudgedMatrix matrix, List<JudgedMatrix.Cell> cells, Tally tally) {
        List<Integer> absent = matrix.columns().stream().map(JudgedMatrix.Column::feature)
                .filter(jdk -> cells.stream().noneMatch(cell -> cell.jdk() == jdk)).toList();
        if (!absent.isEmpty()) {
            tally.add("not measured on " + absent).missing();
        }
        return tally;
    }

    private static String verdict(JudgedPhase phase) {
        return phase.verdict() + " (" + Figures.slowdown(phase) + ")";
    }

    private static Finding missing(Claim claim, JudgedMatrix matrix) {
        return claim.notJudged("not measured in this run (" + matrix.describeJdks() + ")");
    }
}
