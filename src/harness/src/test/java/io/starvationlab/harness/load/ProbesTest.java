package io.starvationlab.harness.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProbesTest {

    @Test
    void shouldReadTheEventLoopFromAProbesAnswerAndNoneWhereItNamesNone() {
        assertThat(Probes.eventLoopOf("{\"probe\":\"virtual\",\"thread\":\"\",\"virtual\":true,\"eventLoop\":\"vert.x-eventloop-thread-3\"}"))
                .isEqualTo("vert.x-eventloop-thread-3");
        assertThat(Probes.eventLoopOf("{\"probe\":\"event-loop\",\"eventLoop\" : \"vert.x-eventloop-thread-0\",\"virtual\":false}"))
                .isEqualTo("vert.x-eventloop-thread-0");
        assertThat(Probes.eventLoopOf("{\"status\":\"UP\",\"checks\":[]}")).isNull();
        assertThat(Probes.eventLoopOf("")).isNull();
        assertThat(Probes.eventLoopOf(null)).isNull();
    }
}
