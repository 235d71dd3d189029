package io.starvationlab.harness.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.Machine;

/**
 * Closed loads over one HTTP/2 client, in a JVM of their own: every stream shares the client's
 * connection, and the client's threads compete with nothing the test JVM runs. Prints one line per
 * path: {@code <path> statuses={<status>=<count>, ...} p99=<ms> max=<ms>}.
 */
public final class Http2LoadProcess {

    private Http2LoadProcess() {
    }

    /** Arguments: base URI, seconds, then {@code path=concurrency} pairs; paths after {@code --after=S} start S seconds later. */
    public static void main(String[] args) throws Exception {
        URI base = URI.create(args[0]);
        Duration length = Duration.ofSeconds(Long.parseLong(args[1]));
        HttpClient client = ClosedLoad.http2Client();
        Map<String, ClosedLoad> loads = new LinkedHashMap<>();
        long started = System.nanoTime();
        for (int i = 2; i < args.length; i++) {
            if (args[i].startsWith("--after=")) {
                Machine.pause(Duration.ofSeconds(Long.parseLong(args[i].substring("--after=".length()))));
                continue;
            }
            String[] pathAndConcurrency = args[i].split("=(?=\\d+$)");
            loads.put(pathAndConcurrency[0], ClosedLoad.startThrough(client, base.resolve(pathAndConcurrency[0]),
                    Integer.parseInt(pathAndConcurrency[1]), Duration.ofSeconds(60)));
        }
        Machine.pause(length.minusNanos(System.nanoTime() - started));
        List<String> lines = new ArrayList<>();
        loads.forEach((path, load) -> {
            Latencies latencies = load.stop(Duration.ofSeconds(20)).latencies();
            lines.add(String.format(Locale.ROOT, "%s statuses=%s p99=%.1f max=%.1f", path, latencies.statuses(), latencies.percentileMillis(99),
                    latencies.maxMillis()));
        });
        lines.forEach(System.out::println);
        System.exit(0);
    }

    /** Runs {@link #main} in a new JVM of the test's JDK and class path; returns each path's line. */
    public static Map<String, String> run(URI base, Duration length, List<String> pathsAndConcurrency) {
        List<String> command = new ArrayList<>(List.of(Jdks.current().launcher().toString(), "-cp", System.getProperty("java.class.path"),
                Http2LoadProcess.class.getName(), base.toString(), String.valueOf(length.toSeconds())));
        command.addAll(pathsAndConcurrency);
        ChildProcess.Result result = ChildProcess.of(command).withErrorsToConsole().run(length.plusSeconds(120));
        if (result.exitCode() != 0) {
            throw new IllegalStateException("the HTTP/2 load process exited with " + result.exitCode() + ": " + command + "\n" + result.output());
        }
        Map<String, String> lines = new LinkedHashMap<>();
        result.output().lines().filter(line -> line.startsWith("/")).forEach(line -> lines.put(line.substring(0, line.indexOf(' ')), line));
        return lines;
    }
}
