package io.starvationlab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import io.starvationlab.harness.Project;
import io.starvationlab.harness.junit.Layers;

/**
 * The experiment's rooms, read from its sources: data flows one way, from the plan through the
 * instruments and the run to the results, the findings and the report, and no class refers to a room
 * later than its own ({@link Layers}, whose own test breaks it on purpose). A new package must take its place in
 * {@link #ROOMS}, and the README's layout must name it.
 */
class RoomsTest {

    private static final Path PROJECT = Project.root();
    /** In the order the data flows; a room may refer to itself and to the rooms before it. */
    static final Layers ROOMS = Layers.ofPackages("experiment.k6", "experiment.prometheus", "experiment.run", "experiment.results", "experiment.findings", "experiment.report", "experiment", "benchmark");

    @Test
    void noClassShouldReferToARoomLaterThanItsOwn() {
        ROOMS.assertNoneUp(PROJECT.resolve("src/experiment/src/main/java"));
    }

    @Test
    void theReadmesLayoutShouldNameEveryPackage() throws IOException {
        String readme = Files.readString(PROJECT.resolve("README.md"));
        String layout = readme.substring(readme.indexOf("## Layout"));
        List<String> unnamed = new ArrayList<>();
        for (String module : List.of("service", "harness", "harness-junit", "experiment")) {
            Path root = Path.of("src", module, "src", "main", "java", "io", "starvationlab");
            try (Stream<Path> folders = Files.walk(PROJECT.resolve(root))) {
                folders.filter(Files::isDirectory).map(folder -> PROJECT.resolve(root).relativize(folder).toString())
                        .filter(name -> !name.isEmpty())
                        .filter(name -> !layout.contains(" " + name.substring(name.lastIndexOf('/') + 1) + "/"))
                        .forEach(unnamed::add);
            }
        }
        assertThat(unnamed).as("packages the README's layout does not name").isEmpty();
    }
}
