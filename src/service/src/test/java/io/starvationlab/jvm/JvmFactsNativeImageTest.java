package io.starvationlab.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * In a native executable nothing may open a JFR stream: the start-up probe of {@code synchronized}
 * pinning reports "not measured" at once instead. GraalVM marks native-image run time with the system
 * property {@code org.graalvm.nativeimage.imagecode=runtime}, which Quarkus' {@code ImageMode} reads.
 */
class JvmFactsNativeImageTest {

    private static final String IMAGE_CODE = "org.graalvm.nativeimage.imagecode";
    private static final String PROBE_RUNNER = "lab-synchronized-pin-probe-runner";

    @AfterEach
    void clearImageCode() {
        System.clearProperty(IMAGE_CODE);
    }

    @Test
    void shouldNotStartTheJfrProbeInANativeImage() {
        System.setProperty(IMAGE_CODE, "runtime");
        JvmFacts facts = new JvmFacts();

        facts.onStart(null);

        assertThat(Thread.getAllStackTraces().keySet()).as("the JFR probe thread").noneMatch(t -> PROBE_RUNNER.equals(t.getName()) && t.isAlive());
        long started = System.nanoTime();
        assertThat(facts.synchronizedPins()).as("unknown, not guessed").isNull();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
    }
}
