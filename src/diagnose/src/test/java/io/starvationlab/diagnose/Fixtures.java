package io.starvationlab.diagnose;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** Output of real JVMs, trimmed to a few threads: thread dumps of JDK 21, 25 and 27, a Thread.print of JDK 21. */
final class Fixtures {

    private Fixtures() {
    }

    static String read(String name) {
        try (InputStream in = Objects.requireNonNull(Fixtures.class.getResourceAsStream("fixtures/" + name), "no fixture " + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
