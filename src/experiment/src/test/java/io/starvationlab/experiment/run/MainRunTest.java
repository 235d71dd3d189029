package io.starvationlab.experiment.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.starvationlab.model.Plan;

/** Which of the plan's server JVMs a machine runs, and what the report says of those it does not. */
class MainRunTest {

    private static final Plan.Jvm DEFAULT = new Plan.Jvm("defaults", List.of(), Map.of(), null, false, null);

    @Test
    void aServerJvmShouldRunWhereItsJdkAndQuotaCanBeHadAndBeSkippedWithTheReasonElsewhere() {
        assertThat(MainRun.whyNotHere(quota(1.0), 25, null, 2)).isEmpty();
        assertThat(MainRun.whyNotHere(quota(2.0), 25, null, 2)).isEmpty();
        assertThat(MainRun.whyNotHere(DEFAULT, 25, "no cgroup here", 2)).isEmpty();
        assertThat(MainRun.whyNotHere(quota(1.0), 25, "Cannot make a cgroup under /sys/fs/cgroup/cpu: run as root", 2))
                .hasValue("no CPU quota can be set here: Cannot make a cgroup under /sys/fs/cgroup/cpu: run as root");
        // above the machine's processors the JVM takes the machine's count, so its carriers would not be the quota's
        assertThat(MainRun.whyNotHere(quota(4.0), 25, null, 2)).hasValue("a quota of 4 CPUs needs as many processors; this machine has 2");
        assertThat(MainRun.whyNotHere(quota(4.0), 25, null, 4)).isEmpty();
        Plan.Jvm legacy = new Plan.Jvm("legacy", List.of("-XX:LockingMode=1"), Map.of(), new Plan.JdkRange(21, 25), false, 4.0);
        assertThat(MainRun.whyNotHere(legacy, 26, "no cgroup here", 2)).as("the JDK first").hasValue("JDK 21-25 only; this is JDK 26");
    }

    @Test
    void aSkippedPhaseOrServerShouldSayWhichAndWhy() {
        assertThat(new MeasuredMainPlan.Skipped("quota-4-cpus", null, "a quota of 4 CPUs needs as many processors; this machine has 2"))
                .hasToString("server JVM quota-4-cpus (a quota of 4 CPUs needs as many processors; this machine has 2)");
        assertThat(new MeasuredMainPlan.Skipped("quota-1-cpu", "pinned-quota-1-cpu", "JDK -21 only")).hasToString("phase pinned-quota-1-cpu (JDK -21 only)");
    }

    private static Plan.Jvm quota(double cpus) {
        return new Plan.Jvm("inside a quota", List.of(), Map.of(), null, false, cpus);
    }
}
