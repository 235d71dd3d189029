package io.starvationlab;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.Project;
import io.starvationlab.harness.junit.Layers;

/**
 * The service's packages, read from its sources, as the experiment's rooms are (its RoomsTest): a request runs from the
 * resources through admission and the service to the downstreams, and no class refers to a package above its own
 * ({@link Layers}, whose own test breaks it on purpose). A new package takes its place in {@link #LAYERS} (and the README's
 * layout names it: RoomsTest checks that).
 */
class PackagesTest {

    /** From the bottom up; a package may refer to itself and to those below it. */
    static final Layers LAYERS = Layers.ofPackages("config", "jvm", "observe", "database", "downstream", "service", "health", "problem",
            "admission", "rest");

    @Test
    void noClassShouldReferToAPackageAboveItsOwn() {
        LAYERS.assertNoneUp(Project.resolve("src/service/src/main"));
    }
}
