package io.starvationlab.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.starvationlab.model.JdkFacts;

/**
 * The JDKs (21 or newer) the service can be started on, one per feature version, found in this order,
 * the first found winning: the explicit list ({@code -Dlab.jdks} or {@code LAB_JDKS}: comma-separated
 * JDK homes or {@code bin/java} launchers), the JDKs installed on the machine ({@code JAVA_HOME}, the
 * running JVM, {@code /usr/lib/jvm}, SDKMAN's and macOS's folders), then the cache of
 * {@code .ci/fetch-jdks} ({@code LAB_JDK_CACHE}, default {@code ~/.cache/starvation-lab/jdks}).
 * Each JDK's version and vendor are what its own {@code java} reports.
 */
public final class Jdks {

    /** Older JDKs have no virtual threads (and JDK 8's "1.8" reads as feature 1: too old either way). */
    public static final int OLDEST_FEATURE = 21;

    /**
     * @param home     its {@code java.home}
     * @param launcher the {@code java} to start it with (for a fetched Debian JDK, a script that brings its C library)
     * @param version  its {@code java.runtime.version}, e.g. {@code 21.0.13+9-1-deb13u2-Debian}
     * @param vendor   its {@code java.vendor}
     */
    public record Jdk(Path home, Path launcher, int feature, String version, String vendor) {

        /** e.g. "JDK 21 (21.0.13+9-1-deb13u2-Debian, Debian)", as reports name it. */
        public String describe() {
            return "JDK " + feature + " (" + version + ", " + vendor + ")";
        }
    }

    private final Map<Integer, Jdk> byFeature;
    private final List<String> skipped;

    private Jdks(Map<Integer, Jdk> byFeature, List<String> skipped) {
        this.byFeature = byFeature;
        this.skipped = skipped;
    }

    /** The JDKs of this machine and of {@code -Dlab.jdks} / {@code LAB_JDKS}, in the order above. */
    public static Jdks discover() {
        String explicit = System.getProperty("lab.jdks", System.getenv().getOrDefault("LAB_JDKS", ""));
        return discover(explicit, installed(), cacheFolder());
    }

    /**
     * The JDKs of an explicit list, then of the installed homes, then of a fetch cache. An explicit entry
     * that is no JDK fails: someone named it on purpose; a found one that does not run is skipped, with the reason.
     */
    static Jdks discover(String explicit, List<Path> installed, Path cache) {
        Map<Integer, Jdk> found = new TreeMap<>();
        List<String> skipped = new ArrayList<>();
        for (String entry : explicit.split(",")) {
            if (!entry.isBlank()) {
                keepFirst(found, probe(Path.of(entry.strip())));
            }
        }
        List<Path> homes = new ArrayList<>(installed);
        homes.addAll(children(cache, "jdk-*"));
        Map<Path, Boolean> seen = new HashMap<>();
        for (Path home : homes) {
            Path launcher = home.resolve("bin").resolve(javaName());
            if (Files.isExecutable(launcher) && seen.put(realPath(home), true) == null && worthProbing(home, found)) {
                try {
                    keepFirst(found, probe(launcher));
                } catch (IllegalArgumentException e) {
                    skipped.add(e.getMessage());
                }
            }
        }
        return new Jdks(found, List.copyOf(skipped));
    }

    public Optional<Jdk> byFeature(int feature) {
        return Optional.ofNullable(byFeature.get(feature));
    }

    /** Why JDKs found on the machine or in the cache were left out: they did not run. */
    public List<String> skipped() {
        return skipped;
    }

    public static Jdk current() {
        Path home = Path.of(System.getProperty("java.home"));
        return new Jdk(home, home.resolve("bin").resolve(javaName()), Runtime.version().feature(),
                System.getProperty("java.runtime.version"), System.getProperty("java.vendor"));
    }

