package io.starvationlab.harness;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A program of the project the tests and the experiment run, found one way: where its module's build leaves it
 * ({@code ./mvnw package} at the root builds them all, in the root pom's order), or {@code -Dlab.<module>.jar} (another
 * build, to compare).
 */
public enum Program {

    /** The packaged service, its libraries beside it. */
    SERVICE("service", "quarkus-app/quarkus-run.jar"),
    /** The second service, its libraries beside it in {@code lib/}. */
    SECOND_SERVICE("second-service", "second-service.jar"),
    /** The Spring Boot example's executable jar. */
    SPRING_BOOT_EXAMPLE("spring-boot-example", "spring-boot-example.jar"),
    /** The Quarkus example's runner, its libraries beside it. */
    QUARKUS_EXAMPLE("quarkus-example", "quarkus-app/quarkus-run.jar"),
    /** The diagnosis jar users run. */
    DIAGNOSE("diagnose", "starvation-diagnose.jar");

    private final String module;
    private final String built;

    Program(String module, String built) {
        this.module = module;
        this.built = built;
    }

    /** The jar to run; fails, saying how to build it, where there is none. */
    public Path jar() {
        Path jar = Path.of(System.getProperty("lab." + module + ".jar", Project.resolve("src/" + module + "/target/" + built).toString()));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No " + jar + ": build it first (./mvnw package -DskipTests -pl src/" + module + " -am)");
        }
        return jar;
    }
}
