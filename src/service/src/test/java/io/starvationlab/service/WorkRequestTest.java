package io.starvationlab.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import io.starvationlab.downstream.Downstream;

/** Parsing a {@code /work} request: every parameter read, ms to its bounds; its defaults and other refusals are WorkResourceTest's. */
class WorkRequestTest {

    private static WorkRequest parse(String mode, Map<String, List<String>> query) {
        return WorkRequest.parse(mode, query, 100, 30_000);
    }

    @Test
    void shouldReadEveryParameter() {
        assertThat(parse("reentrant", Map.of("ms", List.of("0"), "downstream", List.of("sleep"), "lock", List.of("shared"))))
                .isEqualTo(new WorkRequest(Mode.REENTRANT, Downstream.SLEEP, LockScope.SHARED, 0));
        assertThat(parse("cpu", Map.of("ms", List.of("30000"))).ms()).isEqualTo(30_000);
    }

    @Test
    void shouldRejectMsOutOfRangeOrNotAWholeNumber() {
        for (String ms : List.of("", "-1", "30001", "1.5", "1e3", "0x10", " 1", "9999999999")) {
            assertThatThrownBy(() -> parse("unpinned", Map.of("ms", List.of(ms)))).as("ms=%s", ms)
                    .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.parameter()).isEqualTo("ms"));
        }
    }
}
