package io.starvationlab.harness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A module's layers, read from its sources: a class may refer to its own layer and to those below it, never to one
 * above. Each layer names packages under {@code io.starvationlab} ({@code "experiment.k6"}) or classes
 * ({@code "diagnose.Verdict"}); a class takes its own name's place, else its package's, and a class with neither fails,
 * so that a new one must take its place. A name in a comment or a string is no reference.
 *
 * @param bottomUp the layers, the lowest first
 */
public record Layers(List<List<String>> bottomUp) {

    /** Comments, then string and character literals. */
    private static final Pattern NOT_CODE = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])'");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package io\\.starvationlab\\.([a-z0-9.]+);");
    /** A qualified name: its package under io.starvationlab, then its class. */
    private static final Pattern QUALIFIED = Pattern.compile("io\\.starvationlab\\.((?:[a-z0-9]+\\.)+)([A-Z]\\w*)");

    public Layers {
        bottomUp = bottomUp.stream().map(List::copyOf).toList();
    }

    /** One package a layer, the lowest first. */
    public static Layers ofPackages(String... bottomUp) {
        return new Layers(Stream.of(bottomUp).map(List::of).toList());
    }

    /** The classes of one package, in layers, the lowest first. */
    public static Layers ofClasses(String pkg, List<List<String>> bottomUp) {
        return new Layers(bottomUp.stream().map(layer -> layer.stream().map(name -> pkg + "." + name).toList()).toList());
    }

    /** No reference running up in the Java sources under {@code roots}, or a failure that lists each. */
    public void assertNoneUp(Path... roots) {
        List<String> upwards = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    upwards.addAll(upwardReferences(file.getFileName().toString(), Files.readString(file)));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(upwards).as("references that run up against %s", bottomUp).isEmpty();
    }

    /** Each reference of {@code source} (the file {@code file}) to a layer above its own, or that it has no place. */
    public List<String> upwardReferences(String file, String source) {
        Matcher declared = PACKAGE.matcher(source);
        if (!declared.find()) {
            return List.of(file + ": no package under io.starvationlab");
        }
        String pkg = declared.group(1);
        String own = pkg + "." + file.replaceFirst("\\.java$", "");
        int ownLayer = layerOf(pkg, own);
        if (ownLayer < 0) {
            return List.of(file + ": " + own + " has no place in " + bottomUp);
        }
        String code = NOT_CODE.matcher(source.substring(declared.end())).replaceAll(" ");
        List<String> targets = new ArrayList<>();
        QUALIFIED.matcher(code).results().forEach(name -> targets.add(name.group(1) + name.group(2)));
        // a class of the same package needs no import: its simple name
        bottomUp.stream().flatMap(List::stream).filter(name -> name.startsWith(pkg + ".") && name.indexOf('.', pkg.length() + 1) < 0)
                .filter(name -> !name.equals(own) && Pattern.compile("\\b" + name.substring(pkg.length() + 1) + "\\b").matcher(code).find())
                .forEach(targets::add);
        return targets.stream().filter(target -> layerOf(target.substring(0, target.lastIndexOf('.')), target) > ownLayer)
                .map(target -> file + " (" + nameOf(pkg, own) + ") refers to " + nameOf(target.substring(0, target.lastIndexOf('.')), target))
                .distinct().sorted().toList();
    }

    /** The layer of the class {@code qualified}: its own name's, else its package's; -1 for neither. */
    private int layerOf(String pkg, String qualified) {
        int byClass = indexOf(qualified);
        return byClass >= 0 ? byClass : indexOf(pkg);
    }

    private String nameOf(String pkg, String qualified) {
        return indexOf(qualified) >= 0 ? qualified : pkg;
    }

    private int indexOf(String name) {
        for (int i = 0; i < bottomUp.size(); i++) {
            if (bottomUp.get(i).contains(name)) {
                return i;
            }
        }
        return -1;
    }
}
