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
 * What kubernetes/README.md gives a pod so that the diagnosis can reach it through {@code kubectl port-forward}, and
 * the diagnosis command it runs there: read from the README itself, so the tests run what users copy, with the
 * README's port replaced by a free one.
 */
final class PodJmx {

    private static final Path README = Project.resolve("kubernetes/README.md");
    private static final Pattern OPTIONS = Pattern.compile("JDK_JAVA_OPTIONS=\"([^\"]+)\"");
    private static final Pattern COMMAND = Pattern.compile("java -jar src/diagnose/target/starvation-diagnose\\.jar (.+)");
    private static final String PORT = "^(-Dcom\\.sun\\.management\\.jmxremote(\\.rmi)?\\.port)=\\d+$";

    private PodJmx() {
    }

    static List<String> flags(int port) {
        return words(OPTIONS).stream().map(flag -> flag.replaceFirst(PORT, "$1=" + port)).toList();
    }

    /** The README's diagnosis arguments, without the watch's length ({@link Diagnosis#run} sets it). */
    static List<String> arguments(int port) {
        List<String> words = new ArrayList<>(words(COMMAND));
        int seconds = words.indexOf("--seconds");
        if (seconds >= 0) {
            words.subList(seconds, seconds + 2).clear();
        }
        return words.stream().map(word -> word.replaceFirst("^localhost:\\d+$", "localhost:" + port)).toList();
    }

    private static List<String> words(Pattern pattern) {
        try {
            Matcher found = pattern.matcher(Files.readString(README));
            if (!found.find()) {
                throw new IllegalStateException(README + " has no " + pattern);
            }
            return Arrays.asList(found.group(1).trim().split("\\s+"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
