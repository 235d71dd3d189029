package io.starvationlab.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a quota's group is made and what is written to it, on folders laid out as each cgroup
 * hierarchy is (the live v1 hierarchy of this machine is {@code CpuQuotaIT}'s).
 */
class CpuQuotaTest {

    @TempDir
    Path root;

    @Test
    void shouldWriteAV1QuotaUnderItsOwnCpuGroup() throws IOException {
        write(Map.of("proc/self/mountinfo", "31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
                        + "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n",
                "proc/self/cgroup", "2:cpuacct:/\n1:cpu:/ci\n0::/\n",
                "sys/fs/cgroup/cpu/ci/cpu.cfs_quota_us", "-1\n"));

        try (CpuQuota quota = CpuQuota.create(root, 1.5, Optional.empty())) {
            assertThat(quota.group().getParent()).isEqualTo(root.resolve("sys/fs/cgroup/cpu/ci"));
            assertThat(quota.group().getFileName().toString()).startsWith(CpuQuota.PREFIX + ProcessHandle.current().pid() + "-");
            assertThat(Files.readString(quota.group().resolve("cpu.cfs_quota_us"))).isEqualTo("150000");
            assertThat(Files.readString(quota.group().resolve("cpu.cfs_period_us"))).isEqualTo("100000");
            assertThat(quota.wrap(List.of("java", "-version"))).containsExactly("sh", "-c", "echo $$ > \"$0\" && exec \"$@\"",
                    quota.group().resolve("cgroup.procs").toString(), "java", "-version");
            quota.close();
            assertThat(quota.group()).doesNotExist();
        }
    }

    @Test
    void shouldMakeAV2GroupBesideItsOwnAndHandItTheCpuController() throws IOException {
        write(Map.of("proc/self/mountinfo", "25 21 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n",
                "proc/self/cgroup", "0::/user.slice/session-1.scope\n",
                "sys/fs/cgroup/user.slice/cgroup.controllers", "cpuset cpu io memory pids\n",
                "sys/fs/cgroup/user.slice/cgroup.subtree_control", "memory pids\n"));

        try (CpuQuota quota = CpuQuota.create(root, 2, Optional.empty())) {
            Path slice = root.resolve("sys/fs/cgroup/user.slice");
            assertThat(quota.group().getParent()).as("a v2 group with processes in it cannot have children").isEqualTo(slice);
            assertThat(Files.readString(slice.resolve("cgroup.subtree_control"))).isEqualTo("+cpu");
            assertThat(Files.readString(quota.group().resolve("cpu.max"))).isEqualTo("200000 100000");
        }
    }

    @Test
    void shouldSayWhyWhenNoCgroupIsMountedOrV2OffersNoCpuController() throws IOException {
        write(Map.of("proc/self/mountinfo", "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n", "proc/self/cgroup", ""));
        assertThatThrownBy(() -> CpuQuota.create(root, 1, Optional.empty())).isInstanceOf(CpuQuota.Unavailable.class)
                .hasMessageContaining("No cgroup file system with the cpu controller");

        write(Map.of("proc/self/mountinfo", "25 21 0:22 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
                "proc/self/cgroup", "0::/user.slice/session-1.scope\n",
                "sys/fs/cgroup/user.slice/cgroup.controllers", "memory pids\n"));
        assertThatThrownBy(() -> CpuQuota.create(root, 1, Optional.empty())).isInstanceOf(CpuQuota.Unavailable.class)
                .hasMessageContaining("The cpu controller is not available in").hasMessageContaining("LAB_CGROUP_PARENT");
    }

    @Test
    void shouldRemoveAGroupLeftByARunThatIsGoneAndTakeTheGroupItIsGiven() throws IOException {
        write(Map.of("proc/self/mountinfo", "31 30 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n",
                "proc/self/cgroup", "1:cpu:/\n",
                "sys/fs/cgroup/cpu/" + CpuQuota.PREFIX + "2147483646-1/cpu.cfs_quota_us", "100000",
                "sys/fs/cgroup/cpu/unrelated-group/cpu.cfs_quota_us", "100000"));

        try (CpuQuota quota = CpuQuota.create(root, 1, Optional.empty())) {
            assertThat(root.resolve("sys/fs/cgroup/cpu/" + CpuQuota.PREFIX + "2147483646-1")).doesNotExist();
            assertThat(root.resolve("sys/fs/cgroup/cpu/unrelated-group")).exists();
            assertThat(quota.group()).exists();
        }
        Path delegated = Files.createDirectories(root.resolve("sys/fs/cgroup/cpu/delegated"));

        try (CpuQuota quota = CpuQuota.create(root, 1, Optional.of(delegated))) {
            assertThat(quota.group().getParent()).isEqualTo(delegated);
        }
    }

    private void write(Map<String, String> files) throws IOException {
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path path = root.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.getValue());
        }
    }
}
