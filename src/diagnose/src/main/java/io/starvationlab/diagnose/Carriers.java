package io.starvationlab.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The carriers as {@code jcmd Thread.print} shows them, on every JDK and over any JMX connection: each
 * platform thread's name and CPU time, and for a carrier, the virtual thread it carries
 * ("Carrying virtual thread #N"). The scheduler's carriers are the workers of the pool whose threads
 * are seen carrying.
 */
final class Carriers {

    private static final Pattern HEADER = Pattern.compile("^\"(.*)\" #(\\d+)(.*)$");
    private static final Pattern CPU = Pattern.compile("\\bcpu=([0-9.]+)ms");
    private static final Pattern CARRYING = Pattern.compile("^\\s+Carrying virtual thread #(\\d+)");
    private static final Pattern WORKER = Pattern.compile("^(.*-worker-)\\d+$");

    /** One platform thread; {@code carrying} is the id of the virtual thread it carries, or null. */
    record PlatformThread(String name, long id, double cpuMillis, Long carrying) {
    }

    private Carriers() {
    }

    static List<PlatformThread> parse(String threadPrint) {
        List<PlatformThread> threads = new ArrayList<>();
        String name = null;
        long id = 0;
        double cpu = Double.NaN;
        Long carrying = null;
        for (String line : threadPrint.split("\n")) {
            Matcher header = HEADER.matcher(line);
            if (header.matches()) {
                if (name != null) {
                    threads.add(new PlatformThread(name, id, cpu, carrying));
                }
                name = header.group(1);
                id = Long.parseLong(header.group(2));
                Matcher cpuTime = CPU.matcher(header.group(3));
                cpu = cpuTime.find() ? Double.parseDouble(cpuTime.group(1)) : Double.NaN;
                carrying = null;
                continue;
            }
            Matcher carried = CARRYING.matcher(line);
            if (name != null && carried.find()) {
                carrying = Long.parseLong(carried.group(1));
            }
        }
        if (name != null) {
            threads.add(new PlatformThread(name, id, cpu, carrying));
        }
        return threads;
    }

    /** The worker-name prefix of the pool whose threads carry virtual threads, e.g. {@code ForkJoinPool-1-worker-}. */
    static Optional<String> poolPrefix(List<PlatformThread> threads) {
        return threads.stream().filter(t -> t.carrying() != null).map(t -> WORKER.matcher(t.name()))
                .filter(Matcher::matches).map(m -> m.group(1)).findFirst();
    }

    /** The threads of the pool named by {@code prefix}: the scheduler's carriers. */
    static List<PlatformThread> ofPool(List<PlatformThread> threads, String prefix) {
        return threads.stream().filter(t -> t.name().startsWith(prefix) && WORKER.matcher(t.name()).matches()).toList();
    }
}
