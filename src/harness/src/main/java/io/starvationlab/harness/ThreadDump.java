package io.starvationlab.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JVM's threads, virtual ones included, from {@code jcmd <pid> Thread.dump_to_file -format=json}:
 * the only view that lists every virtual thread, parked ones too.
 */
public final class ThreadDump {

    private ThreadDump() {
    }

    public record Counts(int virtualThreads, int platformThreads) {
    }

    public static Counts count(long pid) {
        List<JsonNode> threads = threads(dump(pid));
        int virtual = (int) threads.stream().filter(thread -> thread.path("virtual").asBoolean(false)).count();
        return new Counts(virtual, threads.size() - virtual);
    }

    /** The JSON dump of every thread of {@code pid}. */
    public static JsonNode dump(long pid) {
        try {
            Path dump = Files.createTempFile("lab-threads-", ".json");
            Files.delete(dump);
            String output = Jcmd.run(pid, "Thread.dump_to_file", "-format=json", dump.toString());
            if (!Files.exists(dump)) {
                throw new IllegalStateException("jcmd could not dump the threads of " + pid + ": " + output);
            }
            JsonNode root = LabClient.json().readTree(dump.toFile());
            Files.deleteIfExists(dump);
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every thread of a dump, of all its thread containers. */
    public static List<JsonNode> threads(JsonNode dump) {
        List<JsonNode> threads = new ArrayList<>();
        dump.path("threadDump").path("threadContainers").forEach(container -> container.path("threads").forEach(threads::add));
        return threads;
    }
}
