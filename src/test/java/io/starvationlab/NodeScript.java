package io.starvationlab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs one of the project's Node scripts (src/test/node) and returns its exit code and output. */
final class NodeScript {

    record Result(int exitCode, String output) {
    }

    private NodeScript() {
    }

    static Result run(Map<String, String> environment, String... arguments) {
        Path node = ExternalTool.require("node", "Node.js 20, from the machine or nodejs.org");
        List<String> command = new ArrayList<>();
        command.add(node.toString());
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .directory(Path.of(System.getProperty("lab.project.dir", ".")).toFile());
        builder.environment().putAll(environment);
        try {
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("node " + String.join(" ", arguments) + " did not finish in 5 minutes");
            }
            System.out.println(output);
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
