package io.starvationlab.diagnose;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

/**
 * {@code java -jar src/diagnose/target/starvation-diagnose.jar --pid <pid> | --jmx <host:port> [--seconds 30]}: watches a
 * running JVM, any service, with no change to its code, and says whether its virtual threads starve for
 * carriers and why. The rule is {@link Verdict}'s; what each JDK lets it see, the report says.
 */
public final class Diagnose {

    private Diagnose() {
    }

    public static void main(String[] args) {
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

    /** Diagnoses, prints the report, and returns the exit status: 0 not starved, 1 starved. */
    static int run(Options options) throws IOException {
        try (TargetJvm target = TargetJvm.connect(options)) {
            TargetJvm.Facts facts = target.facts();
            System.err.printf("Watching %s (%s) for %d s ...%n", target.address(), facts.describe(), options.duration().toSeconds());
            Stacks stacks = new Stacks(options.skip());
            var mxBean = target.scheduler();
            FlightRecording recording = null;
            String noRecording = null;
            if (!target.hasFlightRecorder()) {
                noRecording = "this JVM has no FlightRecorder MXBean (no jdk.management.jfr module)";
            } else {
                recording = FlightRecording.of(target, options.pinnedThreshold(), mxBean.isPresent());
            }
            try {
                SchedulerSettings scheduler = SchedulerSettings.of(facts, mxBean);
                Observation seen = new Sampler(target, options, stacks, scheduler.parallelism(), recording).run();
                Holds pinned = new Holds();
                FrameGroups samples = new FrameGroups();
                if (recording != null) {
                    recording.finish();
                }
                if (recording != null && recording.notStarted() != null) {
                    noRecording = recording.notStarted();
                    recording.close();
                    recording = null;
                } else if (recording != null) {
                    recording.pinned().forEach(e -> pinned.add(stacks.hold(e.asMounted(), true), e.frames(), e.duration(), e.reason(), List.of()));
                    recording.virtualSamples().forEach(frames -> samples.add(stacks.named(frames), frames, null, null, null, List.of()));
                    if (recording.failure() != null) {
                        noRecording = "the JFR stream failed: " + recording.failure();
                    }
                }
                seen.ownCpu = ProcessHandle.current().info().totalCpuDuration().orElse(null);
                Verdict verdict = Verdict.judge(seen, pinned, samples, recording == null ? null : recording.starts(), scheduler.parallelism(), facts,
                        options.threshold());
                Report report = new Report(options, facts, target.address(), scheduler, seen, pinned, samples, Report.startsPerSecond(recording),
                        verdict, Report.visibility(seen, mxBean.isPresent(), recording, noRecording), stacks.skipped());
                System.out.print(report.text());
                if (options.json() != null) {
                    Files.writeString(options.json(), report.json());
                }
                return verdict.starved() ? 1 : 0;
            } finally {
                if (recording != null) {
                    recording.close();
                }
            }
        }
    }
}
