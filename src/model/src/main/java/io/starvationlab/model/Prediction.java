package io.starvationlab.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;


/**
 * What a work mode does on a JVM, from the JDKs' documented behaviour, written down before anything is
 * measured: the Java side's only statement of it. First a JDK with its flags gives the JVM's facts
 * ({@link #facts}, from {@link JdkFacts}), then a mode and downstream on those facts give an outcome
 * ({@link #of(String, String, JdkFacts)}: only whether synchronized pins, whether there is FFM and whether the pollers
 * are virtual threads decide it). Both are judged on {@code k6/cases/prediction-cases.json}, the cases the k6 suite is
 * judged on too.
 *
 * @param outcome what the mode does
 * @param why     the documented behaviour behind it
 */
public record Prediction(Outcome outcome, String why) {

    /** What a mode does, measured or predicted. */
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

        /** Whether the plan's rule calls a load of this outcome starved. */
        public boolean starved() {
            return this == STARVES || this == COLLAPSES;
        }
    }

    /**
     * The facts of JDK {@code jdk} on Linux (the lab's JVMs) started with {@code flags} and system {@code properties}, as
     * {@link JdkFacts} states them; empty when the JVM refuses to start with them.
     */
    public static Optional<JdkFacts> facts(int jdk, List<String> flags, Map<String, String> properties) {
        return JdkFacts.of(jdk, "Linux", flags, properties);
    }

    /** The prediction for a mode and downstream on JDK {@code jdk} with {@code flags} and {@code properties}. */
    public static Prediction of(int jdk, String mode, String downstream, List<String> flags, Map<String, String> properties) {
        return facts(jdk, flags, properties).map(facts -> of(mode, downstream, facts))
                .orElseGet(() -> new Prediction(Outcome.REFUSED, "LockingMode is gone after JDK 26: the JVM does not know the option"));
    }

    public static Prediction of(String mode, String downstream, JdkFacts facts) {
        return switch (mode) {
            case "unpinned" -> new Prediction(Outcome.FREE, "a blocked virtual thread unmounts");
            case "reentrant" -> new Prediction(Outcome.FREE, "ReentrantLock never pins");
            case "platform" -> new Prediction(Outcome.FREE, "platform threads: the carriers are not involved");
            case "cpu" -> new Prediction(Outcome.STARVES, "computation holds its carrier on every JDK");
            case "native" -> facts.nativePinAvailable() ? pinned("a native frame pins", downstream, facts)
                    : new Prediction(Outcome.UNAVAILABLE, "no final FFM before JDK 22: native answers 501");
            case "pinned" -> facts.synchronizedPins() ? pinned("synchronized pins", downstream, facts)
                    : new Prediction(Outcome.FREE, "JEP 491: synchronized does not pin");
            default -> throw new IllegalArgumentException("no prediction for mode " + mode);
        };
    }

    /** A pinned carrier: the carrier model, unless it waits on a socket read for a poller that needs a carrier. */
    private static Prediction pinned(String pins, String downstream, JdkFacts facts) {
        if (!"db".equals(downstream)) {
            return new Prediction(Outcome.STARVES, pins);
        }
        return facts.virtualPollers() ? new Prediction(Outcome.COLLAPSES, pins + " on a socket read, waiting for a poller that is a virtual thread")
                : new Prediction(Outcome.STARVES, pins + "; platform-thread pollers: the carrier model");
    }
}
