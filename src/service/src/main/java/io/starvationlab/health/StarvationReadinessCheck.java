package io.starvationlab.health;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.quarkus.runtime.Startup;
import io.starvationlab.config.LabConfig;
import io.starvationlab.observe.CarrierCanary;
import io.starvationlab.observe.CarrierWaits;

/**
 * Opt-in ({@code lab.starvation.readiness.enabled}): readiness goes DOWN while a request, or the carrier
 * canary, has waited longer than {@code lab.starvation.threshold} for a carrier, so a starving pod
 * leaves its Service's endpoints until its carriers free up. Either signal is enough: the requests
 * ({@link CarrierWaits}) show a backlog whichever queue the canary happens to draw, and the canary
 * shows starvation with no request in flight. Deliberately never a liveness check: a restart does not
 * unpin anything, it only turns starvation into a restart loop.
 */
@Readiness
@Startup
@ApplicationScoped
public class StarvationReadinessCheck implements HealthCheck {

    private final CarrierCanary canary;
    private final CarrierWaits requests;
    private final LabConfig.Starvation settings;

    public StarvationReadinessCheck(CarrierCanary canary, CarrierWaits requests, LabConfig config) {
        this.canary = canary;
        this.requests = requests;
        this.settings = config.starvation();
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("carrier-starvation");
        if (!settings.readiness().enabled()) {
            return response.up().withData("enabled", false).build();
        }
        Duration threshold = settings.threshold();
        long requestStalledMillis = Math.round(requests.stalledMillis());
        boolean starved = requestStalledMillis > threshold.toMillis() || (canary.enabled() && canary.starvedLongerThan(threshold));
        return response.status(!starved)
                .withData("enabled", true)
                .withData("stalledMillis", Math.round(canary.stalledMillis()))
                .withData("requestStalledMillis", requestStalledMillis)
                .withData("thresholdMillis", threshold.toMillis())
                .build();
    }
}
