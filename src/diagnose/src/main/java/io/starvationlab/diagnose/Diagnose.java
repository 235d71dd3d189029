package io.starvationlab.diagnose;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code java -jar src/diagnose/target/starvation-diagnose.jar --pid <pid> | --jmx <host:port> [--seconds 30]}: watches a
 * running JVM, any service, with no change to its code, and says whether its virtual threads starve for
 * carriers and why. Three stages, each reading only what the one before made: {@link Sampler} observes
 * ({@link Observation}), {@link Verdict} judges, {@link Report} writes; what each JDK lets it see, the report says.
 */
public final class Diagnose {

    /**
     * This tool's own JVM: the C1 compiler alone and the serial collector. It runs for seconds on the cores of the
     * service it watches, and with the defaults its JIT compilers used more CPU than its sampling
     * (docs/starving.md, "What it costs the watched JVM").
     */
    private static final List<String> OWN_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    private static final String RELAUNCHED = "starvation.diagnose.relaunched";

    private Diagnose() {
    }

    public static void main(String[] args) {
        List<String> given = List.of(args);
        if (given.contains("--help") || given.contains("-h")) {
            System.out.print(Options.USAGE);
            System.exit(0);
        }
        if (given.contains("--version")) {
            System.out.println("starvation-diagnose " + version());
            System.exit(0);
        }
        if (System.getProperty(RELAUNCHED) == null) {
            relaunched(args).ifPresent(System::exit);
        }
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("starvation-diagnose: " + e.getMessage() + "\n\n" + Options.USAGE);
            System.exit(2);
            return;
        }
        try {
            System.exit(run(options));
        } catch (IOException e) {
            System.err.println("starvation-diagnose: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Runs this tool again with {@link #OWN_FLAGS} (a jar's manifest cannot set JVM flags), with the JVM options it was given,
     * and returns its exit status; empty where it cannot (not run from a jar, no launcher), to run here.
     */
    private static Optional<Integer> relaunched(String[] args) {
        try {
            Path jar = Path.of(Diagnose.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            if (!Files.isRegularFile(jar) || !Files.isExecutable(java)) {
                return Optional.empty();
            }
            List<String> given = ManagementFactory.getRuntimeMXBean().getInputArguments();
            if (given.stream().anyMatch(Diagnose::holdsWhatTheChildWouldNeed)) {
                return Optional.empty();
            }
            // a JVM without these flags starts anyway, rather than exit 1, which would read as starved
            List<String> command = new ArrayList<>(List.of(java.toString(), "-XX:+IgnoreUnrecognizedVMOptions"));
            command.addAll(given);
            // a collector the user chose stays: two are an error
            OWN_FLAGS.stream().filter(flag -> !flag.endsWith("GC") || given.stream().noneMatch(g -> g.matches("-XX:\\+Use\\w+GC"))).forEach(command::add);
            command.addAll(List.of("-D" + RELAUNCHED + "=true", "-cp", jar.toString(), Diagnose.class.getName()));
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
            // their options are among the given ones already: read again, they would apply twice
            builder.environment().keySet().removeAll(List.of("JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"));
            Process child = builder.start();
            Thread stop = new Thread(child::destroy);
            Runtime.getRuntime().addShutdownHook(stop);
            int exit = child.waitFor();
            Runtime.getRuntime().removeShutdownHook(stop);
            return Optional.of(exit);
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of(2);
        }
    }

    /**
     * An option this JVM holds something by while it waits for the child: an agent (a debugger's or a JMX port, say) that the child's
     * copy could not bind. With one, the tool runs here.
     */
    private static boolean holdsWhatTheChildWouldNeed(String option) {
        return option.startsWith("-agentlib:") || option.startsWith("-agentpath:") || option.startsWith("-javaagent:")
                || option.startsWith("-Dcom.sun.management.jmxremote.port=");
    }

    /** The version the jar's manifest names; "(not from a jar)" where it runs from classes. */
    static String version() {
        String version = Diagnose.class.getPackage().getImplementationVersion();
        return version == null ? "(not from a jar)" : version;
    }

    /** Observes, judges, prints the report, and returns the exit status: 0 not starved, 1 starved, 3 stuck. */
    static int run(Options options) throws IOException {
        try (TargetJvm target = TargetJvm.connect(options)) {
            System.err.printf("Watching %s (%s) for %d s ...%n", target.address(), target.facts().describe(), options.duration().toSeconds());
            Observation seen = Sampler.observe(target, options);
            Verdict verdict = Verdict.judge(seen, options.threshold());
            Report report = new Report(options, seen, verdict);
            System.out.print(report.text());
            if (options.json() != null) {
                Files.writeString(options.json(), report.json());
            }
            return verdict.stuck() ? 3 : verdict.starved() ? 1 : 0;
        }
    }
}
