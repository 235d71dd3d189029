package io.starvationlab.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import io.starvationlab.downstream.Downstream;


/** Parsing a {@code /work} request: defaults, bounds, and refusals of anything ambiguous. */
class WorkRequestTest {

    private static WorkRequest parse(String mode, Map<String, List<String>> query) {
        return WorkRequest.parse(mode, query, 100, 30_000);
    }

    @Test
    void shouldTakeTheDefaultsForAnEmptyQuery() {
        assertThat(parse("pinned", Map.of())).isEqualTo(new WorkRequest(Mode.PINNED, Downstream.DB, LockScope.PRIVATE, 100));
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

    @Test
    void shouldRejectUnknownRepeatedOrInvalidParameters() {
        assertThatThrownBy(() -> parse("unpinned", Map.of("mss", List.of("1")))).isInstanceOfSatisfying(InvalidRequestException.class,
                e -> assertThat(e.parameter()).isEqualTo("mss"));
        assertThatThrownBy(() -> parse("unpinned", Map.of("ms", List.of("1", "2")))).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> parse("unpinned", Map.of("downstream", List.of("DB")))).isInstanceOfSatisfying(
                InvalidRequestException.class, e -> assertThat(e.allowed()).containsExactly("db", "sleep"));
        assertThatThrownBy(() -> parse("pinned", Map.of("lock", List.of("global")))).isInstanceOf(InvalidRequestException.class);
    }
}
