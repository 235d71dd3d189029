package io.starvationlab.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The carriers as {@code jcmd Thread.print} shows them, on every JDK and over any JMX connection: each
 * platform thread's name and CPU time, and for a carrier, the virtual thread it carries
 * ("Carrying virtual thread #N"), with that thread's stack from JDK 25 ("Mounted virtual thread #N") and the
 * lock lines of either stack. The scheduler's carriers are the workers of the pool whose threads are seen carrying.
 */
final class Carriers {

    private static final Pattern HEADER = Pattern.compile("^\"(.*)\" #(\\d+)(.*)$");
    private static final Pattern CPU = Pattern.compile("\\bcpu=([0-9.]+)ms");
    private static final Pattern CARRYING = Pattern.compile("^\\s+Carrying virtual thread #(\\d+)");
    private static final Pattern MOUNTED = Pattern.compile("^\\s+Mounted virtual thread #\\d+");
    private static final Pattern WORKER = Pattern.compile("^(.*-worker-)\\d+$");
    private static final String INIT_WAIT = "- waiting on the Class initialization monitor for ";
    /** "- parking to wait for  <0x...> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)", "- waiting to lock <0x...> (a java.lang.Object)" */
    private static final Pattern BLOCKER = Pattern.compile("^- (?:parking to wait for|waiting to lock) +<(0x[0-9a-f]+)> \\(a (\\S+)\\)");

    /** One platform thread; {@code carrying} is the id of the virtual thread it carries, or null, and {@code mounted} what is seen of it. */
    record PlatformThread(String name, long id, double cpuMillis, Long carrying, Mounted mounted) {
    }

    private Carriers() {
    }

    static List<PlatformThread> parse(String threadPrint) {
        List<PlatformThread> threads = new ArrayList<>();
        Parsing thread = null;
        for (String line : threadPrint.split("\n")) {
            Matcher header = HEADER.matcher(line);
            if (header.matches()) {
                if (thread != null) {
                    threads.add(thread.done());
                }
                Matcher cpuTime = CPU.matcher(header.group(3));
                thread = new Parsing(header.group(1), Long.parseLong(header.group(2)), cpuTime.find() ? Double.parseDouble(cpuTime.group(1)) : Double.NaN);
            } else if (thread != null) {
                thread.line(line);
            }
        }
        if (thread != null) {
            threads.add(thread.done());
        }
        return threads;
    }

    /** One thread's lines: its own stack, then, on a carrier from JDK 25, the mounted virtual thread's. */
    private static final class Parsing {
        final String name;
        final long id;
        final double cpu;
        Long carrying;
        boolean inMounted;
        final List<Frame> mounted = new ArrayList<>();
        final List<Frame> owners = new ArrayList<>();
        String initWaitFor;
        boolean waitingToLock;
        String blocker;

        Parsing(String name, long id, double cpu) {
            this.name = name;
            this.id = id;
            this.cpu = cpu;
        }

        void line(String line) {
            Matcher carried = CARRYING.matcher(line);
            String text = line.strip();
            Matcher on = BLOCKER.matcher(text);
            if (carried.find()) {
                carrying = Long.parseLong(carried.group(1));
            } else if (MOUNTED.matcher(line).find()) {
                inMounted = true;
            } else if (carrying == null) {
                return; // a platform thread's own stack
            } else if (text.startsWith("at ") && inMounted) {
                mounted.add(Frame.ofDumpText(text));
            } else if (text.startsWith(INIT_WAIT)) {
                // JDK 21 writes it under the carrier's top frame, JDK 25 under the mounted thread's
                initWaitFor = text.substring(INIT_WAIT.length()).strip();
            } else if (inMounted && on.find()) {
                waitingToLock |= text.startsWith("- waiting to lock");
                blocker = on.group(2) + "@" + on.group(1);
            } else if (text.startsWith("- waiting to lock")) {
                waitingToLock = true;
            } else if (text.startsWith("- locked") && inMounted && !mounted.isEmpty()) {
                owners.add(mounted.get(mounted.size() - 1));
            }
        }

        PlatformThread done() {
            return new PlatformThread(name, id, cpu, carrying,
                    carrying == null ? Mounted.UNSEEN : new Mounted(List.copyOf(mounted), List.copyOf(owners), initWaitFor, waitingToLock, blocker, null));
        }
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
