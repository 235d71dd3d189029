package io.starvationlab.health;

import java.time.Duration;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.quarkus.runtime.Startup;
import io.starvationlab.config.LabConfig;
import io.starvationlab.meter.CarrierWaitMeter;

/**
 * Opt-in ({@code lab.starvation.readiness.enabled}): readiness goes DOWN while a request, or the carrier
 * canary, has waited longer than {@code lab.starvation.threshold} for a carrier, so a starving pod
 * leaves its Service's endpoints until its carriers free up ({@link CarrierWaitMeter}). Either signal is
 * enough: the requests show a backlog whichever queue the canary happens to draw, and the canary shows
 * starvation with no request in flight; the canary counts with its probe in flight or its last, so a long
 * stall does not read as healthy in the pause between two probes. Deliberately never a liveness check: a
 * restart does not unpin anything, it only turns starvation into a restart loop.
 */
@Readiness
@Startup
@ApplicationScoped
public class StarvationReadinessCheck implements HealthCheck {

    private final CarrierWaitMeter carriers;
    private final LabConfig.Starvation settings;

    public StarvationReadinessCheck(CarrierWaitMeter carriers, LabConfig config) {
        this.carriers = carriers;
        this.settings = config.starvation();
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("carrier-starvation");
        if (!settings.readiness().enabled()) {
            return response.up().withData("enabled", false).build();
        }
        Duration threshold = settings.threshold();
        Duration requestStalled = carriers.taskStalled();
        Duration canaryStalled = carriers.canaryStalled();
        boolean starved = Stream.of(requestStalled, canaryStalled, carriers.canaryLastWait()).anyMatch(wait -> wait.compareTo(threshold) > 0);
        return response.status(!starved)
                .withData("enabled", true)
                .withData("stalledMillis", canaryStalled.toMillis())
                .withData("requestStalledMillis", requestStalled.toMillis())
                .withData("thresholdMillis", threshold.toMillis())
                .build();
    }
}
