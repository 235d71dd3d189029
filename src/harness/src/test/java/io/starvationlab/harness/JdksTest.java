package io.starvationlab.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import io.starvationlab.harness.Jdks.Jdk;

/** JDK discovery, on the JVM running the tests: the explicit list, the fetch cache, and what is no JDK. */
class JdksTest {

    private static final Path HOME = Path.of(System.getProperty("java.home"));
    private static final int FEATURE = Runtime.version().feature();

    @TempDir
    Path temp;

    /** The running JVM as its own properties say it, which is what its java reports when named by its home. */
    @Test
    void shouldFindTheJdkOfAnExplicitHomeAsItsJavaReportsItself() {
        Jdk current = Jdks.current();
        assertThat(current.launcher()).isEqualTo(HOME.resolve("bin/java"));
        assertThat(current.describe()).startsWith("JDK " + FEATURE + " (" + System.getProperty("java.runtime.version"));

        assertThat(Jdks.discover(HOME.toString(), List.of(), temp).byFeature(FEATURE)).contains(current);
    }

    /** An explicit launcher, among empty entries, wins over the machine's JDK and the cache's of the same version; without it, the cache's is found. */
    @Test
    void shouldPreferAnExplicitLauncherToTheMachineAndTheCacheAndFindAFetchedJdkWithoutIt() throws IOException {
        Path link = Files.createSymbolicLink(temp.resolve("jdk-" + FEATURE), HOME);
        Path launcher = HOME.resolve("bin/java");

        Jdks jdks = Jdks.discover(" , " + launcher + " ,", List.of(link), temp);

        assertThat(jdks.byFeature(FEATURE).orElseThrow()).extracting(Jdk::launcher, Jdk::home).containsExactly(launcher, HOME);
        assertThat(jdks.byFeature(FEATURE - 1)).isEmpty();
        Jdk fetched = Jdks.discover("", List.of(), temp).byFeature(FEATURE).orElseThrow();
        assertThat(fetched.launcher()).isEqualTo(link.resolve("bin/java"));
        assertThat(fetched.version()).isEqualTo(System.getProperty("java.runtime.version"));
    }

    @Test
    void shouldRejectAnExplicitPathThatIsNoJdk() {
        assertThatThrownBy(() -> Jdks.discover(temp.toString(), List.of(), temp))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(temp + " is not a JDK: " + temp.resolve("bin/java") + " is not an executable file");
    }

    /** A java that does not run: named explicitly, it is refused with its reason; found, it is skipped with it. */
    @Test
    @DisabledOnOs(OS.WINDOWS)
    void shouldRejectAnExplicitJavaThatDoesNotRunAndSkipAFoundOneSayingWhy() throws IOException {
        Path broken = brokenJdk(temp.resolve("jdk-" + FEATURE));
        Path good = Files.createSymbolicLink(temp.resolve("machine-jdk"), HOME);

        assertThatThrownBy(() -> Jdks.discover(broken.toString(), List.of(), temp))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(broken.resolve("bin/java") + " -version failed (exit 1)")
                .hasMessageContaining("version `GLIBC_2.38' not found");
        Jdks jdks = Jdks.discover("", List.of(), temp);
        assertThat(jdks.byFeature(FEATURE)).isEmpty();
        assertThat(jdks.skipped()).singleElement().asString()
                .contains(broken.resolve("bin/java") + " -version failed (exit 1)");

        // a JDK of the same feature version that runs is found all the same
        assertThat(Jdks.discover("", List.of(broken, good), temp).byFeature(FEATURE).orElseThrow().home()).isEqualTo(HOME);
    }

    /** A JDK home whose java fails as Debian's does on an older C library. */
    private static Path brokenJdk(Path home) throws IOException {
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, """
                #!/bin/sh
                echo "java: /lib/x86_64-linux-gnu/libc.so.6: version \\`GLIBC_2.38' not found" >&2
                exit 1
                """);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }
}
