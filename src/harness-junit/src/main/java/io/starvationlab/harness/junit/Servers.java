package io.starvationlab.harness.junit;

import static org.junit.jupiter.api.Assertions.assertAll;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.function.Executable;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.LabServer;
import io.starvationlab.harness.Project;
import io.starvationlab.harness.SecondServiceProcess;

/**
 * The one lifecycle of the servers an integration test starts:
 * {@code @RegisterExtension static final Servers servers = new Servers();}. A server started through it before the
 * tests ({@code @BeforeAll}) runs until the class ends; one started inside a test ends with that test. After every
 * test, each lab server still running is judged by Vert.x's blocked-thread checker: a warning about an event loop,
 * new since the last judgement, fails the test with its stack. A server started with
 * {@link #labExpectingBlockedEventLoops} is left to its test to judge.
 */
public final class Servers implements BeforeEachCallback, AfterEachCallback, AfterAllCallback {

    private final Deque<AutoCloseable> forClass = new ArrayDeque<>();
    private final Deque<AutoCloseable> forTest = new ArrayDeque<>();
    /** The lab servers judged after each test, with how many warnings of each were already reported. */
    private final Map<LabServer, Integer> judged = new HashMap<>();
    private boolean inTest;

    /** The service on the JDK running the tests, 4 carriers, with these system properties. */
    public LabServer lab(String name, Map<String, String> properties) {
        return lab(Jdks.current(), List.of(), properties, name);
    }

    /** The service on {@code jdk}, with these JVM flags and system properties. */
    public LabServer lab(Jdks.Jdk jdk, List<String> flags, Map<String, String> properties, String name) {
        return judged(keep(LabServer.start(jdk, flags, properties, Project.testLogs(), name)));
    }

    /** The service inside a CPU quota of {@code cpus}, its carriers from the quota ({@link CpuQuota}). */
    public LabServer labInCpuQuota(double cpus, Map<String, String> properties, String name) {
        return judged(keep(LabServer.startInCpuQuota(Jdks.current(), cpus, List.of(), properties, Project.testLogs(), name)));
    }

    /** The service where the test itself expects, and judges, event loops reported blocked. */
    public LabServer labExpectingBlockedEventLoops(String name, Map<String, String> properties) {
        return keep(LabServer.start(Jdks.current(), List.of(), properties, Project.testLogs(), name));
    }

    public SecondServiceProcess secondService(Jdks.Jdk jdk, List<String> flags, String name) {
        return keep(SecondServiceProcess.start(jdk, flags, Project.testLogs(), name));
    }

    /** Anything else to close with the test, or with the class when started before the tests; returned as given. */
    public <T extends AutoCloseable> T keep(T resource) {
        (inTest ? forTest : forClass).push(resource);
        return resource;
    }

    /** A server a test starts for the tests after it too: closed with the class, wherever it was started. */
    public <T extends AutoCloseable> T keepForClass(T resource) {
        forTest.remove(resource);
        forClass.push(resource);
        return resource;
    }

    private LabServer judged(LabServer server) {
        judged.put(server, 0);
        return server;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        inTest = true;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        inTest = false;
        judgeAndClose(forTest);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        judgeAndClose(forClass);
    }

    /** Each running lab server's new warnings about its event loops: none, or a failure with their stacks. */
    private void judgeEventLoops() {
        assertAll(judged.entrySet().stream().<Executable>map(server -> () -> {
            List<LabServer.BlockedEventLoop> warnings = server.getKey().eventLoopBlockedWarnings();
            List<LabServer.BlockedEventLoop> fresh = List.copyOf(warnings.subList(server.getValue(), warnings.size()));
            server.setValue(warnings.size());
            ServiceConditions.assertNoEventLoopBlocked(server.getKey().log().toString(), fresh);
        }));
    }

    /** Judges the event loops, then closes each resource, last kept first, and fails with whatever failed to close. */
    private void judgeAndClose(Deque<AutoCloseable> resources) {
        List<AutoCloseable> closing = new ArrayList<>(resources);
        resources.clear();
        try {
            judgeEventLoops();
        } finally {
            closing.forEach(judged::remove);
            assertAll(closing.stream().<Executable>map(resource -> resource::close));
        }
    }
}
