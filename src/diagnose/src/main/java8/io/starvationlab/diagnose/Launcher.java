package io.starvationlab.diagnose;

import java.lang.reflect.InvocationTargetException;

/**
 * The jar's entry, compiled for Java 8 so that any JVM loads it: on a JDK older than the 21 the diagnosis is built for it says so in
 * one line, naming the JDK it found, where the diagnosis itself would die with {@code UnsupportedClassVersionError}; otherwise it
 * hands over to {@code Diagnose}, found by name so that this class loads without it.
 */
public final class Launcher {

    static final int NEEDS = 21;

    private Launcher() {
    }

    public static void main(String[] args) throws Throwable {
        String refusal = refusal(System.getProperty("java.specification.version"), System.getProperty("java.runtime.version"),
                System.getProperty("java.home"));
        if (refusal != null) {
            System.err.println(refusal);
            System.exit(2);
        }
        try {
            Class.forName("io.starvationlab.diagnose.Diagnose").getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** The one line for a JVM of {@code specification} (e.g. "17", or "1.8"), or null where it is new enough. */
    static String refusal(String specification, String version, String home) {
        String feature = specification.startsWith("1.") ? specification.substring(2) : specification;
        int major;
        try {
            major = Integer.parseInt(feature.split("\\.")[0]);
        } catch (NumberFormatException e) {
            return null; // a version this class cannot read: let the diagnosis try
        }
        return major >= NEEDS ? null : "starvation-diagnose needs a JDK " + NEEDS + " or later; this is JDK " + version + " (" + home
                + "): run the jar with the java of a JDK " + NEEDS + "+";
    }
}
