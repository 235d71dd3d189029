package io.starvationlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

import io.starvationlab.experiment.server.LabServer;

/** What a server's log says of its event loops under starvation: Vert.x's blocked-thread checker must have nothing to report. */
final class ServerLog {

    private ServerLog() {
    }

    /** No warning of Vert.x's blocked-thread checker about an event loop, with the stack of any there is. */
    static void assertNoEventLoopBlocked(LabServer server) {
        List<String> blocked = Stream.of(server.logText().split("\n(?=\\S)"))
                .filter(entry -> entry.contains("BlockedThreadChecker") && entry.contains("vert.x-eventloop-thread")).toList();
        assertThat(blocked).as("event loops reported blocked in %s", server.log()).isEmpty();
    }
}
