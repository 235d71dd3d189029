package io.starvationlab.harness;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged service, started as its own JVM with 4 carriers ({@code -XX:ActiveProcessorCount=4}),
 * or inside a CPU quota whose CPUs set them ({@link #startInCpuQuota}), and whatever flags a phase needs, so load and probes come from another JVM than the one they measure;
 * on the JDK running this code, or on any other JDK {@link Jdks} found.
 */
public final class LabServer extends ServerProcess {

    public static final int CARRIERS = 4;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    /** The collector's and the safepoints' pauses in every server's log, on the wall clock the report's phases use: the first suspects when anything on it is late. */
    private static final String PAUSE_LOG = "-Xlog:gc,safepoint:stdout:utctime,uptime,level,tags";
    /** Vert.x's words: "Thread Thread[#45,vert.x-eventloop-thread-2,5,main] has been blocked for 2345 ms, time limit is 2000 ms". */
    private static final Pattern BLOCKED_EVENT_LOOP = Pattern.compile("Thread\\[[^\\]]*?(vert\\.x-eventloop-thread-\\d+)[^\\]]*\\] has been blocked for (\\d+) ms");

    private final Jdks.Jdk jdk;
    private final CpuQuota quota;

    private LabServer(ServerProcess process, Jdks.Jdk jdk, CpuQuota quota) {
        super(process);
        this.jdk = jdk;
        this.quota = quota;
    }

    /**
     * Starts the service on {@code jdk} and returns once {@code /q/health/ready} answers 200 and
     * {@code /lab/info} has measured the JVM. A JVM that refuses its flags fails with what it printed.
     */
    public static LabServer start(Jdks.Jdk jdk, List<String> jvmFlags, Map<String, String> properties, Path logDirectory, String name) {
        return launch(jdk, null, jvmFlags, properties, logDirectory, name);
    }

    /**
     * Starts the service on {@code jdk} inside a CPU quota of {@code cpus} CPUs, as a container with that
     * CPU limit runs it: no {@code -XX:ActiveProcessorCount}, so its processors and carriers come from
     * the quota. The quota's group goes when the server is closed, or when it fails to start.
     *
     * @throws CpuQuota.Unavailable where no quota can be set, saying why
     */
    public static LabServer startInCpuQuota(Jdks.Jdk jdk, double cpus, List<String> jvmFlags, Map<String, String> properties, Path logDirectory,
            String name) {
        if (jvmFlags.stream().anyMatch(flag -> flag.startsWith("-XX:ActiveProcessorCount"))) {
            throw new IllegalArgumentException("-XX:ActiveProcessorCount would override the quota: " + jvmFlags);
        }
        CpuQuota quota = CpuQuota.create(cpus);
        try {
            return launch(jdk, quota, jvmFlags, properties, logDirectory, name);
        } catch (RuntimeException e) {
            quota.close();
            throw e;
        }
    }

    private static LabServer launch(Jdks.Jdk jdk, CpuQuota quota, List<String> jvmFlags, Map<String, String> properties, Path logDirectory,
            String name) {
        int port = Machine.freePort();
        List<String> command = command(jdk, quota == null, jvmFlags, port, properties);
        ServerProcess process = ServerProcess.start(name, quota == null ? command : quota.wrap(command), logDirectory.resolve(name + ".log"),
                URI.create("http://localhost:" + port), "/q/health/ready", START_TIMEOUT);
        // /lab/info answers once the start-up measurement of synchronized pinning is done
        status(process.uri("/lab/info"), Duration.ofSeconds(30));
        return new LabServer(process, jdk, quota);
    }

    private static List<String> command(Jdks.Jdk jdk, boolean fixedCarriers, List<String> jvmFlags, int port, Map<String, String> properties) {
        List<String> command = new ArrayList<>();
        command.add(jdk.launcher().toString());
        if (fixedCarriers) {
            command.add("-XX:ActiveProcessorCount=" + CARRIERS);
        }
        command.add(PAUSE_LOG);
        command.addAll(jvmFlags);
        command.add("-Dquarkus.http.port=" + port);
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-jar");
        command.add(Program.SERVICE.jar().toAbsolutePath().toString());
        return command;
    }

    /**
     * Starts the service and waits for it to exit, for configurations it must refuse.
     *
     * @return the exit code and everything the service printed
     * @throws ChildProcess.TimedOut when it still runs after {@code timeout}: it and what it started are ended
     */
    public static ChildProcess.Result runUntilExit(List<String> jvmFlags, Map<String, String> properties, Duration timeout) {
        return ChildProcess.of(command(Jdks.current(), false, jvmFlags, Machine.freePort(), properties)).run(timeout);
    }

    public Jdks.Jdk jdk() {
        return jdk;
    }

    /** A warning of Vert.x's blocked-thread checker about an event loop: which, for how long so far, and the whole entry with its stack. */
    public record BlockedEventLoop(String thread, long blockedMillis, String warning) {
    }

    /**
     * Every warning of Vert.x's blocked-thread checker about an event loop in the server's log so far,
     * each with the stack under it. A server under starvation owes none: an event loop that waits stops
     * every connection it serves, liveness included. The checker warns once an event loop has run one
     * task for {@code quarkus.vertx.max-event-loop-execute-time} (2 s), then every second while it lasts.
     */
    public List<BlockedEventLoop> eventLoopBlockedWarnings() {
        return eventLoopBlockedWarnings(logText());
    }

    /** The same warnings in any service's log text: a container's, read from its engine. */
    public static List<BlockedEventLoop> eventLoopBlockedWarnings(String log) {
        List<BlockedEventLoop> warnings = new ArrayList<>();
        for (String entry : log.split("\n(?=\\S)")) {
            Matcher blocked = BLOCKED_EVENT_LOOP.matcher(entry);
            if (entry.contains("BlockedThreadChecker") && blocked.find()) {
                warnings.add(new BlockedEventLoop(blocked.group(1), Long.parseLong(blocked.group(2)), entry.strip()));
            }
        }
        return warnings;
    }

    public Optional<CpuQuota> cpuQuota() {
        return Optional.ofNullable(quota);
    }

    @Override
    public void close() {
        super.close();
        if (quota != null) {
            quota.close();
        }
    }
}
