package io.starvationlab.health;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.starvationlab.config.LabConfig;
import io.starvationlab.observe.CarrierCanary;

/**
 * Opt-in ({@code lab.starvation.readiness.enabled}): readiness goes DOWN while the carrier canary has
 * been stalled longer than {@code lab.starvation.threshold}, so a starving pod leaves its Service's
 * endpoints until its carriers free up. Deliberately never a liveness check: a restart does not
 * unpin anything, it only turns starvation into a restart loop.
 */
@Readiness
@ApplicationScoped
public class StarvationReadinessCheck implements HealthCheck {

    private final CarrierCanary canary;
    private final LabConfig.Starvation settings;

    public StarvationReadinessCheck(CarrierCanary canary, LabConfig config) {
        this.canary = canary;
        this.settings = config.starvation();
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("carrier-starvation");
        if (!settings.readiness().enabled() || !canary.enabled()) {
            return response.up().withData("enabled", false).build();
        }
        long thresholdMillis = settings.threshold().toMillis();
        return response.status(!canary.starvedLongerThan(settings.threshold()))
                .withData("enabled", true)
                .withData("stalledMillis", Math.round(canary.stalledMillis()))
                .withData("thresholdMillis", thresholdMillis)
                .build();
    }
}
