package io.starvationlab.jvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What this JVM sees of its container: the CPU quota and memory limit of its cgroup, read from the
 * files HotSpot's container support reads (cgroup v1 or v2, found through {@code /proc/self/cgroup}
 * and {@code /proc/self/mountinfo}), and the CPU count the JVM derives from them. A container's CPU
 * limit is a quota: {@code availableProcessors()}, and with it the carriers, come from it unless
 * {@code -XX:ActiveProcessorCount} says otherwise.
 *
 * @param cgroupVersion     {@code v1} or {@code v2}; null where no cgroup file system is mounted
 * @param cpuQuotaMicros    CPU time the group may use per period; null when it sets no quota
 * @param cpuPeriodMicros   the period of that quota; null when there is no quota
 * @param effectiveCpuCount the CPUs the JVM may run on, capped at the quota rounded up: the JVM's own
 *                          "Effective CPU Count", which {@code -XX:ActiveProcessorCount} overrides
 * @param memoryLimitBytes  the group's memory limit; null when none is below the machine's memory
 */
public record ContainerLimits(String cgroupVersion, Long cpuQuotaMicros, Long cpuPeriodMicros, int effectiveCpuCount,
        Long memoryLimitBytes) {

    /** The limits of this process, read from the machine's own {@code /proc} and {@code /sys}. */
    public static ContainerLimits ofThisProcess() {
        return read(Path.of("/"));
    }

    /**
     * Reads the limits from the file tree under {@code root} ({@code /} on a live machine; a folder of
     * fixture files in tests): {@code proc/self/cgroup}, {@code proc/self/mountinfo},
     * {@code proc/self/status}, {@code proc/meminfo} and the cgroup files they lead to.
     */
    public static ContainerLimits read(Path root) {
        int cpus = allowedCpus(root).orElse(Runtime.getRuntime().availableProcessors());
        List<String> membership = lines(root.resolve("proc/self/cgroup"));
        List<Mount> mounts = lines(root.resolve("proc/self/mountinfo")).stream().map(Mount::parse).flatMap(Optional::stream).toList();
        // as HotSpot decides: any v1 hierarchy with the cpu or memory controller makes it v1 (hybrid included)
        Optional<Path> cpuV1 = v1Group(root, mounts, membership, "cpu");
        Optional<Path> memoryV1 = v1Group(root, mounts, membership, "memory");
        if (cpuV1.isPresent() || memoryV1.isPresent()) {
            Long quota = cpuV1.flatMap(group -> number(group.resolve("cpu.cfs_quota_us"))).filter(q -> q > 0).orElse(null);
            Long period = quota == null ? null : cpuV1.flatMap(group -> number(group.resolve("cpu.cfs_period_us"))).orElse(null);
            Long memory = memoryV1.flatMap(group -> number(group.resolve("memory.limit_in_bytes"))
                            .filter(limit -> limit < machineMemory(root))
                            .or(() -> hierarchicalMemoryLimit(group)))
                    .filter(limit -> limit < machineMemory(root)).orElse(null);
            return new ContainerLimits("v1", quota, period, effective(cpus, quota, period), memory);
        }
        Optional<Path> v2 = v2Group(root, mounts, membership);
        if (v2.isPresent()) {
            String[] cpuMax = text(v2.get().resolve("cpu.max")).orElse("max").split("\\s+");
            Long quota = cpuMax[0].equals("max") ? null : Long.valueOf(cpuMax[0]);
            Long period = quota == null || cpuMax.length < 2 ? null : Long.valueOf(cpuMax[1]);
            Long memory = number(v2.get().resolve("memory.max")).filter(limit -> limit < machineMemory(root)).orElse(null);
            return new ContainerLimits("v2", quota, period, effective(cpus, quota, period), memory);
        }
        return new ContainerLimits(null, null, null, cpus, null);
    }

    /** The quota in CPUs (quota ÷ period), or empty when there is none. */
    public Optional<Double> cpuLimit() {
        return cpuQuotaMicros == null || cpuPeriodMicros == null ? Optional.empty()
                : Optional.of((double) cpuQuotaMicros / cpuPeriodMicros);
    }

    private static int effective(int cpus, Long quota, Long period) {
        if (quota == null || period == null || period <= 0) {
            return cpus;
        }
        return (int) Math.max(1, Math.min(cpus, Math.ceilDiv(quota, period)));
    }

    /** A mount of a cgroup hierarchy: the group its root shows, where it is mounted, and its controllers. */
    private record Mount(String root, String mountPoint, String type, List<String> options) {

        static Optional<Mount> parse(String line) {
            // id parent major:minor root mount-point options [optional fields] - type source super-options
            String[] halves = line.split(" - ", 2);
            if (halves.length < 2) {
                return Optional.empty();
            }
            String[] fields = halves[0].split(" ");
            String[] tail = halves[1].split(" ");
            if (fields.length < 5 || tail.length < 3 || !tail[0].startsWith("cgroup")) {
                return Optional.empty();
            }
            return Optional.of(new Mount(unescape(fields[3]), unescape(fields[4]), tail[0], List.of(tail[2].split(","))));
        }

        /** The folder of {@code group} under this mount, as HotSpot maps a group path onto a mount's root. */
        Optional<String> folderOf(String group) {
            if (root.equals("/")) {
                return Optional.of(group.equals("/") ? mountPoint : mountPoint + group);
            }
            if (root.equals(group)) {
                return Optional.of(mountPoint);
            }
            if (group.startsWith(root + "/")) {
                return Optional.of(mountPoint + group.substring(root.length()));
            }
            return Optional.empty();
        }

        private static String unescape(String field) {
            return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
        }
    }

    private static Optional<Path> v1Group(Path root, List<Mount> mounts, List<String> membership, String controller) {
        Optional<String> group = membership.stream().map(line -> line.split(":", 3)).filter(parts -> parts.length == 3)
                .filter(parts -> List.of(parts[1].split(",")).contains(controller)).map(parts -> parts[2]).findFirst();
        Optional<Mount> mount = mounts.stream().filter(m -> m.type().equals("cgroup") && m.options().contains(controller)).findFirst();
        return group.flatMap(g -> mount.flatMap(m -> m.folderOf(g))).map(folder -> under(root, folder));
    }

    private static Optional<Path> v2Group(Path root, List<Mount> mounts, List<String> membership) {
        Optional<String> group = membership.stream().filter(line -> line.startsWith("0::")).map(line -> line.substring(3)).findFirst();
        Optional<Mount> mount = mounts.stream().filter(m -> m.type().equals("cgroup2")).findFirst();
        return group.flatMap(g -> mount.flatMap(m -> m.folderOf(g))).map(folder -> under(root, folder));
    }

    /** v1 reports no limit on the group itself when a parent sets it: memory.stat holds the one in force. */
    private static Optional<Long> hierarchicalMemoryLimit(Path group) {
        return lines(group.resolve("memory.stat")).stream().filter(line -> line.startsWith("hierarchical_memory_limit "))
                .map(line -> Long.valueOf(line.substring(line.indexOf(' ') + 1).trim())).findFirst();
    }

    private static Optional<Integer> allowedCpus(Path root) {
        return lines(root.resolve("proc/self/status")).stream().filter(line -> line.startsWith("Cpus_allowed_list:"))
                .map(line -> countCpus(line.substring(line.indexOf(':') + 1).trim())).filter(count -> count > 0).findFirst();
    }

    /** {@code 0-3,6,8-9} is 7 CPUs. */
    static int countCpus(String list) {
        int count = 0;
        for (String range : list.split(",")) {
            if (range.isBlank()) {
                continue;
            }
            String[] ends = range.trim().split("-");
            count += ends.length == 1 ? 1 : Integer.parseInt(ends[1]) - Integer.parseInt(ends[0]) + 1;
        }
        return count;
    }

    /** The machine's memory ({@code MemTotal}): a limit at or above it limits nothing, as HotSpot reads it. */
    private static long machineMemory(Path root) {
        return lines(root.resolve("proc/meminfo")).stream().filter(line -> line.startsWith("MemTotal:"))
                .map(line -> Long.parseLong(line.replaceAll("\\D", "")) * 1024).findFirst().orElse(Long.MAX_VALUE);
    }

    private static Path under(Path root, String absolute) {
        return root.resolve(absolute.substring(1));
    }

    private static Optional<Long> number(Path file) {
        return text(file).filter(value -> value.matches("-?\\d+")).map(Long::valueOf);
    }

    private static Optional<String> text(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return List.of(); // no /proc (macOS): no container to read
        }
    }
}
