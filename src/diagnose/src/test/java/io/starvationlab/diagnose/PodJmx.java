package io.starvationlab.diagnose;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.starvationlab.harness.Project;

/**
 * The JVM flags kubernetes/README.md gives a pod so that the diagnosis can reach it through
 * {@code kubectl port-forward}: read from the README itself, so the flags the tests use are the flags users copy,
 * with the README's port replaced by a free one.
 */
final class PodJmx {

    private static final Path README = Project.resolve("kubernetes/README.md");
    private static final Pattern OPTIONS = Pattern.compile("JDK_JAVA_OPTIONS=\"([^\"]+)\"");

    private PodJmx() {
    }

    static List<String> flags(int port) {
        try {
            Matcher options = OPTIONS.matcher(Files.readString(README));
            if (!options.find()) {
                throw new IllegalStateException(README + " sets no JDK_JAVA_OPTIONS=\"...\" for the diagnosis");
            }
            return Arrays.stream(options.group(1).trim().split("\\s+"))
                    .map(flag -> flag.replaceFirst("^(-Dcom\\.sun\\.management\\.jmxremote(\\.rmi)?\\.port)=\\d+$", "$1=" + port)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
