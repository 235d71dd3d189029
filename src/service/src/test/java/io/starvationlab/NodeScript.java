package io.starvationlab;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.starvationlab.harness.ChildProcess;
import io.starvationlab.harness.Needs;
import io.starvationlab.harness.Project;

/** Runs one of the project's Node scripts and returns its exit code and output. */
final class NodeScript {

    static final Duration BOUND = Duration.ofMinutes(5);

    private NodeScript() {
    }

    /** The script's exit code and output; a script still running after {@link #BOUND} is ended and fails the test. */
    static ChildProcess.Result run(Map<String, String> environment, String... arguments) {
        Path node = Needs.tool("node", "Node.js 20, from the machine or nodejs.org");
        List<String> command = new ArrayList<>();
        command.add(node.toString());
        command.addAll(List.of(arguments));
        ChildProcess.Result result = ChildProcess.of(command).in(Project.root())
                .withEnvironment(environment).run(BOUND);
        System.out.println(result.output());
        return result;
    }
}
