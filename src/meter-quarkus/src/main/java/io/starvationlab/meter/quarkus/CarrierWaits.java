package io.starvationlab.meter.quarkus;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.starvationlab.meter.CarrierWaitMeter;

/**
 * The starvation meter as a bean: quarkus-micrometer binds every {@code MeterBinder} bean at start-up
 * ({@code MicrometerRecorder}: "Discover and bind MeterBinders"), which starts its canary. An application that
 * produces its own meter leaves this jar out: as an {@code @DefaultBean} this one was never bound (Quarkus 3.33).
 */
public class CarrierWaits {

    @Produces
    @Singleton
    CarrierWaitMeter carrierWaitMeter() {
        return new CarrierWaitMeter();
    }

    void close(@Disposes CarrierWaitMeter meter) {
        meter.close();
    }
}
