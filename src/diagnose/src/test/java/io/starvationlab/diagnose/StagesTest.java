package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.Project;

/**
 * The diagnosis's stages, read from its sources, as the experiment's rooms are (its RoomsTest): data flows one way, from the words
 * every stage shares through reading the JVM and observing to the verdict and the report, and no class refers to a stage later
 * than its own. A new class must take its place in {@link #STAGES}.
 */
class StagesTest {

    /** In the order the data flows; a class may refer to its own stage and to those before it. */
    static final List<List<String>> STAGES = List.of(
            List.of("Cause", "Frame", "Json"),
            List.of("Options"),
            List.of("Mounted", "Stacks", "FrameGroups", "Holds", "ThreadDump", "Carriers", "CarrierWaits", "Sample"),
            List.of("TargetJvm", "SchedulerSettings", "FlightRecording"),
            List.of("Observation", "Sampler"),
            List.of("Verdict"),
            List.of("Report"),
            List.of("Diagnose", "Launcher"));
    private static final Path MAIN = Project.resolve("src/diagnose/src/main");
    /** Comments, then string and character literals: a name in them is no reference. */
    private static final Pattern NOT_CODE = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])'");

    @Test
    void noClassShouldReferToAStageLaterThanItsOwn() throws IOException {
        List<String> backwards = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                backwards.addAll(backwardReferences(file.getFileName().toString().replace(".java", ""), Files.readString(file)));
            }
        }
        assertThat(backwards).as("references that run back against " + STAGES).isEmpty();
    }

    /** The broken fixtures: the stacks reading the verdict, a comment and a string that name a later stage, and a class with no stage. */
    @Test
    void shouldCatchAReferenceThatRunsBackAndAClassWithoutAStage() {
        assertThat(backwardReferences("Stacks", "final class Stacks { Verdict.Cause cause; }")).singleElement().asString().contains("Stacks", "Verdict");
        assertThat(backwardReferences("Sample", "/** {@link Report} */ record Sample() { String s = \"Verdict\"; // Report\n }")).isEmpty();
        assertThat(backwardReferences("Report", "final class Report { Observation seen; Verdict verdict; }")).isEmpty();
        assertThat(backwardReferences("Helper", "final class Helper {}")).singleElement().asString().contains("no stage");
    }

    /** Each reference of the class {@code name} (its source {@code source}) to a class of a later stage, or that it has no stage. */
    static List<String> backwardReferences(String name, String source) {
        int own = stage(name);
        if (own < 0) {
            return List.of(name + " has no stage in " + STAGES);
        }
        String code = NOT_CODE.matcher(source).replaceAll(" ");
        return STAGES.subList(own + 1, STAGES.size()).stream().flatMap(List::stream)
                .filter(later -> Pattern.compile("\\b" + later + "\\b").matcher(code).find())
                .map(later -> name + " (stage " + own + ") refers to " + later + " (stage " + stage(later) + ")").toList();
    }

    private static int stage(String name) {
        for (int i = 0; i < STAGES.size(); i++) {
            if (STAGES.get(i).contains(name)) {
                return i;
            }
        }
        return -1;
    }
}
