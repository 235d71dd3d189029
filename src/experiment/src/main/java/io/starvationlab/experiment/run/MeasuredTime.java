package io.starvationlab.experiment.run;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The job's benchmark of itself: how long it took and where the time went.
 *
 * @param buildSeconds the Maven build before the run, when Maven started it; null otherwise
 * @param runSeconds   the run, from the plan read to the report written, its set-up included
 * @param parts        each part's seconds on the run's own thread, in the order each first took time; set-up's first ({@link RunClock#SET_UP})
 * @param starts       every server JVM's start: how long it took, and how much of that the run waited for
 */
public record MeasuredTime(Double buildSeconds, double runSeconds, Map<String, Double> parts, List<ServerStarts.Start> starts) {

    /** The run's time on {@code clock} so far, the build before it if Maven started this JVM, and the starts so far. */
    public static MeasuredTime of(RunClock clock, ServerStarts starts) {
        return new MeasuredTime(mavenBuildSeconds(clock).orElse(null), clock.seconds(), clock.parts(), starts.starts());
    }

    /** What was set up before the first measured window: the Maven build and the run's own set-up parts. */
    public double setUpSeconds() {
        return (buildSeconds == null ? 0 : buildSeconds) + parts.entrySet().stream().filter(part -> part.getKey().startsWith(RunClock.SET_UP))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    /** The run itself, set-up aside: from its first server JVM to the report written. */
    public double measuredSeconds() {
        return runSeconds - parts.entrySet().stream().filter(part -> part.getKey().startsWith(RunClock.SET_UP)).mapToDouble(Map.Entry::getValue).sum();
    }

    /**
     * From the start of the Maven JVM that started this one to run the job (exec-maven-plugin's {@code exec}) to this JVM's
     * start, for the job's first run only (the clock within a minute of this JVM's start: a repeat's build is the first's);
     * none where the job runs inside another JVM (a test's).
     */
    private static Optional<Double> mavenBuildSeconds(RunClock clock) {
        ProcessHandle.Info self = ProcessHandle.current().info();
        boolean jobJvm = self.arguments().stream().flatMap(Arrays::stream).anyMatch(argument -> argument.endsWith(".ExperimentRunner"));
        Optional<Instant> started = self.startInstant().filter(start -> Duration.between(start, clock.startedAt()).toSeconds() < 60);
        if (!jobJvm || started.isEmpty()) {
            return Optional.empty();
        }
        return ProcessHandle.current().parent().map(ProcessHandle::info).filter(info -> info.commandLine().orElse("").contains("maven"))
                .flatMap(ProcessHandle.Info::startInstant).map(maven -> Duration.between(maven, started.get()).toMillis() / 1000.0);
    }
}
