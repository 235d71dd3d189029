package io.starvationlab.observe;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.starvationlab.config.LabConfig;
import io.starvationlab.meter.CarrierWaitMeter;

/**
 * The lab measures its carriers as any service can, through the starvation meter (src/meter): Quarkus binds
 * it as a {@code MeterBinder} at start-up, {@code lab.canary.*} set its canary, and
 * {@code io.starvationlab.admission.HandOff} hands each request over through it.
 */
public class CarrierMeter {

    @Produces
    @Singleton
    CarrierWaitMeter carrierWaitMeter(LabConfig config) {
        return new CarrierWaitMeter(config.canary().enabled() ? config.canary().interval() : null);
    }

    void stop(@Disposes CarrierWaitMeter meter) {
        meter.close();
    }
}
