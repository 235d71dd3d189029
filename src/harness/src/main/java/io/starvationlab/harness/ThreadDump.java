package io.starvationlab.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Counts a JVM's threads, virtual ones included, from {@code jcmd <pid> Thread.dump_to_file -format=json}:
 * the only view that lists every virtual thread, parked ones too.
 */
public final class ThreadDump {

    private ThreadDump() {
    }

    public record Counts(int virtualThreads, int platformThreads) {
    }

    public static Counts count(long pid) {
        try {
            Path dump = Files.createTempFile("lab-threads-", ".json");
            Files.delete(dump);
            String output = Jcmd.run(pid, "Thread.dump_to_file", "-format=json", dump.toString());
            if (!Files.exists(dump)) {
                throw new IllegalStateException("jcmd could not dump the threads of " + pid + ": " + output);
            }
            JsonNode root = LabClient.json().readTree(dump.toFile());
            Files.deleteIfExists(dump);
            int virtual = 0;
            int platform = 0;
            for (JsonNode container : root.path("threadDump").path("threadContainers")) {
                for (JsonNode thread : container.path("threads")) {
                    if (thread.path("virtual").asBoolean(false)) {
                        virtual++;
                    } else {
                        platform++;
                    }
                }
            }
            return new Counts(virtual, platform);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
