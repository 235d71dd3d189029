package io.starvationlab.observe;

import java.util.Arrays;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/**
 * Shapes the meters before they reach Prometheus.
 */
public class MetricFilters {

    /**
     * Gives {@code http.server.requests} histogram buckets, so {@code histogram_quantile} works on the
     * probe, work and health URIs the lab compares. Every URI gets them: one family must not mix
     * histograms and summaries, or it is typed a summary and its buckets read as strays.
     */
    @Produces
    @Singleton
    MeterFilter httpServerHistograms() {
        double[] bucketsNanos = Arrays.stream(LatencyBuckets.bounds()).mapToDouble(bound -> bound.toNanos()).toArray();
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if ("http.server.requests".equals(id.getName())) {
                    return DistributionStatisticConfig.builder().serviceLevelObjectives(bucketsNanos).build().merge(config);
                }
                return config;
            }
        };
    }

    /**
     * Takes double quotes out of meter descriptions: the Prometheus client writes them into HELP as
     * {@code \"}, which the text format (0.0.4) does not allow and Prometheus's own parser rejects.
     */
    @Produces
    @Singleton
    MeterFilter helpTextsWithoutDoubleQuotes() {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                String description = id.getDescription();
                if (description == null || description.indexOf('"') < 0) {
                    return id;
                }
                return new Meter.Id(id.getName(), Tags.of(id.getTagsAsIterable()), id.getBaseUnit(),
                        description.replace('"', '\''), id.getType());
            }
        };
    }
}
