package io.starvationlab;

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
 * The service's packages, read from its sources, as the experiment's rooms are (its RoomsTest): a request runs from the
 * resources through admission and the service to the downstreams, and no class refers to a package above its own. A new
 * package takes its place in {@link #LAYERS} (and the README's layout names it: RoomsTest checks that).
 */
class PackagesTest {

    /** From the bottom up; a package may refer to itself and to those below it. A sub-package is its parent's. */
    static final List<String> LAYERS = List.of("config", "jvm", "observe", "database", "downstream", "service", "health", "problem",
            "admission", "rest");
    private static final Path MAIN = Project.resolve("src/service/src/main");
    /** Comments, then string and character literals: a name in them is no reference. */
    private static final Pattern NOT_CODE = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])'");
    private static final Pattern REFERENCE = Pattern.compile("io\\.starvationlab\\.([a-z0-9]+)(?:\\.[a-z0-9]+)*\\.[A-Z]");

    @Test
    void noClassShouldReferToAPackageAboveItsOwn() throws IOException {
        List<String> upwards = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                upwards.addAll(upwardReferences(file.getFileName().toString(), Files.readString(file)));
            }
        }
        assertThat(upwards).as("references that run up against " + LAYERS).isEmpty();
    }

    /** The broken fixtures: the service importing a resource, a comment and a string that name one, and a package with no layer. */
    @Test
    void shouldCatchAReferenceThatRunsUpAndAPackageWithoutALayer() {
        String up = "package io.starvationlab.service;\n\nimport io.starvationlab.admission.Admitted;\n";
        assertThat(upwardReferences("WorkService.java", up)).singleElement().asString().contains("service", "admission");
        String named = "package io.starvationlab.downstream;\n/** {@link io.starvationlab.rest.WorkResource} */ class X { String s = \"io.starvationlab.rest.X\"; }\n";
        assertThat(upwardReferences("X.java", named)).isEmpty();
        String down = "package io.starvationlab.database.embedded;\n\nimport io.starvationlab.config.LabConfig;\nimport io.starvationlab.meter.CarrierWaitMeter;\n";
        assertThat(upwardReferences("Y.java", down)).isEmpty();
        assertThat(upwardReferences("Z.java", "package io.starvationlab.util;\n")).singleElement().asString().contains("no layer");
    }

    /** Each reference of {@code source} (the file {@code name}) to a package above its own, or its package if it has no layer. */
    static List<String> upwardReferences(String name, String source) {
        Matcher declared = Pattern.compile("(?m)^package io\\.starvationlab\\.([a-z0-9]+)[a-z0-9.]*;").matcher(source);
        if (!declared.find()) {
            return List.of(name + ": no package");
        }
        String own = declared.group(1);
        if (!LAYERS.contains(own)) {
            return List.of(name + ": package " + own + " has no layer in " + LAYERS);
        }
        String code = NOT_CODE.matcher(source.substring(declared.end())).replaceAll(" ");
        return REFERENCE.matcher(code).results().map(reference -> reference.group(1))
                .filter(target -> LAYERS.indexOf(target) > LAYERS.indexOf(own)).distinct().sorted()
                .map(target -> name + " (" + own + ") refers to " + target).toList();
    }
}
