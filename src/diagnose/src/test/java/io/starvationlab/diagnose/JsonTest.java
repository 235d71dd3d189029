package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void whatItWritesItReadsBack() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("text", "a \"quoted\" \\ line\nand a tab\t\u0001");
        value.put("number", new BigDecimal("12.5"));
        value.put("list", List.of(Boolean.TRUE, Boolean.FALSE, new BigDecimal("-3")));
        value.put("nothing", null);
        value.put("empty", Map.of());
        value.put("none", List.of());
        value.put("nested", Map.of("k", List.of(Map.of("x", "y"))));
        assertThat(Json.parse(Json.write(value))).isEqualTo(value);
        assertThat(Json.parse("{\"u\": \"\\u00e9\"}")).isEqualTo(Map.of("u", "é"));
        assertThat(Json.parse(" [ 1e3 , 2 ] ")).isEqualTo(Arrays.asList(new BigDecimal("1e3"), new BigDecimal("2")));
    }

    @Test
    void brokenJsonSaysWhere() {
        assertThatIllegalArgumentException().isThrownBy(() -> Json.parse("{\"a\": 1")).withMessageContaining("offset");
        assertThatIllegalArgumentException().isThrownBy(() -> Json.parse("[1] x")).withMessageContaining("trailing");
        assertThatIllegalArgumentException().isThrownBy(() -> Json.parse("\"open")).withMessageContaining("unterminated");
    }
}
