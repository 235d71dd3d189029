package io.starvationlab.diagnose;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.Project;
import io.starvationlab.harness.junit.Layers;

/**
 * The diagnosis's stages, read from its sources, as the experiment's rooms are (its RoomsTest): data flows one way, from the words
 * every stage shares through reading the JVM and observing to the verdict and the report, and no class refers to a stage later
 * than its own ({@link Layers}, whose own test breaks it on purpose). A new class must take its place in {@link #STAGES}.
 */
class StagesTest {

    /** In the order the data flows; a class may refer to its own stage and to those before it. */
    static final Layers STAGES = Layers.ofClasses("diagnose", List.of(
            List.of("Cause", "Frame", "Json"),
            List.of("Options"),
            List.of("Mounted", "Stacks", "FrameGroups", "Holds", "ThreadDump", "Carriers", "CarrierWaits", "Sample"),
            List.of("TargetJvm", "SchedulerSettings", "FlightRecording"),
            List.of("Observation", "Sampler"),
            List.of("Verdict"),
            List.of("Report"),
            List.of("Diagnose", "Launcher")));

    @Test
    void noClassShouldReferToAStageLaterThanItsOwn() {
        STAGES.assertNoneUp(Project.resolve("src/diagnose/src/main"));
    }
}
