package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.Program;
import io.starvationlab.harness.junit.Needs;

/** The jar as any command line tool: {@code --help}, {@code -h}, {@code --version}, a bad option, and a JDK too old to run it. */
class DiagnoseCommandLineIT {

    @Test
    void helpAndVersionAnswerAsAnyCommandDoes() throws IOException {
        for (String help : List.of("--help", "-h")) {
            ChildProcess.Result result = jar(Jdks.current().launcher(), help, "--pid", "1");
            assertThat(result.exitCode()).as(help).isZero();
            assertThat(result.output()).as(help).startsWith("usage: java -jar starvation-diagnose.jar").contains("--seconds", "3 stuck");
        }
        String version;
        try (JarFile jar = new JarFile(Program.DIAGNOSE.jar().toFile())) {
            version = jar.getManifest().getMainAttributes().getValue("Implementation-Version");
            assertThat(jar.stream().map(JarEntry::getName).filter(name -> name.endsWith(".class") && !name.startsWith("io/starvationlab/diagnose/")))
                    .as("JDK classes only: of the model, JdkFacts alone").containsExactly("io/starvationlab/model/JdkFacts.class");
        }
        ChildProcess.Result result = jar(Jdks.current().launcher(), "--version");
        assertThat(result.exitCode()).isZero();
        assertThat(result.output().strip()).isEqualTo("starvation-diagnose " + version);

        ChildProcess.Result bad = jar(Jdks.current().launcher(), "--pid", "1", "--verbose");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.output()).startsWith("starvation-diagnose: unknown option --verbose").contains("usage:");
    }

    /** Issue 40: run with the machine's default java (17), the jar died with UnsupportedClassVersionError. */
    @Test
    void aJdkOlderThan21IsToldInOneLineWhichJdkItFoundAndWhatItNeeds() throws IOException {
        Path old = olderJdk().orElseGet(() -> Needs.skip("no JDK older than 21 in /usr/lib/jvm to run the jar with")).toRealPath();
        ChildProcess.Result result = jar(old.resolve("bin").resolve("java"), "--pid", "1");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output().strip()).doesNotContain("\n", "Exception", "UnsupportedClassVersionError")
                .startsWith("starvation-diagnose needs a JDK 21 or later; this is JDK ").contains(old.toString());
    }

    @Test
    void theLaunchersLineReadsEveryVersionScheme() {
        assertThat(Launcher.refusal("17", "17.0.15+6", "/jdk17")).isEqualTo("starvation-diagnose needs a JDK 21 or later; this is JDK 17.0.15+6 (/jdk17):"
                + " run the jar with the java of a JDK 21+");
        assertThat(Launcher.refusal("1.8", "1.8.0_452-b09", "/jdk8")).contains("this is JDK 1.8.0_452-b09");
        assertThat(Launcher.refusal("21", "21.0.13+9", "/jdk21")).isNull();
        assertThat(Launcher.refusal("25", "25.0.3+9-LTS", "/jdk25")).isNull();
    }

    private static ChildProcess.Result jar(Path java, String... arguments) {
        return ChildProcess.of(Stream.concat(Stream.of(java.toString(), "-jar", Program.DIAGNOSE.jar().toAbsolutePath().toString()), Stream.of(arguments))
                .toList()).run(Duration.ofMinutes(1));
    }

    /** A JDK home in /usr/lib/jvm whose release file names a version before 21. */
    private static Optional<Path> olderJdk() {
        try (Stream<Path> homes = Files.list(Path.of("/usr/lib/jvm"))) {
            return homes.filter(home -> Files.isExecutable(home.resolve("bin/java"))).filter(home -> {
                try {
                    return Files.readAllLines(home.resolve("release")).stream().filter(line -> line.startsWith("JAVA_VERSION=\"")).findFirst()
                            .map(line -> line.substring("JAVA_VERSION=\"".length())).map(v -> v.startsWith("1.") || Integer.parseInt(v.split("[.\"]")[0]) < 21)
                            .orElse(false);
                } catch (IOException | RuntimeException e) {
                    return false;
                }
            }).sorted().findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
