package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void defaultsAreThirtySecondsAQuarterSecondApartWithHalfASecondThreshold() {
        Options options = Options.parse(new String[] {"--jmx", "localhost:9010"});
        assertThat(options.duration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(options.interval()).isEqualTo(Duration.ofMillis(250));
        assertThat(options.threshold()).isEqualTo(Duration.ofMillis(500));
        assertThat(options.pinnedThreshold()).isEqualTo(Duration.ofMillis(20));
        assertThat(options.threadDumps()).isTrue();
        assertThat(Options.parse(new String[] {"--pid", "42", "--skip", "a.b.,c.D"}).skip()).isEqualTo(List.of("a.b.", "c.D"));
    }

    @Test
    void badCommandLinesSayWhatIsWrong() {
        assertThatIllegalArgumentException().isThrownBy(() -> Options.parse(new String[] {})).withMessageContaining("exactly one of --pid and --jmx");
        assertThatIllegalArgumentException().isThrownBy(() -> Options.parse(new String[] {"--pid", "1", "--jmx", "h:1"}))
                .withMessageContaining("exactly one");
        assertThatIllegalArgumentException().isThrownBy(() -> Options.parse(new String[] {"--pid", "x"})).withMessageContaining("positive whole number");
        assertThatIllegalArgumentException().isThrownBy(() -> Options.parse(new String[] {"--pid", "1", "--seconds"})).withMessageContaining("needs a value");
        assertThatIllegalArgumentException().isThrownBy(() -> Options.parse(new String[] {"--pid", "1", "--verbose"})).withMessageContaining("unknown option");
        assertThatIllegalArgumentException().isThrownBy(() -> Options.parse(new String[] {"--pid", "1", "--seconds", "1", "--interval-ms", "800"}))
                .withMessageContaining("two samples");
    }

    @Test
    void aJmxHostAndPortIsTheAgentsRegistry() throws Exception {
        assertThat(TargetJvm.serviceUrl("localhost:9010").toString()).isEqualTo("service:jmx:rmi:///jndi/rmi://localhost:9010/jmxrmi");
        assertThat(TargetJvm.serviceUrl("service:jmx:rmi://127.0.0.1/stub/abc").toString()).isEqualTo("service:jmx:rmi://127.0.0.1/stub/abc");
    }
}
