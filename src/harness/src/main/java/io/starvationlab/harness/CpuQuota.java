package io.starvationlab.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A cgroup with a CPU quota, as a container's CPU limit is one: a program started through
 * {@link #wrap} joins the group before it runs (a shell writes its own pid into the group, then
 * {@code exec}s the program), so a JVM reads the quota at its first instruction and derives its
 * processors, and with them its carriers, from it. cgroup v1 ({@code cpu.cfs_quota_us} and
 * {@code cpu.cfs_period_us}) or v2 ({@code cpu.max}); the group is made beside this process's own
 * (v1: under it), which needs root or a group delegated to the user ({@code LAB_CGROUP_PARENT} or
 * {@code -Dlab.cgroup.parent} names it). {@link #close} ends whatever still runs in the group and
 * removes it; a group left by a run that was killed is removed by the next one.
 */
public final class CpuQuota implements AutoCloseable {

    /** The period of every quota: the kernel's and Kubernetes' default. */
    public static final long PERIOD_MICROS = 100_000;
    static final String PREFIX = "starvation-lab-quota-";
    private static final AtomicInteger GROUPS = new AtomicInteger();
    private static final Duration REMOVAL_BOUND = Duration.ofSeconds(10);

    private final Path group;
    private final double cpus;
    private final Thread removeAtExit;
    private boolean closed;

    private CpuQuota(Path group, double cpus) {
        this.group = group;
        this.cpus = cpus;
        this.removeAtExit = new Thread(() -> removeGroup(group), "remove-" + group.getFileName());
        Runtime.getRuntime().addShutdownHook(removeAtExit);
    }

    /** No quota can be set here; the message says why. */
    public static final class Unavailable extends IllegalStateException {
        Unavailable(String reason) {
            super(reason);
        }
    }

    /**
     * Makes a group whose quota is {@code cpus} CPUs ({@code cpus} × {@value #PERIOD_MICROS} µs per
     * {@value #PERIOD_MICROS} µs) on this machine's cgroup file system.
     *
     * @throws Unavailable where no group can be made: not Linux, no cpu controller, no right to write
     */
    public static CpuQuota create(double cpus) {
        return create(Path.of("/"), cpus, Optional.ofNullable(System.getProperty("lab.cgroup.parent", System.getenv("LAB_CGROUP_PARENT")))
                .filter(named -> !named.isBlank()).map(Path::of));
    }

    /**
     * Why no quota can be set here, or empty when one can: a run that plans quota phases asks first,
     * and says why it skips them (a group is made and removed to find out).
     */
    public static Optional<String> unavailableReason() {
        try (CpuQuota probe = create(1)) {
            return Optional.empty();
        } catch (Unavailable e) {
            return Optional.of(e.getMessage());
        }
    }

    /** As {@link #create(double)}, on the file tree under {@code root} (tests use a folder laid out as one). */
    static CpuQuota create(Path root, double cpus, Optional<Path> parent) {
        if (cpus <= 0) {
            throw new IllegalArgumentException("a quota of " + cpus + " CPUs");
        }
        Hierarchy hierarchy = Hierarchy.of(root, parent);
        removeLeftovers(hierarchy.parent());
        Path group = hierarchy.parent().resolve(PREFIX + ProcessHandle.current().pid() + "-" + GROUPS.incrementAndGet());
        long quota = Math.round(cpus * PERIOD_MICROS);
        try {
            Files.createDirectory(group);
        } catch (IOException e) {
            throw new Unavailable("Cannot make a cgroup under " + hierarchy.parent() + " (" + e + "): run as root, or name a group "
                    + "delegated to this user in LAB_CGROUP_PARENT");
        }
        try {
            if (hierarchy.v2()) {
                Files.writeString(group.resolve("cpu.max"), quota + " " + PERIOD_MICROS);
            } else {
                Files.writeString(group.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_MICROS));
                Files.writeString(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
            }
        } catch (IOException e) {
            delete(group);
            throw new Unavailable("Cannot set a quota of " + cpus + " CPUs on " + group + ": " + e);
        }
        return new CpuQuota(group, cpus);
    }

    /** The command, run inside this group from its first instruction. */
    public List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", "echo $$ > \"$0\" && exec \"$@\"", group.resolve("cgroup.procs").toString()));
        wrapped.addAll(command);
        return wrapped;
    }

    public double cpus() {
        return cpus;
    }

    public Path group() {
        return group;
    }

    /**
     * How often the group ran out of its quota so far: periods, periods throttled, and the time its
     * tasks waited for the next period (cgroup v1 {@code throttled_time} in ns, v2 {@code throttled_usec}).
     */
    public record Throttling(long periods, long throttledPeriods, double throttledMillis) {
        public Throttling since(Throttling before) {
            return new Throttling(periods - before.periods, throttledPeriods - before.throttledPeriods, throttledMillis - before.throttledMillis);
        }
    }

    /** The group's cpu.stat now. */
    public Throttling throttling() {
        Map<String, Long> stat = new HashMap<>();
        try {
            for (String line : Files.readAllLines(group.resolve("cpu.stat"))) {
                String[] parts = line.trim().split("\\s+");
                if (parts.length == 2 && parts[1].matches("\\d+")) {
                    stat.put(parts[0], Long.valueOf(parts[1]));
                }
            }
        } catch (IOException e) {
            return new Throttling(0, 0, 0);
        }
        double millis = stat.containsKey("throttled_usec") ? stat.get("throttled_usec") / 1e3 : stat.getOrDefault("throttled_time", 0L) / 1e6;
        return new Throttling(stat.getOrDefault("nr_periods", 0L), stat.getOrDefault("nr_throttled", 0L), millis);
    }

    public List<Long> pids() {
        return pids(group);
    }

    /** Ends every process still in the group, then removes it. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        removeGroup(group);
        try {
            Runtime.getRuntime().removeShutdownHook(removeAtExit);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook runs remove() anyway
        }
    }

    /** A group left by a run whose JVM is gone: whatever it started still runs there, and nothing else will end it. */
    private static void removeLeftovers(Path parent) {
        try (Stream<Path> groups = Files.list(parent)) {
            for (Path leftover : groups.filter(p -> p.getFileName().toString().startsWith(PREFIX)).toList()) {
                String owner = leftover.getFileName().toString().substring(PREFIX.length()).split("-")[0];
                boolean ownerAlive = owner.matches("\\d+") && ProcessHandle.of(Long.parseLong(owner)).map(ProcessHandle::isAlive).orElse(false);
                if (!ownerAlive) {
                    removeGroup(leftover);
                }
            }
        } catch (IOException e) {
            // nothing to clean, or no right to: create() says why if it cannot make its own
        }
    }

    private static void removeGroup(Path group) {
        long start = System.nanoTime();
        ChildProcess.end(processes(group));
        // the kernel refuses to remove a group until its last task is gone, which lags a kill a little
        while (Files.exists(group) && System.nanoTime() - start < REMOVAL_BOUND.toNanos()) {
            delete(group);
            if (Files.exists(group)) {
                processes(group).forEach(ProcessHandle::destroyForcibly);
                Machine.pause(Duration.ofMillis(100));
            }
        }
        if (Files.exists(group)) {
            System.err.println("WARNING: could not remove the cgroup " + group + "; pids still in it: " + pids(group));
        }
    }

    private static List<ProcessHandle> processes(Path group) {
        return pids(group).stream().map(ProcessHandle::of).flatMap(Optional::stream).toList();
    }

    private static List<Long> pids(Path group) {
        try {
            return Files.readAllLines(group.resolve("cgroup.procs")).stream().map(String::trim).filter(line -> line.matches("\\d+"))
                    .map(Long::valueOf).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** rmdir: a cgroup's files go with it (the kernel refuses to unlink them); a folder laid out as one (tests) is emptied first. */
    private static void delete(Path group) {
        try (Stream<Path> files = Files.list(group)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // a live group's files: rmdir removes them with it
        }
        try {
            Files.deleteIfExists(group);
        } catch (IOException e) {
            // reported by the caller, which sees the group still there
        }
    }

    /** Where groups are made: under this process's own cpu group on v1, beside it on v2 (a v2 group holding processes cannot have children). */
    record Hierarchy(Path parent, boolean v2) {

        static Hierarchy of(Path root, Optional<Path> named) {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux") && root.equals(Path.of("/"))) {
                throw new Unavailable("CPU quotas are cgroups, a Linux feature; this is " + System.getProperty("os.name"));
            }
            List<String[]> mounts = lines(root.resolve("proc/self/mountinfo")).stream().map(line -> line.split(" - ", 2))
                    .filter(halves -> halves.length == 2).map(halves -> (halves[0] + " " + halves[1]).split(" ")).toList();
            List<String> membership = lines(root.resolve("proc/self/cgroup"));
            Optional<Path> v1 = mounts.stream().filter(m -> m[m.length - 3].equals("cgroup") && List.of(m[m.length - 1].split(",")).contains("cpu"))
                    .findFirst().flatMap(m -> ownFolder(root, m, membership.stream().map(line -> line.split(":", 3))
                            .filter(parts -> parts.length == 3 && List.of(parts[1].split(",")).contains("cpu")).map(parts -> parts[2]).findFirst()));
            if (v1.isPresent()) {
                return new Hierarchy(named.orElse(v1.get()), false);
            }
            Optional<String[]> v2Mount = mounts.stream().filter(m -> m[m.length - 3].equals("cgroup2")).findFirst();
            Optional<Path> v2 = v2Mount.flatMap(m -> ownFolder(root, m,
                    membership.stream().filter(line -> line.startsWith("0::")).map(line -> line.substring(3)).findFirst()));
            if (v2.isEmpty()) {
                throw new Unavailable("No cgroup file system with the cpu controller is mounted (/proc/self/mountinfo)");
            }
            Path mountPoint = under(root, v2Mount.get()[4]);
            Path parent = named.orElse(v2.get().equals(mountPoint) ? mountPoint : v2.get().getParent());
            enableCpuController(parent);
            return new Hierarchy(parent, true);
        }

        /** v2 hands a controller to a group's children only when the group lists it in cgroup.subtree_control. */
        private static void enableCpuController(Path parent) {
            List<String> available = List.of(String.join(" ", lines(parent.resolve("cgroup.controllers"))).trim().split("\\s+"));
            if (!available.contains("cpu")) {
                throw new Unavailable("The cpu controller is not available in " + parent + " (cgroup.controllers: " + available
                        + "): enable it in its parent's cgroup.subtree_control, or name another group in LAB_CGROUP_PARENT");
            }
            List<String> enabled = List.of(String.join(" ", lines(parent.resolve("cgroup.subtree_control"))).trim().split("\\s+"));
            if (!enabled.contains("cpu")) {
                try {
                    Files.writeString(parent.resolve("cgroup.subtree_control"), "+cpu");
                } catch (IOException e) {
                    throw new Unavailable("Cannot hand the cpu controller to the children of " + parent + " (" + e
                            + "): run as root, or name a group delegated to this user in LAB_CGROUP_PARENT");
                }
            }
        }

        /** This process's group under a mount, as the kernel shows it relative to the mount's root. */
        private static Optional<Path> ownFolder(Path root, String[] mount, Optional<String> ownGroup) {
            String mountRoot = mount[3];
            String mountPoint = mount[4];
            return ownGroup.flatMap(group -> {
                if (mountRoot.equals("/")) {
                    return Optional.of(group.equals("/") ? mountPoint : mountPoint + group);
                }
                if (group.equals(mountRoot)) {
                    return Optional.of(mountPoint);
                }
                return group.startsWith(mountRoot + "/") ? Optional.of(mountPoint + group.substring(mountRoot.length())) : Optional.empty();
            }).map(folder -> under(root, folder));
        }

        private static Path under(Path root, String absolute) {
            return root.resolve(absolute.substring(1));
        }

        private static List<String> lines(Path file) {
            try {
                return Files.readAllLines(file);
            } catch (IOException e) {
                return List.of();
            }
        }
    }
}
