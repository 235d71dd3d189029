package io.starvationlab.diagnose;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line. One target: a local process id (attached through the Attach API) or a JMX address
 * ({@code host:port}, e.g. a pod's port forwarded by {@code kubectl port-forward}, or a full
 * {@code service:jmx:} URL).
 *
 * @param pid             the process to attach to, or null
 * @param jmx             the JMX address, or null
 * @param duration        how long to watch
 * @param interval        how often to sample the scheduler, and the carriers while every one is taken ({@link Sampler})
 * @param threshold       a wait for a carrier at least this long is starvation
 * @param pinnedThreshold the shortest pinned episode JFR reports
 * @param skip            class-name prefixes never named as "the frame", beyond the JDK and common frameworks
 * @param threadDumps     whether to read thread dumps when the target's files are reachable
 * @param json            where to write the report as JSON, or null
 */
record Options(Long pid, String jmx, Duration duration, Duration interval, Duration threshold, Duration pinnedThreshold,
        List<String> skip, boolean threadDumps, Path json) {

    static final String USAGE = """
            usage: java -jar starvation-diagnose.jar (--pid <pid> | --jmx <host:port | service:jmx:...>) [options]

            Watches a running JVM (JDK 21+) for virtual-thread carrier starvation and says whether it starves, and why.

              --pid <pid>                a local JVM, attached through the Attach API (same user)
              --jmx <host:port>          a JVM's JMX port, e.g. a pod through kubectl port-forward
              --seconds <n>              how long to watch (default 30)
              --interval-ms <n>          sampling interval (default 250; Thread.print every 2 s while a carrier is free)
              --threshold-ms <n>         a wait for a carrier this long is starvation (default 500)
              --pinned-threshold-ms <n>  shortest pinned episode reported by JFR (default 20)
              --skip <prefix,...>        class-name prefixes never named as the frame (your own clients, say),
                                         beyond the JDK and common frameworks
              --no-thread-dumps          never ask for thread dumps (what a JVM on another machine gives)
              --json <file>              also write the report as JSON
              -h, --help                 this text
              --version                  the version

            Exit status: 0 not starved, 1 starved, 2 could not diagnose, 3 stuck (every carrier held by threads
            waiting for another thread: a deadlock on carriers).
            """;

    /** Parses the arguments; throws {@link IllegalArgumentException} with the reason on bad input. */
    static Options parse(String[] args) {
        Long pid = null;
        String jmx = null;
        long seconds = 30;
        long intervalMillis = 250;
        long thresholdMillis = 500;
        long pinnedMillis = 20;
        List<String> skip = new ArrayList<>();
        boolean threadDumps = true;
        Path json = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--pid" -> pid = positive(arg, value(args, ++i, arg));
                case "--jmx" -> jmx = value(args, ++i, arg);
                case "--seconds" -> seconds = positive(arg, value(args, ++i, arg));
                case "--interval-ms" -> intervalMillis = positive(arg, value(args, ++i, arg));
                case "--threshold-ms" -> thresholdMillis = positive(arg, value(args, ++i, arg));
                case "--pinned-threshold-ms" -> pinnedMillis = positive(arg, value(args, ++i, arg));
                case "--skip" -> {
                    for (String prefix : value(args, ++i, arg).split(",")) {
                        if (!prefix.isBlank()) {
                            skip.add(prefix.strip());
                        }
                    }
                }
                case "--no-thread-dumps" -> threadDumps = false;
                case "--json" -> json = Path.of(value(args, ++i, arg));
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if ((pid == null) == (jmx == null)) {
            throw new IllegalArgumentException("give exactly one of --pid and --jmx");
        }
        if (intervalMillis * 2 > seconds * 1000) {
            throw new IllegalArgumentException("--seconds must cover at least two samples of --interval-ms");
        }
        return new Options(pid, jmx, Duration.ofSeconds(seconds), Duration.ofMillis(intervalMillis), Duration.ofMillis(thresholdMillis),
                Duration.ofMillis(pinnedMillis), List.copyOf(skip), threadDumps, json);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static long positive(String option, String value) {
        try {
            long parsed = Long.parseLong(value);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " takes a positive whole number, not " + value);
    }
}
