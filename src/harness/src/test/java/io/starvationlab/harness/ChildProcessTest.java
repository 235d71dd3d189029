package io.starvationlab.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

@DisabledOnOs(value = OS.WINDOWS, disabledReason = "the children are POSIX shell commands")
class ChildProcessTest {

    @Test
    void shouldReturnTheExitCodeAndBothOutputStreamsOrStandardOutputAlone() {
        ChildProcess.Result result = ChildProcess.of("sh", "-c", "echo out; echo err >&2; exit 3").run(Duration.ofSeconds(30));
        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.output()).contains("out", "err");
        assertThat(ChildProcess.of("sh", "-c", "echo line; echo noise >&2").withErrorsToConsole().run(Duration.ofSeconds(30)).output())
                .isEqualTo("line\n");
    }

    /** A shell that ignores SIGTERM and has started a grandchild, which inherits that: both are killed. */
    @Test
    void shouldKillTheWholeTreeEvenWhenItIgnoresSigterm() {
        long start = System.nanoTime();
        ChildProcess.TimedOut timedOut = assertThrows(ChildProcess.TimedOut.class,
                () -> ChildProcess.of("sh", "-c", "trap '' TERM; sleep 61 & echo \"grandchild $!\"; wait").run(Duration.ofSeconds(1)));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took).as("the bound, the SIGTERM grace, then SIGKILL").isLessThan(ChildProcess.TERMINATION_GRACE.plusSeconds(10));
        assertThat(timedOut).hasMessageContaining("did not finish within PT1S");

        long grandchild = Long.parseLong(timedOut.output().replaceAll("(?s).*grandchild (\\d+).*", "$1"));
        // SIGKILL is sent, not yet necessarily delivered
        await("grandchild " + grandchild + " gone").atMost(Duration.ofSeconds(5)).until(() -> !Machine.running(grandchild));
        assertThat(Machine.running(ProcessHandle.current().pid())).as("this JVM, running").isTrue();
    }

    @Test
    void aChildThatPrintsMegabytesShouldNotBlock() {
        int bytes = 8 * 1024 * 1024;
        ChildProcess.Result result = ChildProcess.of("sh", "-c", "head -c " + bytes + " /dev/zero | tr '\\0' x").run(Duration.ofSeconds(60));
        assertThat(result.exitCode()).isZero();
        assertThat(result.output()).hasSize(bytes);
    }

    @Test
    void shouldFeedInputEnvironmentAndDirectoryOrTheEndOfInputAtOnce(@TempDir Path directory) throws Exception {
        Path input = Files.writeString(directory.resolve("input.txt"), "from a file\n");
        ChildProcess.Result result = ChildProcess.of("sh", "-c", "cat; echo \"$LAB_WORD\"; pwd").in(directory)
                .withEnvironment(Map.of("LAB_WORD", "hello")).withInput(input).run(Duration.ofSeconds(30));
        assertThat(result.output()).isEqualTo("from a file\nhello\n" + directory.toRealPath() + "\n");
        assertThat(ChildProcess.of("cat").run(Duration.ofSeconds(30))).as("given no input").isEqualTo(new ChildProcess.Result(0, ""));
    }
}
