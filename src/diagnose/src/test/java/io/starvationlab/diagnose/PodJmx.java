package io.starvationlab.diagnose;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.starvationlab.harness.Project;

/**
 * What kubernetes/components/jmx gives a measured pod so that the diagnosis can reach it through {@code kubectl
 * port-forward}, and the diagnosis command kubernetes/README.md runs there: read from those files, so the tests run what
 * users deploy and copy, with their port replaced by a free one.
 */
final class PodJmx {

    private static final Path README = Project.resolve("kubernetes/README.md");
    private static final Path COMPONENT = Project.resolve("kubernetes/components/jmx/kustomization.yaml");
    private static final Pattern OPTIONS = Pattern.compile("name: JDK_JAVA_OPTIONS\\s+value: (.+)");
    private static final Pattern COMMAND = Pattern.compile("java -jar src/diagnose/target/starvation-diagnose\\.jar (.+)");
    private static final String PORT = "^(-Dcom\\.sun\\.management\\.jmxremote(\\.rmi)?\\.port)=\\d+$";

    private PodJmx() {
    }

    static List<String> flags(int port) {
        return words(COMPONENT, OPTIONS).stream().map(flag -> flag.replaceFirst(PORT, "$1=" + port)).toList();
    }

    /** The README's diagnosis arguments, without the watch's length ({@link Diagnosis#run} sets it). */
    static List<String> arguments(int port) {
        List<String> words = new ArrayList<>(words(README, COMMAND));
        int seconds = words.indexOf("--seconds");
        if (seconds >= 0) {
            words.subList(seconds, seconds + 2).clear();
        }
        return words.stream().map(word -> word.replaceFirst("^localhost:\\d+$", "localhost:" + port)).toList();
    }

    private static List<String> words(Path file, Pattern pattern) {
        try {
            Matcher found = pattern.matcher(Files.readString(file));
            if (!found.find()) {
                throw new IllegalStateException(file + " has no " + pattern);
            }
            return Arrays.asList(found.group(1).trim().split("\\s+"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
