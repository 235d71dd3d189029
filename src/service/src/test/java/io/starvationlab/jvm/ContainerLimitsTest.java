package io.starvationlab.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cgroup files HotSpot reads, laid out as each kind of machine lays them out: the mount and group
 * lines are those of real machines (cgroup v1 hybrid on a host and inside a podman container, the
 * files the kernel writes for v2). The live v1 layout is checked against the JVM's own report in
 * {@code CpuQuotaIT}.
 */
class ContainerLimitsTest {

    static final String MEMINFO = "MemTotal:       24683548 kB\nMemFree:        1000000 kB\n";
    static final String TWO_CPUS = "Name:\tjava\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n";
    static final String V1_HOST_MOUNTS = """
            30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
            31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
            32 30 0:29 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
            34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
            40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
            """;

    @TempDir
    Path root;

    @Test
    void shouldReadAV1QuotaOfAGroupOnTheHost() throws IOException {
        write(Map.of("proc/self/mountinfo", V1_HOST_MOUNTS,
                "proc/self/cgroup", "4:memory:/\n2:cpuacct:/\n1:cpu:/starvation-lab-quota-1\n0::/\n",
                "sys/fs/cgroup/cpu/starvation-lab-quota-1/cpu.cfs_quota_us", "150000\n",
                "sys/fs/cgroup/cpu/starvation-lab-quota-1/cpu.cfs_period_us", "100000\n",
                "sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n"));

        ContainerLimits limits = ContainerLimits.read(root);

        assertThat(limits).isEqualTo(new ContainerLimits("v1", 150_000L, 100_000L, 2, null));
        assertThat(limits.cpuLimit()).hasValue(1.5);
    }

    @Test
    void shouldReadAV1ContainerWhoseMountsStartAtItsOwnGroup() throws IOException {
        String group = "/libpod_parent/libpod-86655547a8dd";
        write(Map.of("proc/self/mountinfo", """
                        86 78 0:46 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,mode=755
                        87 86 0:28 %1$s /sys/fs/cgroup/cpu ro,nosuid,nodev,noexec,relatime - cgroup cgroup rw,cpu
                        90 86 0:31 %1$s /sys/fs/cgroup/memory ro,nosuid,nodev,noexec,relatime - cgroup cgroup rw,memory
                        """.formatted(group),
                "proc/self/cgroup", "4:memory:%1$s\n1:cpu:%1$s\n0::%1$s\n".formatted(group),
                "sys/fs/cgroup/cpu/cpu.cfs_quota_us", "100000\n",
                "sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n",
                "sys/fs/cgroup/memory/memory.limit_in_bytes", "1073741824\n"));

        assertThat(ContainerLimits.read(root)).isEqualTo(new ContainerLimits("v1", 100_000L, 100_000L, 1, 1L << 30));
    }

    @Test
    void shouldTakeTheV1MemoryLimitAParentSets() throws IOException {
        write(Map.of("proc/self/mountinfo", V1_HOST_MOUNTS,
                "proc/self/cgroup", "4:memory:/pod/lab\n1:cpu:/\n",
                "sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n",
                "sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n",
                "sys/fs/cgroup/memory/pod/lab/memory.limit_in_bytes", "9223372036854771712\n",
                "sys/fs/cgroup/memory/pod/lab/memory.stat", "cache 0\nrss 1\nhierarchical_memory_limit 2147483648\n"));

        assertThat(ContainerLimits.read(root)).isEqualTo(new ContainerLimits("v1", null, null, 2, 2L << 30));
    }

    @Test
    void shouldReadAV2QuotaOfASystemdSlice() throws IOException {
        String group = "/kubepods.slice/kubepods-pod1.slice/cri-containerd-2f1e.scope";
        write(Map.of("proc/self/mountinfo", "25 21 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n",
                "proc/self/cgroup", "0::" + group + "\n",
                "sys/fs/cgroup" + group + "/cpu.max", "400000 100000\n",
                "sys/fs/cgroup" + group + "/memory.max", "1073741824\n"));

        ContainerLimits limits = ContainerLimits.read(root);

        // 4 CPUs of quota on a machine whose process may run on 2: the JVM sees 2
        assertThat(limits).isEqualTo(new ContainerLimits("v2", 400_000L, 100_000L, 2, 1L << 30));
        assertThat(limits.cpuLimit()).hasValue(4.0);
    }

    @Test
    void shouldReadAV2ContainerInItsOwnCgroupNamespaceWithoutLimits() throws IOException {
        write(Map.of("proc/self/mountinfo", "620 610 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup ro\n",
                "proc/self/cgroup", "0::/\n",
                "proc/self/status", "Name:\tjava\nCpus_allowed_list:\t0-3,6,8-9\n",
                "sys/fs/cgroup/cpu.max", "max 100000\n",
                "sys/fs/cgroup/memory.max", "max\n"));

        assertThat(ContainerLimits.read(root)).isEqualTo(new ContainerLimits("v2", null, null, 7, null));
    }

    @Test
    void shouldRoundAFractionalQuotaUpAsTheJvmDoes() throws IOException {
        write(Map.of("proc/self/mountinfo", "25 21 0:22 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
                "proc/self/cgroup", "0::/lab\n",
                "proc/self/status", "Cpus_allowed_list:\t0-7\n",
                "sys/fs/cgroup/lab/cpu.max", "50000 100000\n"));

        assertThat(ContainerLimits.read(root).effectiveCpuCount()).as("half a CPU").isEqualTo(1);
    }

    @Test
    void shouldSeeNoContainerWhereThereIsNoCgroupFileSystem() {
        assertThat(ContainerLimits.read(root.resolve("nothing-here")))
                .isEqualTo(new ContainerLimits(null, null, null, Runtime.getRuntime().availableProcessors(), null));
    }

    private void write(Map<String, String> files) throws IOException {
        Map<String, String> all = new HashMap<>(Map.of("proc/meminfo", MEMINFO, "proc/self/status", TWO_CPUS));
        all.putAll(files);
        for (Map.Entry<String, String> file : all.entrySet()) {
            Path path = root.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.getValue());
        }
    }
}