    /**
     * The JDK of a home or of its {@code bin/java}, as its {@code java} reports itself. Fails with the
     * reason when the path is no JDK or its {@code java} does not run.
     */
    public static Jdk probe(Path homeOrLauncher) {
        Path launcher = Files.isDirectory(homeOrLauncher) ? homeOrLauncher.resolve("bin").resolve(javaName()) : homeOrLauncher;
        if (!Files.isRegularFile(launcher) || !Files.isExecutable(launcher)) {
            throw new IllegalArgumentException(homeOrLauncher + " is not a JDK: " + launcher
                    + " is not an executable file (give a JDK home or its bin/java)");
        }
        Map<String, String> properties = properties(launcher);
        String version = properties.getOrDefault("java.runtime.version", properties.get("java.version"));
        String specification = properties.get("java.specification.version");
        if (version == null || specification == null || properties.get("java.home") == null) {
            throw new IllegalArgumentException(launcher + " is not a JDK's java: -XshowSettings:properties named no java.home, "
                    + "java.specification.version and java.runtime.version");
        }
        String vendor = properties.getOrDefault("java.vendor", properties.getOrDefault("java.vm.vendor", "unknown vendor"));
        return new Jdk(Path.of(properties.get("java.home")), launcher, JdkFacts.feature(specification), version, vendor);
    }

    /** What {@code java -XshowSettings:properties -version} prints: one "key = value" a line, indented. */
    static Map<String, String> properties(Path launcher) {
        ChildProcess.Result version;
        try {
            version = ChildProcess.of(launcher.toString(), "-XshowSettings:properties", "-version").run(Duration.ofSeconds(60));
        } catch (ChildProcess.TimedOut e) {
            throw new IllegalArgumentException(launcher + " -version did not finish within a minute", e);
        } catch (UncheckedIOException e) {
            throw new IllegalArgumentException(launcher + " did not run: " + e.getMessage(), e);
        }
        if (version.exitCode() != 0) {
            throw new IllegalArgumentException(launcher + " -version failed (exit " + version.exitCode() + "): " + version.output().strip());
        }
        Map<String, String> properties = new HashMap<>();
        for (String line : version.output().lines().toList()) {
            int equals = line.indexOf(" = ");
            if (line.startsWith("    ") && !line.startsWith("     ") && equals > 0) {
                properties.put(line.substring(0, equals).strip(), line.substring(equals + 3).strip());
            }
        }
        return properties;
    }

    /** The installed JDK homes, in the order they are preferred. */
    private static List<Path> installed() {
        List<Path> homes = new ArrayList<>();
        environment("JAVA_HOME").ifPresent(homes::add);
        homes.add(current().home());
        homes.addAll(children(Path.of("/usr/lib/jvm"), "*"));
        homes.addAll(children(Path.of(System.getProperty("user.home"), ".sdkman", "candidates", "java"), "*"));
        children(Path.of("/Library/Java/JavaVirtualMachines"), "*").forEach(bundle -> homes.add(bundle.resolve("Contents/Home")));
        return homes;
    }

    /** Where {@code .ci/fetch-jdks} puts its JDKs: the same default as the script. */
    private static Path cacheFolder() {
        return environment("LAB_JDK_CACHE").orElseGet(() -> environment("XDG_CACHE_HOME").orElse(Path.of(System.getProperty("user.home"), ".cache"))
                .resolve("starvation-lab").resolve("jdks"));
    }

    private static Optional<Path> environment(String variable) {
        return Optional.ofNullable(System.getenv(variable)).filter(value -> !value.isBlank()).map(Path::of);
    }

    private static void keepFirst(Map<Integer, Jdk> found, Jdk jdk) {
        if (jdk.feature() >= OLDEST_FEATURE) {
            found.putIfAbsent(jdk.feature(), jdk);
        }
    }

    /** Skips starting a JVM whose release file already says it is too old or of a feature version found. */
    private static boolean worthProbing(Path home, Map<Integer, Jdk> found) {
        try {
            return Files.readAllLines(home.resolve("release")).stream().filter(line -> line.startsWith("JAVA_VERSION="))
                    .map(line -> JdkFacts.feature(line.substring("JAVA_VERSION=".length()).replace("\"", ""))).findFirst()
                    .map(feature -> feature >= OLDEST_FEATURE && !found.containsKey(feature)).orElse(true);
        } catch (IOException | RuntimeException e) {
            // no readable release file: ask the JVM itself
            return true;
        }
    }

    private static List<Path> children(Path folder, String glob) {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder, glob)) {
            entries.forEach(children::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        children.sort(null);
        return children;
    }

    private static Path realPath(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }

    private static String javaName() {
        return System.getProperty("os.name", "").startsWith("Windows") ? "java.exe" : "java";
    }
}
