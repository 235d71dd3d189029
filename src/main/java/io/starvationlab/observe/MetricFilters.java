package io.starvationlab.observe;

import java.util.Arrays;
import java.util.List;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/**
 * Gives {@code http.server.requests} histogram buckets on the URIs the lab compares (probes, work,
 * health), so {@code histogram_quantile} works in Prometheus; other URIs stay cheap.
 */
public class HttpServerHistograms {

    private static final List<String> COMPARED_URIS = List.of("/probe/", "/work/", "/q/health");

    @Produces
    @Singleton
    MeterFilter httpServerHistograms() {
        double[] bucketsNanos = Arrays.stream(LatencyBuckets.bounds()).mapToDouble(bound -> bound.toNanos()).toArray();
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                String uri = id.getTag("uri");
                if ("http.server.requests".equals(id.getName()) && uri != null && COMPARED_URIS.stream().anyMatch(uri::startsWith)) {
                    return DistributionStatisticConfig.builder().serviceLevelObjectives(bucketsNanos).build().merge(config);
                }
                return config;
            }
        };
    }
}
