package io.starvationlab.experiment;

/**
 * What a matrix cell should do on a JDK, from the JDKs' documented behaviour, written down before
 * anything is measured: {@code synchronized} pins on JDK 21-23 (JEP 491 unpinned it in 24), on 24-25
 * only with {@code -XX:LockingMode=1}, and never from 26 (the flag is ignored with a warning on 26 and
 * unknown after); a native frame pins wherever there is FFM (final in 22; 501 on 21); CPU work always
 * holds its carrier; {@code ReentrantLock} never pins; the I/O pollers are virtual threads from JDK 22
 * unless {@code -Djdk.pollerMode=1}, so a carrier pinned on a socket read collapses there.
 *
 * @param outcome one of the {@code Outcome} names
 * @param why     the documented behaviour behind it
 */
public record Prediction(Outcome outcome, String why) {

    /** What a cell does, measured or predicted. */
    public enum Outcome {
        /** the probe waits (the plan's rule) and throughput is the carrier model */
        STARVES("starves"),
        /** throughput under half the model: pinned carriers wait for something that needs a carrier */
        COLLAPSES("collapses"),
        /** the probe stays fast */
        FREE("free"),
        /** the mode answers 501: this JDK cannot run it */
        UNAVAILABLE("501"),
        /** the JVM does not start with the cell's flags */
        REFUSED("refused");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** The prediction for a mode and downstream on a JDK, with the matrix JVM's flags and properties. */
    static Prediction of(int jdk, String mode, String downstream, MatrixPlan.MatrixJvm jvm) {
        boolean legacyLockingFlag = jvm.flags().contains("-XX:LockingMode=1");
        boolean platformPollers = "1".equals(jvm.properties().get("jdk.pollerMode"));
        if (legacyLockingFlag && jdk >= 27) {
            return new Prediction(Outcome.REFUSED, "LockingMode is gone after JDK 26: the JVM does not know the option");
        }
        boolean pollersAreVirtual = jdk >= 22 && !platformPollers;
        String pollers = jdk < 22 ? "JDK 21's I/O pollers are platform threads"
                : platformPollers ? "jdk.pollerMode=1: platform-thread pollers" : "from JDK 22 the I/O pollers are virtual threads";
        return switch (mode) {
            case "unpinned" -> new Prediction(Outcome.FREE, "a blocked virtual thread unmounts");
            case "reentrant" -> new Prediction(Outcome.FREE, "ReentrantLock never pins");
            case "cpu" -> new Prediction(Outcome.STARVES, "computation holds its carrier on every JDK");
            case "native" -> jdk < 22 ? new Prediction(Outcome.UNAVAILABLE, "no final FFM before JDK 22")
                    : pinnedOnIo("a native frame pins on every JDK", downstream, pollersAreVirtual, pollers);
            case "pinned" -> {
                if (jdk <= 23) {
                    yield pinnedOnIo("synchronized pins before JEP 491 (JDK 24)", downstream, pollersAreVirtual, pollers);
                }
                if (jdk <= 25 && legacyLockingFlag) {
                    yield pinnedOnIo("-XX:LockingMode=1 brings back synchronized pinning on JDK 24-25", downstream, pollersAreVirtual, pollers);
                }
                yield new Prediction(Outcome.FREE, legacyLockingFlag ? "JDK 26 ignores LockingMode (removed): JEP 491 applies"
                        : "JEP 491: synchronized no longer pins from JDK 24");
            }
            default -> throw new IllegalArgumentException("no prediction for mode " + mode);
        };
    }

    private static Prediction pinnedOnIo(String pins, String downstream, boolean pollersAreVirtual, String pollers) {
        if (!"db".equals(downstream)) {
            return new Prediction(Outcome.STARVES, pins);
        }
        return pollersAreVirtual ? new Prediction(Outcome.COLLAPSES, pins + "; " + pollers + ", and wait for a carrier")
                : new Prediction(Outcome.STARVES, pins + "; " + pollers);
    }
}
