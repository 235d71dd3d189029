package io.starvationlab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import io.starvationlab.harness.Project;

/**
 * The experiment's rooms, read from its sources: data flows one way, from the plan through the
 * instruments and the run to the results, the findings and the report, and no class refers to a room
 * later than its own. A new package must take its place in {@link #ROOMS}, and the README's layout
 * must name it.
 */
class RoomsTest {

    private static final Path PROJECT = Project.root();
    private static final Path SOURCES = PROJECT.resolve(Path.of("src", "experiment", "src", "main", "java"));
    /** In the order the data flows; a room may refer to itself and to the rooms before it. */
    static final List<String> ROOMS = List.of("experiment.k6", "experiment.prometheus", "experiment.run", "experiment.results", "experiment.findings", "experiment.report", "experiment", "benchmark");
    private static final Pattern REFERENCE = Pattern.compile("io\\.starvationlab\\.((?:experiment|benchmark)(?:\\.[a-z0-9]+)?)\\.[A-Z]");

    @Test
    void noClassShouldReferToARoomLaterThanItsOwn() throws IOException {
        List<String> backwards = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                backwards.addAll(backwardReferences(SOURCES.relativize(file).toString(), Files.readString(file)));
            }
        }
        assertThat(backwards).as("references that run back against " + ROOMS).isEmpty();
    }

    /** The broken fixture: the plan reading a finding, and a package that has no room. */
    @Test
    void shouldCatchAReferenceThatRunsBackAndAPackageWithoutARoom() {
        String run = "package io.starvationlab.experiment.run;\n\nimport io.starvationlab.experiment.findings.Finding;\n";
        assertThat(backwardReferences("MainRun.java", run)).singleElement().asString().contains("experiment.run", "experiment.findings");
        String inline = "package io.starvationlab.experiment.results;\n\nclass X { io.starvationlab.experiment.report.ReportText text; }\n";
        assertThat(backwardReferences("X.java", inline)).hasSize(1);
        String homeless = "package io.starvationlab.experiment.misc;\n";
        assertThat(backwardReferences("Y.java", homeless)).singleElement().asString().contains("no room");
        String forward = "package io.starvationlab.experiment.report;\n\nimport io.starvationlab.harness.load.PhaseResult;\n";
        assertThat(backwardReferences("Z.java", forward)).isEmpty();
    }

    @Test
    void theReadmesLayoutShouldNameEveryPackage() throws IOException {
        String readme = Files.readString(PROJECT.resolve("README.md"));
        String layout = readme.substring(readme.indexOf("## Layout"));
        List<String> unnamed = new ArrayList<>();
        for (String module : List.of("service", "harness", "experiment")) {
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

    /** Each reference of {@code source} (the file {@code name}) to a room later than its own, or its package if it has no room. */
    static List<String> backwardReferences(String name, String source) {
        Matcher declared = Pattern.compile("(?m)^package io\\.starvationlab\\.([a-z0-9.]+);").matcher(source);
        if (!declared.find()) {
            return List.of(name + ": no package");
        }
        String room = declared.group(1);
        if (!ROOMS.contains(room)) {
            return List.of(name + ": package " + room + " has no room in " + ROOMS);
        }
        return REFERENCE.matcher(source.substring(declared.end())).results().map(reference -> reference.group(1))
                .filter(target -> ROOMS.contains(target) && ROOMS.indexOf(target) > ROOMS.indexOf(room)).distinct().sorted()
                .map(target -> name + " (" + room + ") refers to " + target).toList();
    }
}
