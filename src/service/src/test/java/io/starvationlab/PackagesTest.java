package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.Project;
import io.starvationlab.harness.junit.Layers;

/**
 * The service's packages, read from its sources, as the experiment's rooms are (its RoomsTest): a request runs from the
 * resources through admission and the service to the downstreams, and no class refers to a package above its own
 * ({@link Layers}). A new package takes its place in {@link #LAYERS} (and the README's layout names it: RoomsTest checks that).
 */
class PackagesTest {

    /** From the bottom up; a package may refer to itself and to those below it. */
    static final Layers LAYERS = Layers.ofPackages("config", "jvm", "observe", "database", "downstream", "service", "health", "problem",
            "admission", "rest");

    @Test
    void noClassShouldReferToAPackageAboveItsOwn() {
        LAYERS.assertNoneUp(Project.resolve("src/service/src/main"));
    }

    /** The broken fixtures: the service importing a resource, a comment and a string that name one, and a package with no layer. */
    @Test
    void shouldCatchAReferenceThatRunsUpAndAPackageWithoutALayer() {
        String up = "package io.starvationlab.service;\n\nimport io.starvationlab.admission.Admitted;\n";
        assertThat(LAYERS.upwardReferences("WorkService.java", up)).singleElement().asString().contains("service", "admission");
        String named = "package io.starvationlab.downstream;\n/** {@link io.starvationlab.rest.WorkResource} */ class X { String s = \"io.starvationlab.rest.X\"; }\n";
        assertThat(LAYERS.upwardReferences("X.java", named)).isEmpty();
        String down = "package io.starvationlab.downstream;\n\nimport io.starvationlab.config.LabConfig;\nimport io.starvationlab.meter.CarrierWaitMeter;\n";
        assertThat(LAYERS.upwardReferences("Y.java", down)).isEmpty();
        assertThat(LAYERS.upwardReferences("Z.java", "package io.starvationlab.util;\n")).singleElement().asString().contains("no place");
    }
}
