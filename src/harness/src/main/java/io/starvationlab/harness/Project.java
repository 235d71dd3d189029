package io.starvationlab.harness;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the repository's parts are, for every test and for the experiment: the root is {@code starvationlab.root}
 * (the build sets it to the repository's root), else the working directory.
 */
public final class Project {

    private Project() {
    }

    public static Path root() {
        return Path.of(System.getProperty("starvationlab.root", ".")).toAbsolutePath().normalize();
    }

    /** A path under the root, e.g. {@code resolve("k6/plan.json")}. */
    public static Path resolve(String relative) {
        return root().resolve(relative);
    }

    /** The packaged service: {@code lab.app.jar} when set, else the service module's build. */
    public static Path serviceJar() {
        return built(System.getProperty("lab.app.jar", resolve("src/service/target/quarkus-app/quarkus-run.jar").toString()), "src/service");
    }

    /** The diagnosis jar users run: {@code lab.diagnose.jar} when set (another build, to compare), else the diagnose module's artifact. */
    public static Path diagnoseJar() {
        return built(System.getProperty("lab.diagnose.jar", resolve("src/diagnose/target/starvation-diagnose.jar").toString()), "src/diagnose");
    }

    /** The second service's jar, its libraries beside it in {@code lib/}. */
    public static Path secondServiceJar() {
        return built(resolve("src/second-service/target/second-service.jar").toString(), "src/second-service");
    }

    /** The Spring Boot example's executable jar ({@code src/spring-boot-example}). */
    public static Path springBootExampleJar() {
        return built(resolve("src/spring-boot-example/target/spring-boot-example.jar").toString(), "src/spring-boot-example");
    }

    /** The Quarkus example's runner ({@code src/quarkus-example}), its libraries beside it. */
    public static Path quarkusExampleJar() {
        return built(resolve("src/quarkus-example/target/quarkus-app/quarkus-run.jar").toString(), "src/quarkus-example");
    }

    /** The k6 suite (its plan and cases: {@code Plan.file()}, {@code Plan.caseFile}). */
    public static Path k6() {
        return resolve("k6");
    }

    /** Where a test run's server logs go: {@code target/it-logs} of the module running it. */
    public static Path testLogs() {
        return Path.of("target", "it-logs").toAbsolutePath();
    }

    private static Path built(String path, String module) {
        Path file = Path.of(path);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("No " + file + ": build it first (./mvnw package -pl " + module + " -am)");
        }
        return file;
    }
}
