package io.starvationlab.harness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.Project;

/**
 * The harness's layers (src/harness, then this module's JUnit part), read from their sources: from the machine through
 * processes and servers to what reads a server, load, and the tests' part, and no class refers to a layer above its own.
 */
class HarnessLayersTest {

    static final Layers LAYERS = new Layers(List.of(
            List.of("harness.Machine", "harness.Project", "harness.Program"),
            List.of("harness.ChildProcess", "harness.Jcmd", "harness.Jdks", "harness.K6Binary", "harness.CpuQuota"),
            List.of("harness.ServerProcess", "harness.LabServer", "harness.SecondServiceProcess"),
            List.of("harness.PrometheusText", "harness.LabClient", "harness.Gauges", "harness.ServerJdk", "harness.ThreadDump"),
            List.of("harness.load"),
            List.of("harness.junit")));

    @Test
    void noClassShouldReferToALayerAboveItsOwn() {
        LAYERS.assertNoneUp(Project.resolve("src/harness/src/main"), Project.resolve("src/harness-junit/src/main"));
    }

    /**
     * The broken fixtures: the arrow this check was written against (a CPU quota pausing through the lab server), the same
     * through a qualified name, a comment and a string that name a server, a load that is the servers' to use, and a class
     * with no place.
     */
    @Test
    void shouldCatchAReferenceThatRunsUpAndAClassWithoutAPlace() {
        String quota = "package io.starvationlab.harness;\n\nfinal class CpuQuota { void f() { LabServer.sleep(null); } }\n";
        assertThat(LAYERS.upwardReferences("CpuQuota.java", quota)).singleElement().asString().contains("harness.CpuQuota", "harness.LabServer");
        // from a package no layer names a class of: only the qualified name can catch it
        String qualified = "package io.starvationlab.harness.load;\n\nclass ClosedLoad { io.starvationlab.harness.junit.Servers servers; }\n";
        assertThat(LAYERS.upwardReferences("ClosedLoad.java", qualified)).singleElement().asString().contains("refers to harness.junit");
        String named = "package io.starvationlab.harness;\n/** {@link LabServer} */ final class Machine { String s = \"LabServer\"; // LabServer\n}\n";
        assertThat(LAYERS.upwardReferences("Machine.java", named)).isEmpty();
        String down = "package io.starvationlab.harness.load;\n\nimport io.starvationlab.harness.LabServer;\nimport io.starvationlab.model.JdkFacts;\n";
        assertThat(LAYERS.upwardReferences("OverloadRun.java", down)).isEmpty();
        assertThat(LAYERS.upwardReferences("Helper.java", "package io.starvationlab.harness;\nfinal class Helper {}\n")).singleElement()
                .asString().contains("no place");
    }
}
