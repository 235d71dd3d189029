package io.starvationlab.experiment.prometheus;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.starvationlab.harness.Jdks;
import io.starvationlab.harness.Program;
import io.starvationlab.harness.junit.Needs;
import io.starvationlab.harness.junit.Servers;
import io.starvationlab.harness.junit.ServiceConditions;

/**
 * The Quarkus example ({@code src/quarkus-example}), wired as docs/starving.md says: {@code @RunOnVirtualThread}
 * endpoints, the starvation meter bound by its dependency alone, {@code /q/metrics} where Quarkus serves it by default: on
 * the service's port, a blocking route run by the worker pool. It starves under pinning on JDK 21 and under CPU-bound work,
 * not under a plain wait nor under {@code synchronized} on JDK 24+, its scrape (a plain one: {@code job} and
 * {@code instance} alone) answers while every carrier is held ({@link OwnServiceAlerts}), and no event loop is reported blocked.
 */
class QuarkusExampleIT {

    @RegisterExtension
    static final Servers servers = new Servers();

    @Test
    void shouldAlertWhenItsCarriersAreHeldAndOnlyThenWhileItsScrapeAnswers() {
        Jdks.Jdk jdk21 = Needs.jdk(21);
        Jdks.Jdk modern = Jdks.current().feature() >= 24 ? Jdks.current() : Needs.jdk(25); // synchronized unmounts from JDK 24
        OwnServiceAlerts.Launch launch = (port, management) -> List.of("-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port,
                "-jar", Program.QUARKUS_EXAMPLE.jar().toString());
        // scraped plainly, job and instance alone: the rules' text must render without a cluster's labels
        OwnServiceAlerts alerts = OwnServiceAlerts.start(servers, "quarkus-example", launch,
                new OwnServiceAlerts.Metrics(false, "/q/metrics", true), jdk21, modern);

        alerts.free(alerts.on(modern.feature()), "/sleep", "/sync");
        alerts.starved(alerts.on(21), "/sync");
        alerts.starved(alerts.on(modern.feature()), "/cpu");
        alerts.services().forEach(service -> ServiceConditions.assertNoEventLoopBlocked(service.process().log().toString(),
                service.process().logText()));
    }
}
