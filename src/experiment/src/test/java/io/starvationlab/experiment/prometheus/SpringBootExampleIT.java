package io.starvationlab.experiment.prometheus;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.Program;
import io.starvationlab.harness.junit.Needs;
import io.starvationlab.harness.junit.Servers;

/**
 * The Spring Boot example ({@code src/spring-boot-example}), wired as docs/starving.md says: Tomcat on virtual threads, the
 * starvation meter bound by its dependency alone, the actuator's Prometheus endpoint on the management port. It starves
 * under pinning on JDK 21 and under CPU-bound work, not under a plain wait nor under {@code synchronized} on JDK 24+, and
 * its scrape answers while every carrier is held ({@link OwnServiceAlerts}).
 */
class SpringBootExampleIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    @Test
    void shouldAlertWhenItsCarriersAreHeldAndOnlyThenWhileItsScrapeAnswers() {
        Jdks.Jdk jdk21 = Needs.jdk(21);
        Jdks.Jdk modern = Jdks.current().feature() >= 24 ? Jdks.current() : Needs.jdk(25); // synchronized unmounts from JDK 24
        OwnServiceAlerts.Launch launch = (port, management) -> List.of("-jar", Program.SPRING_BOOT_EXAMPLE.jar().toString(),
                "--server.address=127.0.0.1", "--server.port=" + port, "--management.server.address=127.0.0.1",
                "--management.server.port=" + management);
        OwnServiceAlerts alerts = OwnServiceAlerts.start(servers, "spring-boot-example", launch,
                new OwnServiceAlerts.Metrics(true, "/actuator/prometheus", false), jdk21, modern);

        alerts.free(alerts.on(modern.feature()), "/sleep", "/sync");
        alerts.starved(alerts.on(21), "/sync");
        alerts.starved(alerts.on(modern.feature()), "/cpu");
    }
}
